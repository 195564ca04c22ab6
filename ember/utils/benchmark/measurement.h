#pragma once
// torch.utils.benchmark's TaskSpec and Measurement: the times of repeated runs
// of one statement, with robust statistics (median, IQR) and an estimate of how
// many significant figures they support.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "ember/core/namespace.h"

namespace torch::utils::benchmark {

// What was measured; Compare groups by these fields.
struct TaskSpec {
  std::string stmt;         // a name for the statement (C++ callables have no source text)
  std::string label;        // the table a measurement belongs to
  std::string sub_label;    // its row
  std::string description;  // its column
  std::string env;          // distinguishes builds/environments in one table
  int num_threads = 1;

  // "label: sub_label" (or the stmt), then the description: the repr's heading.
  std::string title() const;
  std::string summarize() const;
  bool operator==(const TaskSpec& o) const = default;
};

class Measurement {
 public:
  // raw_times: seconds per block of `number_per_run` runs.
  Measurement(int64_t number_per_run, std::vector<double> raw_times, TaskSpec task_spec);

  int64_t number_per_run() const { return number_per_run_; }
  const std::vector<double>& raw_times() const { return raw_times_; }
  // Seconds per single run, one per block.
  const std::vector<double>& times() const { return times_; }
  const TaskSpec& task_spec() const { return spec_; }
  const std::string& label() const { return spec_.label; }
  const std::string& sub_label() const { return spec_.sub_label; }
  const std::string& description() const { return spec_.description; }
  const std::string& env() const { return spec_.env; }
  int num_threads() const { return spec_.num_threads; }
  std::string as_row_name() const;

  double median() const { return median_; }
  double mean() const { return mean_; }
  double iqr() const { return p75_ - p25_; }
  double p25() const { return p25_; }
  double p75() const { return p75_; }
  // IQR relative to the median below `threshold`.
  bool meets_confidence(double threshold = 0.1) const;
  bool has_warnings() const { return !warnings_.empty(); }
  const std::vector<std::string>& warnings() const { return warnings_; }
  // 1-4: how many digits of the median the spread of the middle half supports.
  int significant_figures() const;

  // Measurements of the same task (equal TaskSpecs) pooled into one each.
  static std::vector<Measurement> merge(const std::vector<Measurement>& ms);

  // PyTorch's repr block:
  //   <ember::utils::benchmark::Measurement object at 0x...>
  //   label: sub_label
  //     Median: 5.73 us
  //     IQR:    2.25 us (4.01 to 6.26)
  //     372 measurements, 100 runs per measurement, 1 thread
  std::string repr() const;

 private:
  int64_t number_per_run_;
  std::vector<double> raw_times_;
  std::vector<double> times_;
  std::vector<double> sorted_;
  TaskSpec spec_;
  double median_ = 0, mean_ = 0, p25_ = 0, p75_ = 0;
  std::vector<std::string> warnings_;
};

std::ostream& operator<<(std::ostream& os, const Measurement& m);

// Helpers shared with Compare (torch.utils.benchmark.utils.common).
struct TimeUnit {
  const char* name;  // "ns", "us", "ms", "s"
  double scale;      // seconds per unit
};
TimeUnit select_unit(double seconds);
const char* unit_to_english(const char* unit);
double trim_sigfig(double x, int n);
// Linear-interpolation quantile of sorted values (torch.quantile's default).
double quantile(const std::vector<double>& sorted, double q);

}  // namespace torch::utils::benchmark
