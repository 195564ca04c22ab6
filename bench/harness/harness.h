#pragma once
// Shared driver for the side-by-side harnesses (bench/harness/*_bench.cpp),
// framework-free so Ember and LibTorch time workloads identically
// (bench/SPEC.md, "General rules"):
//  * iters calibrated once per thread count so a sample lasts >= target;
//  * thread counts interleaved: rep0 t=1, rep0 t=2, rep1 t=1, ...;
//  * one JSON line per sample on stdout; bench/summarize.py aggregates.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace bench {

struct Options {
  std::string framework;  // "ember" / "libtorch"
  std::string config;     // "default" / "stock" / "tuned"
  // The CPU capability the framework was forced to (EMBER_CPU_CAPABILITY /
  // ATEN_CPU_CAPABILITY; bench/run.sh's LEVEL), "native" when not forced.
  std::string level;
  int samples = 4;  // per thread count, in this process
  std::vector<int> threads = {1, 2};
  std::vector<std::string> workloads;  // empty: all
};

inline Options parse_args(int argc, char** argv, const char* framework) {
  Options o;
  o.framework = framework;
  const char* cfg = std::getenv("BENCH_CONFIG");
  o.config = cfg ? cfg : "default";
  const char* level = std::getenv(o.framework == "ember" ? "EMBER_CPU_CAPABILITY" : "ATEN_CPU_CAPABILITY");
  o.level = level && *level ? level : "native";
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--samples") && i + 1 < argc) {
      o.samples = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
      o.threads.clear();
      std::string s = argv[++i];
      for (size_t p = 0; p < s.size();) {
        size_t q = s.find(',', p);
        o.threads.push_back(std::atoi(s.substr(p, q - p).c_str()));
        p = q == std::string::npos ? s.size() : q + 1;
      }
    } else {
      o.workloads.push_back(argv[i]);
    }
  }
  return o;
}

inline bool wanted(const Options& o, const std::string& name) {
  if (o.workloads.empty()) return true;
  for (const auto& w : o.workloads)
    if (name == w || name.rfind(w + ".", 0) == 0) return true;  // "W4" selects "W4.mm_1024"
  return false;
}

// True when any case of group `g` ("W2") may run.
inline bool wants_group(const Options& o, const std::string& g) {
  if (o.workloads.empty()) return true;
  for (const auto& w : o.workloads)
    if (w.rfind(g, 0) == 0) return true;
  return false;
}

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

struct Case {
  std::string name;    // "W4.mm_1024"
  std::string metric;  // "GFLOP/s", "GB/s", "ns/op"
  // value of the metric for one call taking `sec` seconds
  std::function<double(double sec)> metric_of;
  std::function<void()> call;
  double target_sec = 0.3;
  int64_t calls_per_iter = 1;  // e.g. 10 calls per sample iteration in W2/W3
};

// Runs one case with interleaved thread counts; prints a JSON line per sample.
inline void run_case(const Options& o, const Case& c, const std::function<void(int)>& set_threads) {
  if (!wanted(o, c.name)) return;
  std::vector<int64_t> iters;
  for (int t : o.threads) {
    set_threads(t);
    c.call();  // warm-up
    c.call();
    int64_t n = 1;
    while (true) {
      auto t0 = Clock::now();
      for (int64_t i = 0; i < n; ++i) c.call();
      const double s = seconds_since(t0);
      if (s >= c.target_sec) break;
      n = s <= 0 ? n * 10 : std::max<int64_t>(n + 1, static_cast<int64_t>(n * c.target_sec * 1.2 / s));
    }
    iters.push_back(n);
  }
  for (int rep = 0; rep < o.samples; ++rep) {
    for (size_t ti = 0; ti < o.threads.size(); ++ti) {
      set_threads(o.threads[ti]);
      auto t0 = Clock::now();
      for (int64_t i = 0; i < iters[ti]; ++i) c.call();
      const double per_call = seconds_since(t0) / static_cast<double>(iters[ti] * c.calls_per_iter);
      std::printf(
          "{\"framework\":\"%s\",\"config\":\"%s\",\"level\":\"%s\",\"case\":\"%s\",\"threads\":%d,\"rep\":%d,"
          "\"iters\":%lld,"
          "\"sec_per_call\":%.9g,\"metric\":\"%s\",\"value\":%.6g}\n",
          o.framework.c_str(), o.config.c_str(), o.level.c_str(), c.name.c_str(), o.threads[ti], rep,
          static_cast<long long>(iters[ti] * c.calls_per_iter), per_call, c.metric.c_str(), c.metric_of(per_call));
      std::fflush(stdout);
    }
  }
}

// Metric helpers.
inline std::function<double(double)> gflops(double flop) {
  return [flop](double s) { return flop / s / 1e9; };
}
inline std::function<double(double)> gbps(double bytes) {
  return [bytes](double s) { return bytes / s / 1e9; };
}
inline std::function<double(double)> ns_per_op(double ops) {
  return [ops](double s) { return s / ops * 1e9; };
}

constexpr int64_t kW2Elems = 16LL << 20;  // 16 Mi float32 = 64 MiB
constexpr double kW2Bytes = static_cast<double>(kW2Elems) * 4;

// W2 memcpy: the physical reference, split over `threads` std::threads.
void memcpy_threads(float* dst, const float* src, int64_t n, int threads);

}  // namespace bench
