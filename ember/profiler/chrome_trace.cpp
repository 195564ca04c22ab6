// Chrome trace-event export (the JSON format chrome://tracing and Perfetto
// open). Note [Trace layout]: one track per OS thread (tid), every scope a
// complete event ("X", ts/dur in microseconds, nesting from containment), and
// for each autograd link a flow pair: "s" at the forward op's start on its
// thread and "f" (binding to the enclosing slice, bp "e") at the backward
// node's start, both with the sequence number as id, as PyTorch's "fwdbwd"
// flows. Events are written in start order.
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "ember/core/error.h"
#include "ember/profiler/events.h"

namespace torch::profiler {

namespace {
double us(int64_t ns) { return static_cast<double>(ns) / 1e3; }
}  // namespace

std::string EventList::chrome_trace_json() const {
  using nlohmann::json;
  const int64_t pid = static_cast<int64_t>(::getpid());
  json events = json::array();
  std::unordered_map<int64_t, const FunctionEvent*> forward;   // sequence nr -> forward op
  std::unordered_map<int64_t, const FunctionEvent*> backward;  // sequence nr -> first backward node
  std::vector<uint64_t> threads;
  for (const FunctionEvent& e : *this) {
    if (std::find(threads.begin(), threads.end(), e.thread) == threads.end()) threads.push_back(e.thread);
    if (e.sequence_nr < 0) continue;
    auto& m = e.is_backward ? backward : forward;
    m.emplace(e.sequence_nr, &e);
  }
  for (size_t i = 0; i < threads.size(); ++i) {
    events.push_back(
        {{"name", "thread_name"},
         {"ph", "M"},
         {"pid", pid},
         {"tid", threads[i]},
         {"args", {{"name", i == 0 ? std::string("main thread") : "thread " + std::to_string(threads[i])}}}});
  }
  for (const FunctionEvent& e : *this) {
    json args = json::object();
    if (!e.input_shapes.empty() || has_shapes) args["Input Dims"] = e.input_shapes;
    if (e.sequence_nr >= 0) args["Sequence number"] = e.sequence_nr;
    if (has_memory) args["Self CPU Mem"] = e.self_cpu_memory_usage;
    if (!e.stack.empty()) {
      std::string s;
      for (const std::string& f : e.stack) s += f + ";\n";
      args["Call stack"] = s;
    }
    events.push_back({{"ph", "X"},
                      {"cat", e.is_backward ? "cpu_op" : (e.is_user_annotation ? "user_annotation" : "cpu_op")},
                      {"name", e.name},
                      {"pid", pid},
                      {"tid", e.thread},
                      {"ts", us(e.start_ns)},
                      {"dur", us(e.end_ns - e.start_ns)},
                      {"args", args}});
    if (e.sequence_nr < 0) continue;
    // A flow pair is written once both ends exist, each at its own slice's start.
    if (!e.is_backward) {
      auto it = backward.find(e.sequence_nr);
      if (it != backward.end() && forward.at(e.sequence_nr) == &e)
        events.push_back({{"ph", "s"},
                          {"id", e.sequence_nr},
                          {"pid", pid},
                          {"tid", e.thread},
                          {"ts", us(e.start_ns)},
                          {"cat", "fwdbwd"},
                          {"name", "fwdbwd"}});
    } else if (backward.at(e.sequence_nr) == &e && forward.count(e.sequence_nr)) {
      events.push_back({{"ph", "f"},
                        {"bp", "e"},
                        {"id", e.sequence_nr},
                        {"pid", pid},
                        {"tid", e.thread},
                        {"ts", us(e.start_ns)},
                        {"cat", "fwdbwd"},
                        {"name", "fwdbwd"}});
    }
  }
  json doc = {{"traceEvents", events}, {"displayTimeUnit", "ms"}};
  return doc.dump();
}

void EventList::export_chrome_trace(const std::string& path) const {
  const std::string text = chrome_trace_json();
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  EMBER_CHECK(f.good(), "export_chrome_trace: cannot open '", path, "' for writing");
  f << text;
  f.close();
  EMBER_CHECK(f.good(), "export_chrome_trace: writing '", path, "' failed");
}

}  // namespace torch::profiler
