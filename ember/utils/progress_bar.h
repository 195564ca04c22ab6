#pragma once
// ProgressBar: a one-line training progress display for a loop of known
// length, e.g. the batches of a DataLoader epoch:
//
//   ember::utils::ProgressBar bar(num_batches, {.description = "epoch 1"});
//   for (auto& batch : *loader) { ...; bar.update(1, loss.item<double>()); }
//   bar.finish();
//
// prints, redrawn in place with '\r':
//   epoch 1: 120/938 [===>          ]  12% 85.3 it/s ETA 00:09 loss=0.4121
//
// It stays quiet when the stream is not a terminal (logs, pipes) unless
// options.force is set.
#include <cstddef>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <string>

#include "ember/core/namespace.h"

namespace torch::utils {

struct ProgressBarOptions {
  std::string description;    // printed before the counter, followed by ": "
  size_t width = 30;          // characters inside the [...] bar
  bool force = false;         // draw even when the stream is not a terminal
  double min_interval = 0.1;  // seconds between redraws; the final step always redraws
};

class ProgressBar {
 public:
  using Metrics = std::map<std::string, double>;
  // Seconds since any fixed point; injectable so tests need no real time.
  using Clock = std::function<double()>;

  static double steady_seconds();

  explicit ProgressBar(size_t total, ProgressBarOptions options = {}, std::ostream& out = std::cout,
                       Clock clock = &ProgressBar::steady_seconds);
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ~ProgressBar();  // finish()es an unfinished bar

  // Advances by n steps. `loss` joins the running (step-weighted) mean loss;
  // `metrics` replace the displayed values of the same names.
  void update(size_t n = 1, std::optional<double> loss = std::nullopt, const Metrics& metrics = {});
  void update(size_t n, const Metrics& metrics) { update(n, std::nullopt, metrics); }
  // Draws the final state and ends the line. Idempotent.
  void finish();

  // The line as it would be drawn now (no '\r'); what the tests check.
  std::string render() const;

  size_t total() const noexcept { return total_; }
  size_t done() const noexcept { return done_; }
  bool enabled() const noexcept { return enabled_; }
  std::optional<double> running_loss() const;

 private:
  void draw();

  size_t total_;
  ProgressBarOptions options_;
  std::ostream& out_;
  Clock clock_;
  bool enabled_;
  double start_;
  std::optional<double> last_draw_;
  size_t done_ = 0;
  double loss_sum_ = 0;
  size_t loss_steps_ = 0;
  Metrics metrics_;
  size_t last_length_ = 0;
  bool finished_ = false;
};

}  // namespace torch::utils
