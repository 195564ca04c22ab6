// export_chrome_trace: the file parses as JSON and has the trace-event
// structure viewers rely on (Note [Trace layout] in chrome_trace.cpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "common/test_util.h"
#include "ember/ember.h"

namespace prof = ember::profiler;
using ember::Tensor;
using nlohmann::json;

namespace {

json traced_training_step(const std::string& path) {
  Tensor x = ember::randn({8, 5});
  Tensor w = ember::randn({5, 3}).requires_grad_(true);
  Tensor b = ember::zeros({3}).requires_grad_(true);
  {
    prof::profile p(prof::ProfileOptions().record_shapes(true).profile_memory(true));
    {
      prof::record_function fwd("forward");
      Tensor y = (ember::mm(x, w) + b).relu();
      Tensor loss = (y * y).mean();
      prof::record_function bwd("backward");
      loss.backward();
    }
    std::thread([] { Tensor t = ember::ones({4}).exp(); }).join();
    p.stop();
    p.export_chrome_trace(path);
  }
  std::ifstream f(path);
  return json::parse(f);
}

}  // namespace

TEST(ChromeTrace, StructureIsValid) {
  const std::string path = ::testing::TempDir() + "ember_trace_test.json";
  json doc = traced_training_step(path);
  std::remove(path.c_str());
  ASSERT_TRUE(doc.is_object());
  ASSERT_TRUE(doc.contains("traceEvents"));
  const json& events = doc["traceEvents"];
  ASSERT_TRUE(events.is_array());

  struct Slice {
    double ts, end;
    std::string name;
  };
  std::map<int64_t, std::vector<Slice>> by_tid;
  std::map<int64_t, std::pair<double, int64_t>> starts, finishes;  // flow id -> (ts, tid)
  std::set<int64_t> named_threads;
  double last_ts = -1;
  size_t complete = 0;
  for (const json& e : events) {
    ASSERT_TRUE(e.contains("ph") && e.contains("pid") && e.contains("tid")) << e.dump();
    const std::string ph = e["ph"];
    const int64_t tid = e["tid"];
    if (ph == "M") {
      EXPECT_EQ(e["name"], "thread_name");
      named_threads.insert(tid);
      continue;
    }
    ASSERT_TRUE(e.contains("ts") && e["ts"].is_number()) << e.dump();
    const double ts = e["ts"];
    EXPECT_GE(ts, last_ts) << "events must be sorted by ts: " << e.dump();
    last_ts = ts;
    if (ph == "X") {
      ++complete;
      ASSERT_TRUE(e.contains("dur") && e["dur"].is_number());
      ASSERT_TRUE(e["name"].is_string() && e.contains("cat") && e["args"].is_object());
      const double dur = e["dur"];
      EXPECT_GE(dur, 0);
      by_tid[tid].push_back({ts, ts + dur, e["name"]});
    } else if (ph == "s" || ph == "f") {
      EXPECT_EQ(e["cat"], "fwdbwd");
      auto& m = ph == "s" ? starts : finishes;
      const int64_t id = e["id"];
      EXPECT_FALSE(m.count(id)) << "flow id used twice: " << id;
      m[id] = {ts, tid};
      if (ph == "f") EXPECT_EQ(e["bp"], "e");
    } else {
      ADD_FAILURE() << "unexpected phase " << ph;
    }
  }
  EXPECT_GT(complete, 10u);
  EXPECT_GE(by_tid.size(), 2u);  // the main thread and the helper thread
  for (const auto& [tid, _] : by_tid) EXPECT_TRUE(named_threads.count(tid)) << tid;

  // Nesting: on each track, a slice that starts inside another ends inside it.
  for (auto& [tid, slices] : by_tid) {
    std::vector<Slice> open;
    for (const Slice& s : slices) {
      while (!open.empty() && s.ts >= open.back().end) open.pop_back();
      if (!open.empty()) EXPECT_LE(s.end, open.back().end + 1e-6) << s.name << " overlaps " << open.back().name;
      open.push_back(s);
    }
  }

  // Flow pairs: matched, forward before backward, each end inside a slice of its thread.
  ASSERT_FALSE(starts.empty());
  EXPECT_EQ(starts.size(), finishes.size());
  auto inside_slice = [&](int64_t tid, double ts) {
    for (const Slice& s : by_tid[tid])
      if (s.ts <= ts && ts <= s.end) return true;
    return false;
  };
  for (const auto& [id, st] : starts) {
    ASSERT_TRUE(finishes.count(id)) << "flow " << id << " has no end";
    EXPECT_LE(st.first, finishes[id].first);
    EXPECT_TRUE(inside_slice(st.second, st.first));
    EXPECT_TRUE(inside_slice(finishes[id].second, finishes[id].first));
  }

  // The forward mm and its backward node share the flow id (the sequence number).
  int64_t mm_seq = -1, mm_bwd_seq = -2;
  for (const json& e : events) {
    if (e["ph"] != "X") continue;
    if (e["name"] == "aten::mm" && mm_seq < 0 && e["args"].contains("Sequence number"))
      mm_seq = e["args"]["Sequence number"];
    if (e["name"] == "MmBackward0") mm_bwd_seq = e["args"]["Sequence number"];
    if (e["name"] == "aten::mm") EXPECT_TRUE(e["args"].contains("Input Dims"));
  }
  EXPECT_EQ(mm_seq, mm_bwd_seq);
  EXPECT_TRUE(starts.count(mm_seq));
}

TEST(ChromeTrace, UnwritablePathRaises) {
  prof::profile p;
  p.stop();
  EXPECT_EMBER_ERROR(p.export_chrome_trace("/nonexistent-dir/x/trace.json"), "export_chrome_trace", "cannot open");
}
