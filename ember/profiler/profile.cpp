#include "ember/profiler/profile.h"

#include <cstdio>

#include "ember/core/error.h"
#include "ember/profiler/collector.h"

namespace torch::profiler {

Schedule schedule(int64_t wait, int64_t warmup, int64_t active, int64_t repeat, int64_t skip_first) {
  EMBER_CHECK(wait >= 0 && warmup >= 0 && active > 0 && repeat >= 0 && skip_first >= 0,
              "profiler::schedule: invalid arguments (wait=", wait, ", warmup=", warmup, ", active=", active,
              ", repeat=", repeat, ", skip_first=", skip_first, "); active must be positive, the rest non-negative");
  return [=](int64_t step) {
    if (step < skip_first) return ProfilerAction::NONE;
    step -= skip_first;
    const int64_t cycle = wait + warmup + active;
    if (repeat > 0 && step / cycle >= repeat) return ProfilerAction::NONE;
    const int64_t mod = step % cycle;
    if (mod < wait) return ProfilerAction::NONE;
    if (mod < wait + warmup) return ProfilerAction::WARMUP;
    return mod < cycle - 1 ? ProfilerAction::RECORD : ProfilerAction::RECORD_AND_SAVE;
  };
}

profile::profile(ProfileOptions options) : options_(std::move(options)) {
  for (ProfilerActivity a : options_.activities())
    EMBER_CHECK(a == ProfilerActivity::CPU, "profiler::profile: only ProfilerActivity::CPU is available");
  if (options_.start_now()) start();
}

profile::~profile() {
  try {
    stop();
  } catch (...) {
    // A destructor must not throw; a failing on_trace_ready during unwinding is dropped.
  }
}

void profile::start() {
  if (started_) return;
  started_ = true;
  step_num_ = 0;
  action_ = options_.schedule() ? options_.schedule()(0) : ProfilerAction::RECORD;
  transit(ProfilerAction::NONE, action_);
}

void profile::stop() {
  if (!started_) return;
  started_ = false;
  // Stopping inside a window saves it, as torch.profiler does on exit.
  if (action_ == ProfilerAction::RECORD || action_ == ProfilerAction::RECORD_AND_SAVE) {
    end_collecting(true);
    if (options_.on_trace_ready()) options_.on_trace_ready()(*this);
  } else if (collecting_) {
    end_collecting(false);
  }
  action_ = ProfilerAction::NONE;
}

void profile::step() {
  if (!started_) return;
  const ProfilerAction prev = action_;
  ++step_num_;
  action_ = options_.schedule() ? options_.schedule()(step_num_) : ProfilerAction::RECORD;
  transit(prev, action_);
}

// Note [Schedule transitions] (torch.profiler.profile's action map)
// Entering WARMUP starts collection whose events are later discarded; entering
// RECORD from WARMUP restarts it clean; leaving RECORD_AND_SAVE (or leaving
// RECORD early) stops, keeps the window and fires on_trace_ready.
void profile::transit(ProfilerAction from, ProfilerAction to) {
  using A = ProfilerAction;
  const bool was_rec = from == A::RECORD || from == A::RECORD_AND_SAVE;
  const bool is_rec = to == A::RECORD || to == A::RECORD_AND_SAVE;
  if (was_rec && (from == A::RECORD_AND_SAVE || !is_rec)) {
    if (from == A::RECORD)
      std::fprintf(stderr, "[ember profiler] warning: incomplete profiler step (RECORD -> NONE)\n");
    end_collecting(true);
    if (options_.on_trace_ready()) options_.on_trace_ready()(*this);
  } else if (was_rec && is_rec) {
    close_step_label();
    open_step_label();
    return;
  }
  if (to == A::WARMUP && !collecting_) begin_collecting();
  if (is_rec) {
    if (collecting_) end_collecting(false);  // drop the warmup
    begin_collecting();
    open_step_label();
  }
  if (to == A::NONE && collecting_) end_collecting(false);
}

void profile::begin_collecting() {
  detail::CollectorOptions o;
  o.record_shapes = options_.record_shapes();
  o.profile_memory = options_.profile_memory();
  o.with_stack = options_.with_stack();
  detail::start_collecting(o);
  collecting_ = true;
}

void profile::end_collecting(bool keep) {
  close_step_label();
  EventList ev = detail::stop_collecting();
  collecting_ = false;
  if (keep) events_ = std::move(ev);
}

void profile::open_step_label() {
  if (!options_.schedule() || step_label_ != nullptr) return;
  step_label_ = new RecordScope();
  step_label_->start_named("ProfilerStep#" + std::to_string(step_num_));
}

void profile::close_step_label() {
  delete step_label_;
  step_label_ = nullptr;
}

}  // namespace torch::profiler
