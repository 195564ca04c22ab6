// ember::utils::benchmark against torch.utils.benchmark 1.13: statistics and
// printed forms of Measurement and Compare for fixed times
// (tools/golden/gen_benchmark.py), plus the Timer's own behaviour.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/utils/benchmark.h"

namespace bm = ember::utils::benchmark;
using ember::testing::Golden;

namespace {

std::map<std::string, std::string> load_text() {
  std::ifstream f(std::string(EMBER_GOLDEN_DIR) + "/benchmark_text.golden");
  EXPECT_TRUE(f.good());
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string all = ss.str();
  std::map<std::string, std::string> out;
  size_t pos = 0;
  while ((pos = all.find("@@ ", pos)) != std::string::npos) {
    const size_t eol = all.find('\n', pos);
    const std::string name = all.substr(pos + 3, eol - pos - 3);
    size_t next = all.find("\n@@ ", eol);
    if (next == std::string::npos) break;
    out[name] = all.substr(eol + 1, next - eol - 1);
    pos = next + 1;
  }
  return out;
}

std::vector<double> doubles(const ember::Tensor& t) {
  ember::Tensor c = t.contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

struct Case {
  const char* name;
  const char* label;
  const char* sub_label;
  const char* description;
};
const Case kCases[] = {{"tight", "add", "1000 floats", "ember"},
                       {"noisy", "add", "1000 floats", "libtorch"},
                       {"gross", "mm", "256x256", "ember"},
                       {"single", "mm", "256x256", "libtorch"},
                       {"slow", "train", "epoch", "ember"}};

bm::Measurement make(const Golden& g, const Case& c) {
  ember::Tensor n = g[std::string(c.name) + ".number"];
  bm::TaskSpec spec;
  spec.label = c.label;
  spec.sub_label = c.sub_label;
  spec.description = c.description;
  spec.num_threads = static_cast<int>(n[1].item<int64_t>());
  return bm::Measurement(n[0].item<int64_t>(), doubles(g[std::string(c.name) + ".raw"]), spec);
}

std::string without_first_line(const std::string& s) { return s.substr(s.find('\n') + 1); }

}  // namespace

TEST(Benchmark, MeasurementStatisticsMatchPyTorch) {
  Golden g("benchmark.golden");
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    bm::Measurement m = make(g, c);
    std::vector<double> want = doubles(g[std::string(c.name) + ".stats"]);
    EXPECT_NEAR(m.median(), want[0], 1e-12 * want[0]);
    EXPECT_NEAR(m.mean(), want[1], 1e-12 * want[1]);
    EXPECT_NEAR(m.iqr(), want[2], 1e-12 * want[0]);
    EXPECT_NEAR(m.p25(), want[3], 1e-12 * want[0]);
    EXPECT_NEAR(m.p75(), want[4], 1e-12 * want[0]);
    EXPECT_EQ(m.significant_figures(), g[std::string(c.name) + ".sigfigs"].item<int64_t>());
  }
}

TEST(Benchmark, MeasurementReprMatchesPyTorch) {
  Golden g("benchmark.golden");
  auto text = load_text();
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    bm::Measurement m = make(g, c);
    const std::string r = m.repr();
    EXPECT_EQ(r.rfind("<ember::utils::benchmark::Measurement object at 0x", 0), 0u) << r;
    EXPECT_EQ(without_first_line(r), text.at(std::string("repr.") + c.name));
  }
}

