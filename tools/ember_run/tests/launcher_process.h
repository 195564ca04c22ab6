#pragma once
// Runs the built ember-run as a child process for the tests: its stdout and
// stderr captured, its lifetime bounded (a launcher still running at the
// deadline is killed and the test fails instead of hanging).
#include <sys/types.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace ember_run_test {

struct LauncherResult {
  int exit_code = -1;  // 128+signal if the launcher itself died by one
  bool timed_out = false;
  std::string out;
  std::string err;
};

class LauncherProcess {
 public:
  // `env` entries are added to (or, with an empty value, removed from) the
  // test's environment; OMP_NUM_THREADS is always removed, as the reference
  // runs remove it.
  LauncherProcess(const std::vector<std::string>& args, const std::map<std::string, std::string>& env = {});
  ~LauncherProcess();
  LauncherProcess(const LauncherProcess&) = delete;
  LauncherProcess& operator=(const LauncherProcess&) = delete;

  pid_t pid() const { return pid_; }
  // Collects output until the launcher exits or `timeout` passes.
  LauncherResult wait(std::chrono::milliseconds timeout = std::chrono::seconds(20));

 private:
  pid_t pid_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
  bool reaped_ = false;
};

LauncherResult run_launcher(const std::vector<std::string>& args, const std::map<std::string, std::string>& env = {},
                            std::chrono::milliseconds timeout = std::chrono::seconds(20));

// Path of a worker script in tests/workers/.
std::string worker(const std::string& name);

// Lines of `text` that start with `prefix`.
std::vector<std::string> lines_starting_with(const std::string& text, const std::string& prefix);
std::vector<std::string> split_lines(const std::string& text);

// Polls until `path` exists or the timeout passes.
bool wait_for_file(const std::string& path, std::chrono::milliseconds timeout = std::chrono::seconds(10));

// A fresh directory under TMPDIR, removed with its contents.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::string read_file(const std::string& path);
bool file_exists(const std::string& path);
int free_port();

}  // namespace ember_run_test
