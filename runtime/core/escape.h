// Where a Cancelled that reached a noexcept frame resumes (escape.cpp).
#pragma once
#include <csetjmp>

namespace ascgen {
namespace core {

// A core thread or a host program's main arms its escape right after setjmp(*point) returned 0 and disarms
// it when its kernel or main is over. A Cancelled thrown inside a destructor of that thread (a core whose body
// ended and whose teardown, the library's ~TPipe, reaches a hook after another core faulted) would be
// std::terminate: the whole process, Python included. The terminate handler longjmps to the armed point
// instead, as if the Cancelled had been caught there (the frames between are abandoned, their destructors
// not run: their core is cancelled and its memory is the run's).
void arm_escape(std::jmp_buf* point);
void disarm_escape();
// Called where setjmp returned 1 (the escape was taken): ends the catch the terminate path began.
void finish_escape();

}  // namespace core
}  // namespace ascgen
