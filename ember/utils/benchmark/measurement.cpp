#include "ember/utils/benchmark/measurement.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <sstream>

#include "ember/core/error.h"

namespace torch::utils::benchmark {

namespace {
// torch.utils.benchmark.utils.common's constants.
constexpr double kIqrWarnThreshold = 0.1;
constexpr double kIqrGrossWarnThreshold = 1.0;
constexpr double kMinConfidenceInterval = 25e-9;  // seconds
constexpr int kMaxSignificantFigures = 4;

std::string fmt2(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}
}  // namespace

std::string TaskSpec::title() const {
  const std::string& head = !label.empty() ? label : stmt;
  return head + (sub_label.empty() ? "" : ": " + sub_label);
}

std::string TaskSpec::summarize() const {
  std::string out;
  const std::string t = title();
  if (!t.empty()) out += t;
  if (!description.empty()) out += (out.empty() ? "" : "\n") + description;
  return out;
}

double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0.0;
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

TimeUnit select_unit(double t) {
  // Python's `int(log10(t) // 3)`; anything below a microsecond is ns, above a second s.
  const int e = static_cast<int>(std::floor(std::log10(t > 0 ? t : 1e-9) / 3.0));
  if (e <= -3) return {"ns", 1e-9};
  if (e == -2) return {"us", 1e-6};
  if (e == -1) return {"ms", 1e-3};
  return {"s", 1.0};
}

const char* unit_to_english(const char* u) {
  const std::string s = u;
  if (s == "ns") return "nanosecond";
  if (s == "us") return "microsecond";
  if (s == "ms") return "millisecond";
  return "second";
}

double trim_sigfig(double x, int n) {
  if (x == 0 || !std::isfinite(x)) return x;
  const int magnitude = static_cast<int>(std::ceil(std::log10(std::fabs(x))));
  const double scale = std::pow(10.0, magnitude - n);
  return std::nearbyint(x / scale) * scale;  // round half to even, as torch.round
}

Measurement::Measurement(int64_t number_per_run, std::vector<double> raw_times, TaskSpec task_spec)
    : number_per_run_(number_per_run), raw_times_(std::move(raw_times)), spec_(std::move(task_spec)) {
  EMBER_CHECK(number_per_run_ > 0, "Measurement: number_per_run must be positive, got ", number_per_run_);
  EMBER_CHECK(!raw_times_.empty(), "Measurement: needs at least one time");
  for (double t : raw_times_) times_.push_back(t / static_cast<double>(number_per_run_));
  sorted_ = times_;
  std::sort(sorted_.begin(), sorted_.end());
  median_ = quantile(sorted_, 0.5);
  mean_ = std::accumulate(sorted_.begin(), sorted_.end(), 0.0) / static_cast<double>(sorted_.size());
  p25_ = quantile(sorted_, 0.25);
  p75_ = quantile(sorted_, 0.75);
  auto add_warning = [&](const char* msg) {
    const double rel = median_ > 0 ? iqr() / median_ * 100 : 0;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f", rel);
    warnings_.push_back(std::string("  WARNING: Interquartile range is ") + buf +
                        "% of the median measurement.\n           " + msg);
  };
  if (!meets_confidence(kIqrGrossWarnThreshold))
    add_warning("This suggests significant environmental influence.");
  else if (!meets_confidence(kIqrWarnThreshold))
    add_warning("This could indicate system fluctuation.");
}

std::string Measurement::as_row_name() const {
  if (!spec_.sub_label.empty()) return spec_.sub_label;
  if (!spec_.stmt.empty()) return spec_.stmt;
  return "[Unknown]";
}

bool Measurement::meets_confidence(double threshold) const { return median_ > 0 ? iqr() / median_ < threshold : true; }

int Measurement::significant_figures() const {
  const size_t n = sorted_.size();
  const size_t lower = n / 4;
  const size_t upper = static_cast<size_t>(std::ceil(3.0 * static_cast<double>(n) / 4.0));
  std::vector<double> mid(sorted_.begin() + static_cast<std::ptrdiff_t>(lower),
                          sorted_.begin() + static_cast<std::ptrdiff_t>(upper));
  double mean = 0;
  for (double v : mid) mean += v;
  mean /= static_cast<double>(mid.size());
  double var = 0;
  for (double v : mid) var += (v - mean) * (v - mean);
  const double std = std::sqrt(var / static_cast<double>(mid.size()));  // population std (unbiased=False)
  const double ci = std::max(1.645 * std / std::sqrt(static_cast<double>(mid.size())), kMinConfidenceInterval);
  const int figures = static_cast<int>(std::floor(std::log10(median_ / ci)));
  return std::min(std::max(figures, 1), kMaxSignificantFigures);
}

std::vector<Measurement> Measurement::merge(const std::vector<Measurement>& ms) {
  std::vector<Measurement> out;
  std::vector<std::vector<double>> pooled;
  for (const Measurement& m : ms) {
    auto it = std::find_if(out.begin(), out.end(), [&](const Measurement& o) { return o.spec_ == m.spec_; });
    if (it == out.end()) {
      out.push_back(m);
      pooled.push_back(m.times_);
    } else {
      auto& p = pooled[static_cast<size_t>(it - out.begin())];
      p.insert(p.end(), m.times_.begin(), m.times_.end());
    }
  }
  // Pooled times are per run already, so a merged measurement has one run per block.
  for (size_t i = 0; i < out.size(); ++i) out[i] = Measurement(1, pooled[i], out[i].spec_);
  return out;
}

std::string Measurement::repr() const {
  const size_t n = sorted_.size();
  const TimeUnit u = select_unit(median_);
  std::ostringstream os;
  os << "<ember::utils::benchmark::Measurement object at " << static_cast<const void*>(this) << ">\n";
  const std::string summary = spec_.summarize();
  if (!summary.empty()) os << summary << "\n";
  os << "  " << (n > 1 ? "Median: " : "") << fmt2(median_ / u.scale) << " " << u.name << "\n";
  if (n >= 4)
    os << "  IQR:    " << fmt2(iqr() / u.scale) << " " << u.name << " (" << fmt2(p25_ / u.scale) << " to "
       << fmt2(p75_ / u.scale) << ")\n";
  os << "  " << n << " measurement" << (n > 1 ? "s" : "") << ", " << number_per_run_ << " runs "
     << (n > 1 ? "per measurement," : ",") << " " << spec_.num_threads << " thread"
     << (spec_.num_threads > 1 ? "s" : "");
  for (const std::string& w : warnings_) os << "\n" << w;
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const Measurement& m) { return os << m.repr(); }

}  // namespace torch::utils::benchmark
