// The one-line hint a host program's in-process crash prints before the process dies (host_guard.cpp).
#pragma once

namespace ascgen {
namespace core {

// Around a host program's main (ascgen_call_main): fatal signals with no handler of their own say which
// program died and how to get a report, then take their default action.
void host_guard_begin(const char* program);
void host_guard_end();

}  // namespace core
}  // namespace ascgen
