#include "ember/utils/benchmark/timer.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "ember/core/error.h"
#include "ember/core/parallel.h"

namespace torch::utils::benchmark {

namespace {
// Sets the thread count for a measurement and restores it after.
class ThreadsGuard {
 public:
  explicit ThreadsGuard(int n) : prev_(get_num_threads()) { set_num_threads(n); }
  ~ThreadsGuard() { set_num_threads(prev_); }

 private:
  int prev_;
};
}  // namespace

Timer::Timer(std::function<void()> stmt, std::string label, std::string sub_label, std::string description,
             int num_threads, std::function<void()> setup, std::string env)
    : stmt_(std::move(stmt)), setup_(std::move(setup)) {
  EMBER_CHECK(static_cast<bool>(stmt_), "Timer: stmt must be a callable");
  EMBER_CHECK(num_threads >= 1, "Timer: num_threads must be >= 1, got ", num_threads);
  spec_.stmt = "";
  spec_.label = std::move(label);
  spec_.sub_label = std::move(sub_label);
  spec_.description = std::move(description);
  spec_.env = std::move(env);
  spec_.num_threads = num_threads;
}

double Timer::time_block(int64_t number) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  for (int64_t i = 0; i < number; ++i) stmt_();
  return std::chrono::duration<double>(clock::now() - t0).count();
}

int64_t Timer::estimate_block_size(double min_run_time) {
  // The median of five empty blocks is the timer's own overhead; doubles as a warmup.
  std::vector<double> overheads;
  for (int i = 0; i < 5; ++i) overheads.push_back(time_block(0));
  std::sort(overheads.begin(), overheads.end());
  const double overhead = overheads[2];
  int64_t number = 1;
  while (true) {
    const double taken = time_block(number);
    const double relative_overhead = taken > 0 ? overhead / taken : 1.0;
    if (relative_overhead <= 1e-4 && taken >= min_run_time / 1000) break;
    if (taken > min_run_time) break;
    if (number * 10 > 2147483647) break;
    number *= 10;
  }
  return number;
}

Measurement Timer::timeit(int64_t number) {
  EMBER_CHECK(number >= 1, "Timer.timeit: number must be >= 1, got ", number);
  ThreadsGuard threads(spec_.num_threads);
  if (setup_) setup_();
  time_block(std::max<int64_t>(number / 100, 2));  // warmup
  return Measurement(number, {time_block(number)}, spec_);
}

Measurement Timer::blocked_autorange(double min_run_time, const Callback& callback) {
  ThreadsGuard threads(spec_.num_threads);
  if (setup_) setup_();
  const int64_t number = estimate_block_size(min_run_time);
  std::vector<double> times;
  double total = 0;
  while (total < min_run_time || times.empty()) {
    const double t = time_block(number);
    times.push_back(t);
    total += t;
    if (callback) callback(number, t);
  }
  return Measurement(number, std::move(times), spec_);
}

Measurement Timer::adaptive_autorange(double threshold, double min_run_time, double max_run_time,
                                      const Callback& callback) {
  EMBER_CHECK(threshold > 0 && min_run_time >= 0 && max_run_time > 0,
              "Timer.adaptive_autorange: threshold and max_run_time must be positive, min_run_time non-negative");
  ThreadsGuard threads(spec_.num_threads);
  if (setup_) setup_();
  const int64_t number = estimate_block_size(0.05);
  std::vector<double> times;
  double total = 0;
  bool can_stop = false;
  while (total < min_run_time || !can_stop) {
    const double t = time_block(number);
    times.push_back(t);
    total += t;
    if (callback) callback(number, t);
    can_stop = times.size() > 3 && Measurement(number, times, spec_).meets_confidence(threshold);
    if (total > max_run_time) break;
  }
  return Measurement(number, std::move(times), spec_);
}

}  // namespace torch::utils::benchmark
