// A Cancelled that reaches a noexcept frame (escape.h): the terminate handler resumes the thread at its armed
// point instead of ending the process. Any other terminate goes to the handler there was before.
#include "escape.h"

#include <cxxabi.h>

#include <cstdlib>
#include <exception>
#include <mutex>
#include <typeinfo>

#include "ascgen/rt.h"

namespace ascgen {
namespace core {
namespace {

thread_local std::jmp_buf* tl_point = nullptr;
std::terminate_handler g_previous = nullptr;

[[noreturn]] void escape_or_terminate() {
    // The exception std::terminate was called for, read without rethrowing it (a rethrow would be one more
    // catch to end). A noexcept frame reached by an exception calls terminate after __cxa_begin_catch.
    const std::type_info* thrown = abi::__cxa_current_exception_type();
    std::jmp_buf* point = tl_point;
    if (point != nullptr && thrown != nullptr && *thrown == typeid(rt::Cancelled)) {
        tl_point = nullptr;
        std::longjmp(*point, 1);
    }
    if (g_previous != nullptr) g_previous();
    std::abort();
}

}  // namespace

void arm_escape(std::jmp_buf* point) {
    static std::once_flag installed;
    std::call_once(installed, [] { g_previous = std::set_terminate(escape_or_terminate); });
    tl_point = point;
}

void disarm_escape() { tl_point = nullptr; }

void finish_escape() { abi::__cxa_end_catch(); }   // the catch __cxa_call_terminate began: the Cancelled is freed

}  // namespace core
}  // namespace ascgen
