#include "torchrun_reference.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <stdexcept>

#include "launcher_process.h"

namespace ember_run_test {
namespace {

std::map<std::string, std::vector<std::string>> load() {
  std::ifstream in(std::string(EMBER_RUN_TEST_DIR) + "/golden/torchrun_reference.txt");
  if (!in) throw std::runtime_error("golden/torchrun_reference.txt is missing");
  std::map<std::string, std::vector<std::string>> sections;
  std::vector<std::string>* current = nullptr;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0)
      current = &sections[line.substr(3)];
    else if (current)
      current->push_back(line);
  }
  return sections;
}

int rank_of(const std::string& line) {
  static const std::regex header(R"(^\[[a-z]+(\d+)\]:)");
  std::smatch m;
  return std::regex_search(line, m, header) ? std::stoi(m[1]) : -1;
}

}  // namespace

const std::vector<std::string>& reference_section(const std::string& name) {
  static const auto sections = load();
  auto it = sections.find(name);
  if (it == sections.end()) throw std::runtime_error("reference section '" + name + "' is missing");
  return it->second;
}

std::vector<std::string> worker_lines_by_rank(const std::string& text) {
  std::vector<std::string> lines;
  for (auto& line : split_lines(text))
    if (rank_of(line) >= 0) lines.push_back(line);
  std::stable_sort(lines.begin(), lines.end(),
                   [](const std::string& a, const std::string& b) { return rank_of(a) < rank_of(b); });
  return lines;
}

std::vector<std::string> normalized_summary(const std::string& err) {
  auto lines = split_lines(err);
  auto title = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
    return l.size() > 7 && l.compare(l.size() - 7, 7, " FAILED") == 0;
  });
  if (title == lines.begin() || title == lines.end()) return {};
  std::vector<std::string> out;
  const std::string workers = std::string(EMBER_RUN_TEST_DIR) + "/workers";
  bool closed = false;
  for (auto it = title - 1; it != lines.end() && !closed; ++it) {
    std::string l = *it;
    l = std::regex_replace(l, std::regex("(time      : ).*"), "$1<TIME>");
    l = std::regex_replace(l, std::regex("(host      : ).*"), "$1<HOST>");
    l = std::regex_replace(l, std::regex(R"(\(pid: \d+\))"), "(pid: <PID>)");
    l = std::regex_replace(l, std::regex(R"(received by PID \d+)"), "received by PID <PID>");
    if (size_t p = l.find(workers); p != std::string::npos) l.replace(p, workers.size(), "<WORKERS>");
    closed = it != title - 1 && !l.empty() && l.find_first_not_of('=') == std::string::npos;
    out.push_back(l);
  }
  return out;
}

}  // namespace ember_run_test
