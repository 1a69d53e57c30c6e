// Emulated AscendCL for hand-written host programs (`ascgen run`): device memory is host memory
// registered as GM with the core (bounds and race checks), streams are synchronous, launches
// (`kernel<<<...>>>`, rewritten by ascgen) run on the emulated cores before returning.
#pragma once
#include "acl/acl_base.h"
#include "acl/acl_rt.h"

// aclInit / aclFinalize: accepted once or more; the config file argument is ignored.
inline aclError aclInit(const char* /*configPath*/) { return ACL_SUCCESS; }
inline aclError aclFinalize() { return ACL_SUCCESS; }
