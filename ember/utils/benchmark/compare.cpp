#include "ember/utils/benchmark/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <tuple>

namespace torch::utils::benchmark {

namespace {

// ANSI colours as torch.utils.benchmark.utils.compare uses them.
const char* kBest = "\033[92m";
const char* kGood = "\033[34m";
const char* kBad = "\033[2m\033[91m";
const char* kVeryBad = "\033[31m";
const char* kBold = "\033[1m";
const char* kTerminate = "\033[0m";

// Python's str.center (the extra space goes left when width is odd).
std::string center(const std::string& s, size_t width, char fill = ' ') {
  if (s.size() >= width) return s;
  const size_t marg = width - s.size();
  const size_t left = marg / 2 + (marg & width & 1);
  return std::string(left, fill) + s + std::string(marg - left, fill);
}
std::string ljust(const std::string& s, size_t width, char fill = ' ') {
  return s.size() >= width ? s : s + std::string(width - s.size(), fill);
}

using RowKey = std::tuple<int, std::string, std::string>;  // num_threads, env, row name

// One column's number format, shared by all its cells (_Column).
struct ColumnFormat {
  int decimals = 1;
  int length = 0;
  bool warnings = false;
  bool trim = false;

  std::string num(std::optional<double> value, int sigfigs, std::optional<double> spread) const {
    if (!value) return std::string(num(1.0, 1, std::nullopt).size(), ' ');
    double v = trim ? trim_sigfig(*value, sigfigs) : *value;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%*.*f", length, decimals, v);
    std::string s = buf;
    if (warnings) {
      std::string w;
      if (spread) {
        char b2[32];
        std::snprintf(b2, sizeof b2, " (! %.0f%%)", *spread * 100);
        w = b2;
      }
      s += std::string(w.size() < 7 ? 7 - w.size() : 0, ' ') + w;
    }
    return s;
  }
};

}  // namespace

Compare::Compare(std::vector<Measurement> results) : results_(std::move(results)) {}

void Compare::extend_results(const std::vector<Measurement>& results) {
  results_.insert(results_.end(), results.begin(), results.end());
}

std::string Compare::str() const {
  std::vector<Measurement> merged = Measurement::merge(results_);
  std::vector<std::string> labels;
  for (const Measurement& m : merged)
    if (std::find(labels.begin(), labels.end(), m.label()) == labels.end()) labels.push_back(m.label());
  std::string out;
  for (size_t i = 0; i < labels.size(); ++i) {
    std::vector<Measurement> group;
    for (const Measurement& m : merged)
      if (m.label() == labels[i]) group.push_back(m);
    if (i) out += "\n";
    out += render_table(group);
  }
  return out;
}

void Compare::print() const { std::cout << str() << "\n"; }

// torch.utils.benchmark.utils.compare.Table.render.
std::string Compare::render_table(const std::vector<Measurement>& results) const {
  double min_median = results[0].median();
  for (const Measurement& m : results) min_median = std::min(min_median, m.median());
  const TimeUnit unit = select_unit(min_median);

  auto row_of = [](const Measurement& m) { return RowKey{m.num_threads(), m.env(), m.as_row_name()}; };
  std::vector<RowKey> rows;
  std::vector<std::string> cols;
  for (const Measurement& m : results) {
    if (std::find(rows.begin(), rows.end(), row_of(m)) == rows.end()) rows.push_back(row_of(m));
    if (std::find(cols.begin(), cols.end(), m.description()) == cols.end()) cols.push_back(m.description());
  }
  std::stable_sort(rows.begin(), rows.end(), [](const RowKey& a, const RowKey& b) {
    return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
  });
  std::vector<std::vector<const Measurement*>> grid(rows.size(), std::vector<const Measurement*>(cols.size()));
  for (const Measurement& m : results) {
    const size_t i = static_cast<size_t>(std::find(rows.begin(), rows.end(), row_of(m)) - rows.begin());
    const size_t j = static_cast<size_t>(std::find(cols.begin(), cols.end(), m.description()) - cols.begin());
    grid[i][j] = &m;
  }
  std::vector<std::string> envs;
  size_t env_len = 0;
  for (const Measurement& m : results)
    if (std::find(envs.begin(), envs.end(), m.env()) == envs.end()) envs.push_back(m.env());
  const bool render_env = envs.size() > 1;
  if (render_env)
    for (const std::string& e : envs) env_len = std::max(env_len, e.size());

  // Row groups: a new group starts where the thread count changes.
  std::vector<int> group_of(rows.size());
  std::vector<bool> thread_header(rows.size());
  int group = -1, prior_threads = -1;
  for (size_t i = 0; i < rows.size(); ++i) {
    thread_header[i] = std::get<0>(rows[i]) != prior_threads;
    if (thread_header[i]) prior_threads = std::get<0>(rows[i]), ++group;
    group_of[i] = group;
  }

  std::vector<ColumnFormat> fmts(cols.size());
  for (size_t j = 0; j < cols.size(); ++j) {
    ColumnFormat& f = fmts[j];
    f.trim = trim_;
    int unit_digits = 0, decimals = 100;
    bool any = false;
    for (size_t i = 0; i < rows.size(); ++i) {
      const Measurement* m = grid[i][j];
      if (!m) continue;
      const int lead = static_cast<int>(std::ceil(std::log10(m->median() / unit.scale)));
      unit_digits = any ? std::max(unit_digits, lead) : lead;
      decimals = std::min(decimals, std::max(m->significant_figures() - lead, 0));
      any = true;
      f.warnings = f.warnings || (highlight_ && m->has_warnings());
    }
    f.decimals = trim_ ? decimals : 1;
    f.length = unit_digits + f.decimals + (f.decimals ? 1 : 0);
  }

  // Ratio columns against the baseline description, when it is one of the columns.
  const auto base_it = std::find(cols.begin(), cols.end(), baseline_);
  const bool ratios = !baseline_.empty() && base_it != cols.end();
  const size_t base = static_cast<size_t>(base_it - cols.begin());

  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> header = {""};
  header.insert(header.end(), cols.begin(), cols.end());
  if (ratios)
    for (size_t j = 0; j < cols.size(); ++j)
      if (j != base) header.push_back(cols[j] + " / " + baseline_);
  cells.push_back(header);
  for (size_t i = 0; i < rows.size(); ++i) {
    std::string env;
    if (render_env && (i == 0 || thread_header[i] || std::get<1>(rows[i]) != std::get<1>(rows[i - 1])))
      env = "(" + std::get<1>(rows[i]) + ")";
    std::vector<std::string> r = {"  " + ljust(env, env_len + 4) + std::get<2>(rows[i])};
    for (size_t j = 0; j < cols.size(); ++j) {
      const Measurement* m = grid[i][j];
      if (!m)
        r.push_back(fmts[j].num(std::nullopt, 1, std::nullopt));
      else
        r.push_back(fmts[j].num(m->median() / unit.scale, m->significant_figures(),
                                m->has_warnings() ? std::optional<double>(m->iqr() / m->median()) : std::nullopt));
    }
    if (ratios)
      for (size_t j = 0; j < cols.size(); ++j) {
        if (j == base) continue;
        char buf[32] = "";
        if (grid[i][j] && grid[i][base])
          std::snprintf(buf, sizeof buf, "%.2fx", grid[i][j]->median() / grid[i][base]->median());
        r.push_back(buf);
      }
    cells.push_back(r);
  }
  std::vector<size_t> widths(header.size(), 0);
  for (const auto& r : cells)
    for (size_t j = 0; j < r.size(); ++j) widths[j] = std::max(widths[j], r[j].size());

  std::vector<std::string> lines;
  {
    std::string h;
    for (size_t j = 0; j < header.size(); ++j) h += (j ? "  |  " : "") + center(header[j], widths[j]);
    lines.push_back(h);
  }
  const size_t overall = lines[0].size();
  for (size_t i = 0; i < rows.size(); ++i) {
    if (thread_header[i]) lines.push_back(ljust(std::to_string(std::get<0>(rows[i])) + " threads: ", overall, '-'));
    std::string line = ljust(cells[i + 1][0], widths[0]);
    for (size_t j = 1; j < header.size(); ++j) {
      std::string c = center(cells[i + 1][j], widths[j]);
      const size_t col = j - 1;
      if (colorize_ != 0 && col < cols.size() && grid[i][col]) {
        double best = -1;
        if (colorize_ == 2) {
          for (const Measurement* m : grid[i])
            if (m) best = best < 0 ? m->median() : std::min(best, m->median());
        } else {
          for (size_t k = 0; k < rows.size(); ++k)
            if (group_of[k] == group_of[i] && grid[k][col])
              best = best < 0 ? grid[k][col]->median() : std::min(best, grid[k][col]->median());
        }
        const double v = grid[i][col]->median();
        if (v <= best * 1.01 || v <= best + 100e-9)
          c = std::string(kBest) + kBold + c + kTerminate + kTerminate;
        else if (v <= best * 1.1)
          c = std::string(kGood) + kBold + c + kTerminate + kTerminate;
        else if (v >= best * 5)
          c = std::string(kVeryBad) + kBold + c + kTerminate + kTerminate;
        else if (v >= best * 2)
          c = std::string(kBad) + c + kTerminate + kTerminate;
      }
      line += "  |  " + c;
    }
    lines.push_back(line);
  }
  std::string label = results[0].label();
  std::string out = "[" + center(" " + label + " ", overall >= 2 ? overall - 2 : 0, '-') + "]\n";
  for (const std::string& l : lines) out += l + "\n";
  out += std::string("\nTimes are in ") + unit_to_english(unit.name) + "s (" + unit.name + ").\n";
  bool warn = false;
  for (const Measurement& m : results) warn = warn || m.has_warnings();
  if (highlight_ && warn) out += "(! XX%) Measurement has high variance, where XX is the IQR / median * 100.\n";
  return out;
}

}  // namespace torch::utils::benchmark
