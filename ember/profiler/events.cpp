#include "ember/profiler/events.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "ember/core/error.h"

namespace torch::profiler {

namespace {

std::string shapes_str(const std::vector<std::vector<int64_t>>& shapes) {
  // Python's str() of a list of lists, as PyTorch prints input shapes.
  std::string s = "[";
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (i) s += ", ";
    s += "[";
    for (size_t j = 0; j < shapes[i].size(); ++j) {
      if (j) s += ", ";
      s += std::to_string(shapes[i][j]);
    }
    s += "]";
  }
  return s + "]";
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// torch.autograd.profiler_util._format_time (input in microseconds).
std::string format_time(double us) {
  if (us >= 1e6) return fmt("%.3fs", us / 1e6);
  if (us >= 1e3) return fmt("%.3fms", us / 1e3);
  return fmt("%.3fus", us);
}

std::string format_share(double us, double total) { return total == 0 ? "0.00%" : fmt("%.2f%%", us * 100.0 / total); }

// _format_memory: binary units with PyTorch's spellings.
std::string format_memory(int64_t n) {
  const double kb = 1024.0, mb = kb * 1024, gb = mb * 1024;
  const double a = static_cast<double>(n < 0 ? -n : n);
  if (a >= gb) return fmt("%.2f Gb", n / gb);
  if (a >= mb) return fmt("%.2f Mb", n / mb);
  if (a >= kb) return fmt("%.2f Kb", n / kb);
  return std::to_string(n) + " b";
}

std::string trim(const std::string& s, size_t width) {
  if (width >= 3 && s.size() >= width - 3) return s.substr(0, width - 3) + "...";
  return s;
}

std::string pad(const std::string& s, size_t width, bool left_align) {
  if (s.size() >= width) return s;
  return left_align ? s + std::string(width - s.size(), ' ') : std::string(width - s.size(), ' ') + s;
}

double sort_key(const FunctionEventAvg& e, const std::string& by) {
  if (by == "cpu_time_total") return e.cpu_time_total;
  if (by == "self_cpu_time_total") return e.self_cpu_time_total;
  if (by == "cpu_time") return e.cpu_time();
  if (by == "count") return static_cast<double>(e.count);
  if (by == "cpu_memory_usage") return static_cast<double>(e.cpu_memory_usage);
  if (by == "self_cpu_memory_usage") return static_cast<double>(e.self_cpu_memory_usage);
  EMBER_ERROR("profiler table: unknown sort_by '", by,
              "' (expected cpu_time_total, self_cpu_time_total, cpu_time, count, cpu_memory_usage or "
              "self_cpu_memory_usage)");
}

}  // namespace

EventAvgList EventList::key_averages(bool group_by_input_shape, int group_by_stack_n) const {
  EMBER_CHECK(group_by_stack_n >= 0, "key_averages: group_by_stack_n must be >= 0, got ", group_by_stack_n);
  EventAvgList out;
  out.has_memory = has_memory;
  std::map<std::string, size_t> index;  // grouping key -> row, rows stay in first-seen order
  for (const FunctionEvent& e : *this) {
    std::string key = e.name;
    std::vector<std::string> stack;
    if (group_by_input_shape) key += '\x1f' + shapes_str(e.input_shapes);
    if (group_by_stack_n > 0) {
      stack.assign(e.stack.begin(), e.stack.begin() + std::min<size_t>(e.stack.size(), group_by_stack_n));
      for (const std::string& f : stack) key += '\x1e' + f;
    }
    auto [it, fresh] = index.emplace(key, out.size());
    if (fresh) {
      FunctionEventAvg a;
      a.key = e.name;
      if (group_by_input_shape) a.input_shapes = e.input_shapes;
      a.stack = std::move(stack);
      out.push_back(std::move(a));
    }
    FunctionEventAvg& a = out[it->second];
    a.count += 1;
    a.cpu_time_total += e.cpu_time_total();
    a.self_cpu_time_total += e.self_cpu_time_total();
    a.cpu_memory_usage += e.cpu_memory_usage;
    a.self_cpu_memory_usage += e.self_cpu_memory_usage;
  }
  return out;
}

std::string EventList::table(const std::string& sort_by, int64_t row_limit) const {
  return key_averages(has_shapes).table(sort_by, row_limit);
}

// The layout of torch.autograd.profiler_util._build_table for CPU-only
// profiles: a right-aligned name column (max name + 4, at most 55), 12-wide
// metric columns separated by two spaces, input shapes and source location
// left-aligned, and the "Self CPU time total" footer.
std::string EventAvgList::table(const std::string& sort_by, int64_t row_limit, const TableOptions& opts) const {
  std::vector<const FunctionEventAvg*> rows;
  for (const FunctionEventAvg& e : *this) rows.push_back(&e);
  if (!sort_by.empty()) {
    std::vector<double> keys;
    for (const FunctionEventAvg* e : rows) keys.push_back(sort_key(*e, sort_by));
    std::vector<size_t> idx(rows.size());
    for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return keys[a] > keys[b]; });
    std::vector<const FunctionEventAvg*> sorted;
    for (size_t i : idx) sorted.push_back(rows[i]);
    rows.swap(sorted);
  }
  bool has_shapes = false, has_stack = false;
  size_t name_w = 0, shapes_w = 0, src_w = 0;
  for (const FunctionEventAvg* e : rows) {
    name_w = std::max(name_w, e->key.size());
    if (!e->input_shapes.empty()) has_shapes = true;
    shapes_w = std::max(shapes_w, shapes_str(e->input_shapes).size());
    for (const std::string& f : e->stack) src_w = std::max(src_w, f.size()), has_stack = true;
  }
  name_w = std::min<size_t>(name_w + 4, static_cast<size_t>(opts.max_name_column_width));
  shapes_w = std::min<size_t>(shapes_w + 4, static_cast<size_t>(opts.max_shapes_column_width));
  src_w = std::min<size_t>(src_w + 4, static_cast<size_t>(opts.max_src_column_width));

  struct Column {
    std::string header;
    size_t width;
    bool left;
  };
  std::vector<Column> cols = {{"Name", name_w, false},    {"Self CPU %", 12, false}, {"Self CPU", 12, false},
                              {"CPU total %", 12, false}, {"CPU total", 12, false},  {"CPU time avg", 12, false}};
  if (has_memory) {
    cols.push_back({"CPU Mem", 12, false});
    cols.push_back({"Self CPU Mem", 12, false});
  }
  cols.push_back({"# of Calls", 12, false});
  if (has_shapes) cols.push_back({"Input Shapes", shapes_w, true});
  if (has_stack) cols.push_back({"Source Location", src_w, true});

  auto line = [&](const std::vector<std::string>& cells) {
    std::string s;
    for (size_t i = 0; i < cols.size(); ++i)
      s += pad(i < cells.size() ? cells[i] : "", cols[i].width, cols[i].left) + "  ";
    return s + "\n";
  };
  std::string sep;
  for (const Column& c : cols) sep += std::string(c.width, '-') + "  ";
  sep += "\n";

  double total_self = 0;
  for (const FunctionEventAvg* e : rows) total_self += e->self_cpu_time_total;

  std::ostringstream out;
  out << sep;
  std::vector<std::string> headers;
  for (const Column& c : cols) headers.push_back(c.header);
  out << line(headers) << sep;
  int64_t shown = 0;
  for (const FunctionEventAvg* e : rows) {
    if (row_limit >= 0 && shown == row_limit) break;
    ++shown;
    std::vector<std::string> cells = {trim(e->key, static_cast<size_t>(opts.max_name_column_width)),
                                      format_share(e->self_cpu_time_total, total_self),
                                      format_time(e->self_cpu_time_total),
                                      format_share(e->cpu_time_total, total_self),
                                      format_time(e->cpu_time_total),
                                      format_time(e->cpu_time())};
    if (has_memory) {
      cells.push_back(format_memory(e->cpu_memory_usage));
      cells.push_back(format_memory(e->self_cpu_memory_usage));
    }
    cells.push_back(std::to_string(e->count));
    if (has_shapes) cells.push_back(trim(shapes_str(e->input_shapes), shapes_w));
    if (has_stack) cells.push_back(e->stack.empty() ? "" : trim(e->stack[0], src_w));
    out << line(cells);
    // Further stack frames go on their own rows under the source column.
    for (size_t f = 1; has_stack && f < e->stack.size(); ++f) {
      std::vector<std::string> more(cols.size());
      more.back() = trim(e->stack[f], src_w);
      out << line(more);
    }
  }
  out << sep << "Self CPU time total: " << format_time(total_self) << "\n";
  return out.str();
}

}  // namespace torch::profiler
