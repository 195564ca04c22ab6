#include "failure_summary.h"

#include <signal.h>
#include <string.h>

#include <algorithm>
#include <ctime>
#include <sstream>

namespace ember_run {
namespace {

// datetime.fromtimestamp(ts).isoformat(sep="_"), seconds resolution.
std::string iso_time(std::chrono::system_clock::time_point t) {
  std::time_t secs = std::chrono::system_clock::to_time_t(t);
  std::tm local{};
  ::localtime_r(&secs, &local);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%d_%H:%M:%S", &local);
  return buf;
}

std::string message_of(const WorkerFailure& f) {
  if (f.exitcode < 0)
    return "Signal " + std::to_string(-f.exitcode) + " (" + signal_name(-f.exitcode) + ") received by PID " +
           std::to_string(f.pid);
  return "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html";
}

std::string format_one(size_t idx, const WorkerFailure& f, const std::string& hostname) {
  std::ostringstream out;
  out << "[" << idx << "]:\n"
      << "  time      : " << iso_time(f.time) << "\n"
      << "  host      : " << hostname << "\n"
      << "  rank      : " << f.global_rank << " (local_rank: " << f.local_rank << ")\n"
      << "  exitcode  : " << f.exitcode << " (pid: " << f.pid << ")\n"
      << "  error_file: " << f.error_file << "\n"
      << "  traceback : " << message_of(f);
  return out.str();
}

size_t widest_line(const std::string& text) {
  size_t width = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) width = std::max(width, line.size());
  return width;
}

}  // namespace

const WorkerFailure& root_cause(const std::vector<WorkerFailure>& failures) {
  return *std::min_element(failures.begin(), failures.end(),
                           [](const WorkerFailure& a, const WorkerFailure& b) { return a.time < b.time; });
}

std::string format_failure_summary(const std::string& entrypoint, const std::vector<WorkerFailure>& failures,
                                   const std::string& hostname) {
  const std::string title = entrypoint + " FAILED";
  const WorkerFailure& root = root_cause(failures);
  std::string root_text;
  std::vector<std::string> others;
  size_t width = title.size();
  for (size_t i = 0; i < failures.size(); ++i) {
    std::string text = format_one(i, failures[i], hostname);
    width = std::max(width, widest_line(text));
    if (&failures[i] == &root)
      root_text = text;
    else
      others.push_back(text);
  }
  width = std::min<size_t>(width, 60);
  const std::string border(width, '='), section(width, '-');
  std::ostringstream out;
  out << "\n" << border << "\n" << title << "\n" << section << "\nFailures:\n";
  if (others.empty()) out << "  <NO_OTHER_FAILURES>\n";
  for (const auto& o : others) out << o << "\n";
  out << section << "\nRoot Cause (first observed failure):\n" << root_text << "\n" << border << "\n";
  return out.str();
}

int launcher_exit_code(const WorkerFailure& failure) {
  return failure.exitcode > 0 ? std::min(failure.exitcode, 255) : 128 + std::min(-failure.exitcode, 127);
}

std::string signal_name(int sig) {
  const char* abbrev = ::sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

}  // namespace ember_run
