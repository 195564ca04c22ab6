#pragma once
// What a profile produces: one FunctionEvent per recorded scope (op,
// record_function label, backward node), their averages grouped by key, and
// PyTorch's summary table (torch.autograd.profiler_util's layout).
#include <cstdint>
#include <string>
#include <vector>

#include "ember/core/namespace.h"

namespace torch::profiler {

struct FunctionEvent {
  int64_t id = 0;        // index in the EventList
  std::string name;      // "aten::add", a record_function label, "MulBackward0"
  uint64_t thread = 0;   // OS thread id
  int64_t start_ns = 0;  // since the profile started
  int64_t end_ns = 0;
  int64_t self_cpu_time_ns = 0;  // duration minus the durations of the children
  int64_t cpu_memory_usage = 0;  // bytes allocated minus freed inside, children included
  int64_t self_cpu_memory_usage = 0;
  std::vector<std::vector<int64_t>> input_shapes;  // record_shapes; a Scalar operand is []
  std::vector<std::string> stack;                  // with_stack: the caller's frames, innermost first
  int64_t sequence_nr = -1;                        // autograd link: forward op and its backward node share it
  bool is_backward = false;                        // a backward node run by the engine
  bool is_user_annotation = false;                 // a record_function label
  int64_t parent = -1;                             // enclosing event on the same thread
  int depth = 0;

  int64_t cpu_time_total_ns() const { return end_ns - start_ns; }
  double cpu_time_total() const { return (end_ns - start_ns) / 1e3; }  // microseconds, as PyTorch
  double self_cpu_time_total() const { return self_cpu_time_ns / 1e3; }
};

// Events sharing a key (name; with grouping also input shapes / stack).
struct FunctionEventAvg {
  std::string key;
  int64_t count = 0;
  double cpu_time_total = 0;       // microseconds
  double self_cpu_time_total = 0;  // microseconds
  int64_t cpu_memory_usage = 0;
  int64_t self_cpu_memory_usage = 0;
  std::vector<std::vector<int64_t>> input_shapes;  // set when grouped by input shape
  std::vector<std::string> stack;                  // set when grouped by stack
  double cpu_time() const { return count == 0 ? 0.0 : cpu_time_total / count; }
};

// Table options beyond sort_by / row_limit (PyTorch's keyword arguments).
struct TableOptions {
  int max_name_column_width = 55;
  int max_shapes_column_width = 80;
  int max_src_column_width = 75;
  bool top_level_events_only = false;
};

class EventAvgList : public std::vector<FunctionEventAvg> {
 public:
  // sort_by: "cpu_time_total", "self_cpu_time_total", "cpu_time", "count",
  // "cpu_memory_usage", "self_cpu_memory_usage", or "" for recording order.
  std::string table(const std::string& sort_by = "", int64_t row_limit = 100, const TableOptions& opts = {}) const;
  bool has_memory = false;  // whether the profile recorded memory (adds the Mem columns)
};

class EventList : public std::vector<FunctionEvent> {
 public:
  // Groups by name; optionally by input shapes and by the top `group_by_stack_n` frames.
  EventAvgList key_averages(bool group_by_input_shape = false, int group_by_stack_n = 0) const;
  // The table of key_averages() (PyTorch's `prof.key_averages().table(...)`).
  std::string table(const std::string& sort_by = "", int64_t row_limit = 100) const;
  // Chrome trace-event JSON: "X" events per thread, fwd→bwd flow events ("s"/"f").
  void export_chrome_trace(const std::string& path) const;
  std::string chrome_trace_json() const;
  bool has_memory = false;
  bool has_shapes = false;
  bool has_stack = false;
};

}  // namespace torch::profiler
