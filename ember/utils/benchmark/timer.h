#pragma once
// torch.utils.benchmark.Timer for C++ callables:
//
//   namespace bm = ember::utils::benchmark;
//   bm::Timer t([&] { x + y; }, "add", "1000 floats", "ember", /*num_threads=*/1);
//   std::cout << t.blocked_autorange(0.2) << "\n";
//
// The statement runs with `num_threads` set (and restored afterwards); the
// block size is chosen so that timer overhead is negligible (below 1e-4 of a
// block), as PyTorch's _estimate_block_size does.
#include <functional>
#include <string>

#include "ember/utils/benchmark/measurement.h"

namespace torch::utils::benchmark {

class Timer {
 public:
  using Callback = std::function<void(int64_t number, double time)>;
  explicit Timer(std::function<void()> stmt, std::string label = "", std::string sub_label = "",
                 std::string description = "", int num_threads = 1, std::function<void()> setup = {},
                 std::string env = "");

  // Runs the statement `number` times as one block (after a short warmup).
  Measurement timeit(int64_t number = 1000000);
  // Blocks of an estimated size until `min_run_time` seconds have been spent.
  Measurement blocked_autorange(double min_run_time = 0.2, const Callback& callback = {});
  // Blocks until the IQR is within `threshold` of the median (at least
  // `min_run_time`, at most `max_run_time` seconds).
  Measurement adaptive_autorange(double threshold = 0.1, double min_run_time = 0.01, double max_run_time = 10.0,
                                 const Callback& callback = {});
  const TaskSpec& task_spec() const { return spec_; }

 private:
  double time_block(int64_t number);  // seconds for `number` runs
  int64_t estimate_block_size(double min_run_time);

  std::function<void()> stmt_;
  std::function<void()> setup_;
  TaskSpec spec_;
};

}  // namespace torch::utils::benchmark
