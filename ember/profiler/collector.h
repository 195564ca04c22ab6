#pragma once
// The recording session behind profiler::profile: per-thread event buffers
// filled by the op hook (core/record_scope.h) and merged into an EventList.
#include "ember/profiler/events.h"

namespace torch::profiler::detail {

struct CollectorOptions {
  bool record_shapes = false;
  bool profile_memory = false;
  bool with_stack = false;
};

// One session at a time: starting while another runs raises ember::Error.
void start_collecting(const CollectorOptions& opts);
// Stops recording and returns every thread's events, sorted by start time;
// scopes still open are closed at the stop time.
EventList stop_collecting();
bool collecting();

}  // namespace torch::profiler::detail
