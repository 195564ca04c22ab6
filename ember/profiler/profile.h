#pragma once
// torch.profiler for C++: `profile` records every op Ember dispatches while it
// is active (RAII or start()/stop()), optionally on a schedule advanced by
// step(); `record_function` labels a scope.
//
//   namespace prof = torch::profiler;
//   prof::profile p(prof::ProfileOptions().record_shapes(true).profile_memory(true));
//   { prof::record_function r("forward"); model->forward(x); }
//   p.stop();
//   std::cout << p.key_averages().table("self_cpu_time_total", 10);
//   p.export_chrome_trace("trace.json");
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/record_scope.h"
#include "ember/profiler/events.h"

namespace torch::profiler {

enum class ProfilerActivity { CPU };
enum class ProfilerAction { NONE, WARMUP, RECORD, RECORD_AND_SAVE };

// step number -> action (torch.profiler.schedule's contract).
using Schedule = std::function<ProfilerAction(int64_t step)>;

// Skips `skip_first` steps, then cycles: `wait` idle steps, `warmup` steps
// with the profiler running but discarded, `active` recorded steps (the last
// one saves: on_trace_ready fires). repeat = 0 cycles until the profile stops.
Schedule schedule(int64_t wait, int64_t warmup, int64_t active, int64_t repeat = 0, int64_t skip_first = 0);

class profile;

struct ProfileOptions {
  TORCH_ARG(std::vector<ProfilerActivity>, activities) = {ProfilerActivity::CPU};
  TORCH_ARG(bool, record_shapes) = false;
  TORCH_ARG(bool, profile_memory) = false;
  TORCH_ARG(bool, with_stack) = false;
  // Empty: record from construction (or start()) until stop().
  TORCH_ARG(Schedule, schedule);
  TORCH_ARG(std::function<void(profile&)>, on_trace_ready);
  // Starts on construction (the `with profile(...)` form); false: call start().
  TORCH_ARG(bool, start_now) = true;
};

class profile {
 public:
  explicit profile(ProfileOptions options = {});
  ~profile();  // stops (firing on_trace_ready) if still running
  profile(const profile&) = delete;
  profile& operator=(const profile&) = delete;

  void start();
  void stop();
  // Marks the end of a training step: advances the schedule, and while
  // recording labels each step "ProfilerStep#<n>".
  void step();
  int64_t step_num() const { return step_num_; }

  // The events of the last recorded window.
  const EventList& events() const { return events_; }
  EventAvgList key_averages(bool group_by_input_shape = false, int group_by_stack_n = 0) const {
    return events_.key_averages(group_by_input_shape, group_by_stack_n);
  }
  void export_chrome_trace(const std::string& path) const { events_.export_chrome_trace(path); }
  const ProfileOptions& options() const { return options_; }

 private:
  void transit(ProfilerAction from, ProfilerAction to);
  void begin_collecting();
  void end_collecting(bool keep);
  void open_step_label();
  void close_step_label();

  ProfileOptions options_;
  EventList events_;
  ProfilerAction action_ = ProfilerAction::NONE;
  int64_t step_num_ = 0;
  bool started_ = false;
  bool collecting_ = false;
  RecordScope* step_label_ = nullptr;
};

// RAII label: everything inside shows up as children of `name`.
class record_function {
 public:
  explicit record_function(const std::string& name) {
    if (is_profiling()) scope_.start_named(name);
  }

 private:
  RecordScope scope_;
};

}  // namespace torch::profiler
