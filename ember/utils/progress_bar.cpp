#include "ember/utils/progress_bar.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace torch::utils {

namespace {

bool is_terminal(const std::ostream& out) {
  if (&out == &std::cout) return isatty(STDOUT_FILENO) != 0;
  if (&out == &std::cerr || &out == &std::clog) return isatty(STDERR_FILENO) != 0;
  return false;
}

// MM:SS, or H:MM:SS from an hour on; "--:--" past 100 hours (a stalled rate).
std::string format_duration(double seconds) {
  if (!(seconds < 100.0 * 3600.0)) return "--:--";
  const auto s = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  char buf[32];
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, (s / 60) % 60, s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%02lld:%02lld", s / 60, s % 60);
  }
  return buf;
}

}  // namespace

double ProgressBar::steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

ProgressBar::ProgressBar(size_t total, ProgressBarOptions options, std::ostream& out, Clock clock)
    : total_(total),
      options_(std::move(options)),
      out_(out),
      clock_(std::move(clock)),
      enabled_(options_.force || is_terminal(out)),
      start_(clock_()) {}

ProgressBar::~ProgressBar() {
  try {
    finish();
  } catch (...) {
    // A failing stream must not terminate the program from a destructor.
  }
}

std::optional<double> ProgressBar::running_loss() const {
  if (loss_steps_ == 0) return std::nullopt;
  return loss_sum_ / static_cast<double>(loss_steps_);
}

void ProgressBar::update(size_t n, std::optional<double> loss, const Metrics& metrics) {
  done_ += n;
  if (loss) {
    // Weighted by steps so update(k, l) counts like k updates of l.
    const size_t steps = std::max<size_t>(n, 1);
    loss_sum_ += *loss * static_cast<double>(steps);
    loss_steps_ += steps;
  }
  for (const auto& [name, value] : metrics) metrics_[name] = value;
  if (!enabled_ || finished_) return;
  const double now = clock_();
  if (!last_draw_ || done_ >= total_ || now - *last_draw_ >= options_.min_interval) draw();
}

void ProgressBar::finish() {
  if (finished_) return;
  finished_ = true;
  if (!enabled_) return;
  draw();
  out_ << '\n' << std::flush;
}

std::string ProgressBar::render() const {
  std::ostringstream line;
  if (!options_.description.empty()) line << options_.description << ": ";
  line << done_ << '/' << total_;

  const double fraction = total_ == 0 ? 1.0 : std::min(1.0, static_cast<double>(done_) / static_cast<double>(total_));
  if (options_.width > 0) {
    const auto filled = static_cast<size_t>(fraction * static_cast<double>(options_.width));
    std::string bar(options_.width, ' ');
    std::fill(bar.begin(), bar.begin() + static_cast<std::ptrdiff_t>(filled), '=');
    if (filled < options_.width && filled > 0) bar[filled - 1] = '>';
    line << " [" << bar << ']';
  }
  char pct[16];
  std::snprintf(pct, sizeof pct, " %3d%%", static_cast<int>(fraction * 100.0));
  line << pct;

  const double elapsed = clock_() - start_;
  const bool complete = done_ >= total_;
  if (elapsed > 0 && done_ > 0) {
    const double rate = static_cast<double>(done_) / elapsed;
    char buf[48];
    std::snprintf(buf, sizeof buf, " %.1f it/s", rate);
    line << buf;
    if (complete) {
      line << " time " << format_duration(elapsed);
    } else {
      line << " ETA " << format_duration(static_cast<double>(total_ - done_) / rate);
    }
  } else {
    line << " ? it/s " << (complete ? "time " : "ETA ") << "--:--";
  }

  if (const auto loss = running_loss()) {
    char buf[48];
    std::snprintf(buf, sizeof buf, " loss=%.4f", *loss);
    line << buf;
  }
  for (const auto& [name, value] : metrics_) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "=%.4g", value);
    line << ' ' << name << buf;
  }
  return line.str();
}

void ProgressBar::draw() {
  const std::string line = render();
  out_ << '\r' << line;
  // Blank out what is left of a longer previous line.
  if (line.size() < last_length_) out_ << std::string(last_length_ - line.size(), ' ');
  out_ << std::flush;
  last_length_ = line.size();
  last_draw_ = clock_();
}

}  // namespace torch::utils
