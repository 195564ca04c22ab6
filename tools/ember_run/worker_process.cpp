#include "worker_process.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <system_error>
#include <utility>

#include "unique_fd.h"

namespace ember_run {
namespace {

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (const auto& s : strings) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

// Runs in the forked child: async-signal-safe calls only, all inputs prepared
// by the parent. Reports a failed exec's errno on `report_fd`.
[[noreturn]] void exec_child(const SpawnSpec& spec, char* const* argv, char* const* envp, int report_fd,
                             pid_t launcher) {
  ::setpgid(0, 0);
  // A launcher killed by SIGKILL cannot stop its workers; the kernel does.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != launcher) ::_exit(127);
  ::signal(SIGPIPE, SIG_DFL);  // ignored dispositions survive exec; the launcher ignores SIGPIPE
  if (spec.signal_mask) ::sigprocmask(SIG_SETMASK, spec.signal_mask, nullptr);
  if (::dup2(spec.stdout_fd, 1) < 0 || ::dup2(spec.stderr_fd, 2) < 0) {
    int err = errno;
    (void)!::write(report_fd, &err, sizeof(err));
    ::_exit(127);
  }
  ::execve(spec.path.c_str(), argv, envp);
  int err = errno;
  (void)!::write(report_fd, &err, sizeof(err));
  ::_exit(127);
}

}  // namespace

WorkerProcess WorkerProcess::spawn(const SpawnSpec& spec) {
  auto argv = c_strings(spec.argv);
  auto envp = c_strings(spec.env);
  Pipe report = make_pipe();
  const pid_t launcher = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) throw std::system_error(errno, std::generic_category(), "ember-run: fork");
  if (pid == 0) exec_child(spec, argv.data(), envp.data(), report.write_end.get(), launcher);
  WorkerProcess worker(pid);
  ::setpgid(pid, pid);  // also here: the parent may signal the group before the child ran
  report.write_end.reset();
  int err = 0;
  ssize_t n;
  do {
    n = ::read(report.read_end.get(), &err, sizeof(err));
  } while (n < 0 && errno == EINTR);
  if (n == static_cast<ssize_t>(sizeof(err))) {
    worker.reap();
    throw std::system_error(err, std::generic_category(), "ember-run: cannot execute '" + spec.path + "'");
  }
  return worker;
}

WorkerProcess::WorkerProcess(WorkerProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      reaped_(other.reaped_),
      exitcode_(other.exitcode_),
      exit_time_(other.exit_time_) {}

WorkerProcess::~WorkerProcess() {
  if (pid_ <= 0 || reaped_) return;
  if (!poll_exit()) signal_group(SIGKILL);
  reap();
}

bool WorkerProcess::poll_exit() {
  if (exitcode_ || pid_ <= 0) return exitcode_.has_value();
  siginfo_t info{};
  int rc;
  do {
    rc = ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT);
  } while (rc < 0 && errno == EINTR);
  if (rc != 0 || info.si_pid != pid_) return false;
  exitcode_ = info.si_code == CLD_EXITED ? info.si_status : -info.si_status;
  exit_time_ = std::chrono::system_clock::now();
  return true;
}

void WorkerProcess::signal_group(int sig) {
  if (pid_ > 0 && !reaped_) ::kill(-pid_, sig);
}

void WorkerProcess::reap() {
  if (pid_ <= 0 || reaped_) return;
  int status = 0;
  pid_t rc;
  do {
    rc = ::waitpid(pid_, &status, 0);
  } while (rc < 0 && errno == EINTR);
  reaped_ = true;
  if (!exitcode_ && rc == pid_) {
    exitcode_ = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    exit_time_ = std::chrono::system_clock::now();
  }
}

std::optional<std::string> resolve_program(const std::string& program) {
  auto runnable = [](const std::string& p) {
    struct stat st;
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
  };
  if (program.empty()) return std::nullopt;
  if (program.find('/') != std::string::npos) return runnable(program) ? std::optional(program) : std::nullopt;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t pos = 0;
  while (pos <= dirs.size()) {
    size_t colon = dirs.find(':', pos);
    std::string dir = dirs.substr(pos, colon == std::string::npos ? std::string::npos : colon - pos);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    if (runnable(candidate)) return candidate;
    if (colon == std::string::npos) break;
    pos = colon + 1;
  }
  return std::nullopt;
}

}  // namespace ember_run
