// ascgen devkit backend: what the library's dav_3510 CPU mode expects from CANN's (closed) SIMT CPU
// model. ascgen does not emulate SIMT kernels: the types are defined so the headers compile, and every
// function is declared only, so a kernel that reaches the SIMT side fails to link and the backend names
// the function (docs/devkit.md, "Products"). The register-based vector side is modelled in
// ascgen_devkit/dav3510/.
#pragma once
#include "stub_def.h"
#include "ascgen_devkit/dav3510/simt.h"