TEST(Benchmark, CompareTablesMatchPyTorch) {
  Golden g("benchmark.golden");
  auto text = load_text();
  std::vector<bm::Measurement> table;
  for (int nt : {1, 2})
    for (const char* rows : {"1000", "10000"})
      for (const char* desc : {"ember", "libtorch"}) {
        bm::TaskSpec spec;
        spec.label = "add";
        spec.sub_label = std::string(rows) + " floats";
        spec.description = desc;
        spec.num_threads = nt;
        const std::string key = "cmp." + std::to_string(nt) + "." + rows + "." + desc + ".raw";
        table.emplace_back(100, doubles(g[key]), spec);
      }
  table.push_back(make(g, kCases[1]));  // the noisy cell merges into "1000 floats" / libtorch

  bm::Compare c(table);
  EXPECT_EQ(c.str(), text.at("compare.plain"));
  c.trim_significant_figures();
  EXPECT_EQ(c.str(), text.at("compare.trim"));
  c.highlight_warnings();
  EXPECT_EQ(c.str(), text.at("compare.warnings"));
  bm::Compare c2(table);
  c2.colorize();
  EXPECT_EQ(c2.str(), text.at("compare.color"));
  bm::Compare c3(table);
  c3.colorize(true);
  EXPECT_EQ(c3.str(), text.at("compare.color_rowwise"));
  std::vector<bm::Measurement> two = table;
  two.push_back(make(g, kCases[2]));
  two.push_back(make(g, kCases[3]));
  EXPECT_EQ(bm::Compare(two).str(), text.at("compare.two_labels"));
}

TEST(Benchmark, CompareRatioColumn) {
  bm::TaskSpec a{"", "op", "row", "ember", "", 1};
  bm::TaskSpec b{"", "op", "row", "libtorch", "", 1};
  bm::Compare c({bm::Measurement(1, {1e-6, 1e-6, 1e-6, 1e-6}, a), bm::Measurement(1, {3e-6, 3e-6, 3e-6, 3e-6}, b)});
  c.ratio_to("ember");
  const std::string s = c.str();
  EXPECT_NE(s.find("libtorch / ember"), std::string::npos) << s;
  EXPECT_NE(s.find("3.00x"), std::string::npos) << s;
}

TEST(Benchmark, TimerCountsRunsAndRestoresThreads) {
  int64_t calls = 0;
  const int threads_before = ember::get_num_threads();
  int threads_inside = 0;
  bm::Timer t([&] { ++calls, threads_inside = ember::get_num_threads(); }, "count", "calls", "lambda", 1);
  bm::Measurement m = t.timeit(1000);
  EXPECT_EQ(m.number_per_run(), 1000);
  EXPECT_EQ(m.times().size(), 1u);
  EXPECT_GE(calls, 1000);
  EXPECT_EQ(threads_inside, 1);
  EXPECT_EQ(ember::get_num_threads(), threads_before);

  calls = 0;
  int64_t reported = 0;
  bm::Measurement b = t.blocked_autorange(0.02, [&](int64_t number, double) { reported += number; });
  EXPECT_GE(b.times().size(), 1u);
  double total = 0;
  for (double r : b.raw_times()) total += r;
  EXPECT_GE(total, 0.02);
  EXPECT_GE(calls, reported);  // the block-size estimate runs the statement too
  EXPECT_EQ(b.task_spec().label, "count");
}

TEST(Benchmark, AdaptiveAutorangeStopsWithinLimits) {
  volatile double sink = 0;
  bm::Timer t([&] {
    for (int i = 0; i < 100; ++i) sink = sink + i;
  });
  bm::Measurement m = t.adaptive_autorange(0.5, 0.01, 1.0);
  EXPECT_GE(m.times().size(), 1u);
  double total = 0;
  for (double r : m.raw_times()) total += r;
  EXPECT_LE(total, 1.5);
  EXPECT_GT(m.median(), 0);
}

TEST(Benchmark, BadArgumentsRaise) {
  EXPECT_EMBER_ERROR(bm::Timer(std::function<void()>()), "Timer", "callable");
  EXPECT_EMBER_ERROR(bm::Timer([] {}, "", "", "", 0), "Timer", "num_threads");
  EXPECT_EMBER_ERROR(bm::Timer([] {}).timeit(0), "timeit", "number");
  EXPECT_EMBER_ERROR(bm::Measurement(1, {}, {}), "Measurement", "at least one time");
}
