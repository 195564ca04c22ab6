#pragma once
// torch.utils.benchmark.Compare: measurements laid out as one table per label,
// rows by (num_threads, env, sub_label), columns by description.
//
//   [------------- add --------------]
//                 |  ember  |  libtorch
//   1 threads: ----------------------
//         1000    |   0.3   |    1.1
//
//   Times are in microseconds (us).
//
// Optional: significant-figure trimming, colour (ANSI; best per column or per
// row), variance markers, and ratio columns against a baseline description.
#include <string>
#include <vector>

#include "ember/utils/benchmark/measurement.h"

namespace torch::utils::benchmark {

class Compare {
 public:
  explicit Compare(std::vector<Measurement> results = {});
  void extend_results(const std::vector<Measurement>& results);
  void trim_significant_figures() { trim_ = true; }
  // rowwise: colour relative to the best in the row, else in the column.
  void colorize(bool rowwise = false) { colorize_ = rowwise ? 2 : 1; }
  void highlight_warnings() { highlight_ = true; }
  // Adds, for every other column, a "<column> / <baseline>" column of median ratios.
  void ratio_to(std::string baseline_description) { baseline_ = std::move(baseline_description); }
  std::string str() const;
  void print() const;

 private:
  std::string render_table(const std::vector<Measurement>& results) const;
  std::vector<Measurement> results_;
  bool trim_ = false;
  int colorize_ = 0;  // 0 none, 1 columnwise, 2 rowwise
  bool highlight_ = false;
  std::string baseline_;
};

}  // namespace torch::utils::benchmark
