// ProgressBar: formatting and redraw logic with a fake clock and a string
// stream (no real time involved).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>

#include "ember/utils/progress_bar.h"

namespace {

using ember::utils::ProgressBar;
using ember::utils::ProgressBarOptions;

struct FakeClock {
  double now = 100.0;
  ProgressBar::Clock fn() {
    return [this] { return now; };
  }
};

ProgressBarOptions forced(std::string description = "", size_t width = 10, double min_interval = 0) {
  ProgressBarOptions o;
  o.description = std::move(description);
  o.width = width;
  o.force = true;
  o.min_interval = min_interval;
  return o;
}

TEST(DataProgressBar, QuietWhenNotATerminal) {
  std::ostringstream out;
  FakeClock clock;
  {
    ProgressBar bar(10, {}, out, clock.fn());
    EXPECT_FALSE(bar.enabled());
    bar.update(5, 1.0);
    bar.finish();
  }
  EXPECT_EQ(out.str(), "");
}

TEST(DataProgressBar, RendersCountBarPercentRateEtaAndLoss) {
  std::ostringstream out;
  FakeClock clock;
  ProgressBar bar(10, forced("train"), out, clock.fn());
  EXPECT_EQ(bar.render(), "train: 0/10 [          ]   0% ? it/s ETA --:--");
  clock.now += 2;
  bar.update(1, 0.5);
  EXPECT_EQ(bar.render(), "train: 1/10 [>         ]  10% 0.5 it/s ETA 00:18 loss=0.5000");
  clock.now += 2;
  bar.update(4, 2.0);  // running loss weighted by steps: (0.5 + 4 * 2) / 5
  EXPECT_EQ(bar.render(), "train: 5/10 [====>     ]  50% 1.2 it/s ETA 00:04 loss=1.7000");
  EXPECT_DOUBLE_EQ(bar.running_loss().value(), 1.7);
}

TEST(DataProgressBar, ShowsMetricsAndElapsedTimeWhenComplete) {
  std::ostringstream out;
  FakeClock clock;
  ProgressBar bar(4, forced("", 4), out, clock.fn());
  clock.now += 3725;  // 1:02:05
  bar.update(4, {{"acc", 0.875}, {"lr", 0.01}});
  EXPECT_EQ(bar.render(), "4/4 [====] 100% 0.0 it/s time 1:02:05 acc=0.875 lr=0.01");
  EXPECT_FALSE(bar.running_loss().has_value());
}

TEST(DataProgressBar, RedrawsInPlaceAndFinishEndsTheLine) {
  std::ostringstream out;
  FakeClock clock;
  {
    ProgressBar bar(3, forced("", 0), out, clock.fn());
    clock.now += 1;
    bar.update();
    bar.update();
    bar.update();
    bar.finish();
    bar.finish();  // idempotent
  }
  EXPECT_EQ(out.str(),
            "\r1/3  33% 1.0 it/s ETA 00:02"
            "\r2/3  66% 2.0 it/s ETA 00:01"
            "\r3/3 100% 3.0 it/s time 00:01"
            "\r3/3 100% 3.0 it/s time 00:01\n");
}

TEST(DataProgressBar, ThrottlesRedrawsButAlwaysDrawsTheLastStep) {
  std::ostringstream out;
  FakeClock clock;
  ProgressBar bar(100, forced("", 0, /*min_interval=*/1.0), out, clock.fn());
  const auto draws = [&] {
    const std::string s = out.str();
    return std::count(s.begin(), s.end(), '\r');
  };
  for (int i = 0; i < 99; ++i) bar.update();  // no time passes: only the first draws
  EXPECT_EQ(draws(), 1);
  clock.now += 1;
  bar.update(0);
  EXPECT_EQ(draws(), 2);
  bar.update();  // the last step
  EXPECT_EQ(draws(), 3);
  EXPECT_NE(out.str().find("100/100"), std::string::npos);
}

TEST(DataProgressBar, ShorterLinesBlankOutTheRest) {
  std::ostringstream out;
  FakeClock clock;
  ProgressBar bar(2, forced("", 0), out, clock.fn());
  clock.now += 0.001;
  bar.update(1);                              // 1000.0 it/s
  const size_t first = out.str().size() - 1;  // without the leading '\r'
  out.str("");
  clock.now += 1000;
  bar.update(0);  // 0.0 it/s: a shorter line
  const std::string line = bar.render();
  ASSERT_LT(line.size(), first);
  EXPECT_EQ(out.str(), "\r" + line + std::string(first - line.size(), ' '));
}

TEST(DataProgressBar, StalledRateShowsNoEta) {
  std::ostringstream out;
  FakeClock clock;
  ProgressBar bar(1000000000, forced("", 0), out, clock.fn());
  clock.now += 1e6;
  bar.update(1);
  EXPECT_EQ(bar.render(), "1/1000000000   0% 0.0 it/s ETA --:--");
}

TEST(DataProgressBar, DestructorFinishesAndZeroTotalIsComplete) {
  std::ostringstream out;
  FakeClock clock;
  { ProgressBar bar(0, forced("", 2), out, clock.fn()); }
  EXPECT_EQ(out.str(), "\r0/0 [==] 100% ? it/s time --:--\n");
}

}  // namespace
