#pragma once
// One worker: a child process in a process group of its own, so stopping it
// also stops what it started (a shell script's `sleep`), and a terminal's
// Ctrl-C reaches it only through the launcher, which forwards it.
#include <signal.h>
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace ember_run {

struct SpawnSpec {
  std::string path;               // resolved executable
  std::vector<std::string> argv;  // argv[0] included
  std::vector<std::string> env;   // "KEY=value"
  int stdout_fd = -1;             // becomes the worker's fd 1
  int stderr_fd = -1;             // becomes the worker's fd 2
  const sigset_t* signal_mask = nullptr;
};

class WorkerProcess {
 public:
  // Throws std::system_error when fork or exec fails.
  static WorkerProcess spawn(const SpawnSpec& spec);

  WorkerProcess(WorkerProcess&& other) noexcept;
  WorkerProcess& operator=(WorkerProcess&&) = delete;
  WorkerProcess(const WorkerProcess&) = delete;
  ~WorkerProcess();  // kills and reaps a worker that is still there

  pid_t pid() const { return pid_; }
  // Checks for an exit without reaping it: the zombie keeps the pid, and so
  // the process group id, reserved until reap(), so signal_group can never
  // reach an unrelated group that reused the number.
  bool poll_exit();
  bool exited() const { return exitcode_.has_value(); }
  // torchrun's exitcode: the exit status, or -signal for a worker killed by one.
  int exitcode() const { return *exitcode_; }
  std::chrono::system_clock::time_point exit_time() const { return exit_time_; }

  void signal_group(int sig);
  void reap();

 private:
  explicit WorkerProcess(pid_t pid) : pid_(pid) {}
  pid_t pid_ = -1;
  bool reaped_ = false;
  std::optional<int> exitcode_;
  std::chrono::system_clock::time_point exit_time_;
};

// execvp's lookup, done once up front so a typo fails before any worker starts.
std::optional<std::string> resolve_program(const std::string& program);

}  // namespace ember_run
