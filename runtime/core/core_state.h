// Read-only view of the running launch for the detectors (hb.cpp, timeline.cpp). Owned by the core.
#pragma once
#include <cstdint>

namespace ascgen {
namespace core {

int current_core();                 // index of the calling core thread in the launch [0, core_count()), -1 elsewhere
int current_task();                 // index of the task the calling core is in (or entering), -1 elsewhere
int core_count();                   // AIC cores first, then AIV cores
const char* core_label(int core);   // "AIC0", "AIV5"
const char* task_name(int task);    // kernel name of a task
int task_count();

}  // namespace core
}  // namespace ascgen
