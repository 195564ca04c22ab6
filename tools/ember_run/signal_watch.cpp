#include "signal_watch.h"

#include <sys/signalfd.h>

#include <cerrno>
#include <system_error>

namespace ember_run {

SignalWatch::SignalWatch() {
  sigset_t watched;
  sigemptyset(&watched);
  for (int sig : {SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&watched, sig);
  if (sigprocmask(SIG_BLOCK, &watched, &original_mask_) != 0)
    throw std::system_error(errno, std::generic_category(), "ember-run: sigprocmask");
  int fd = signalfd(-1, &watched, SFD_CLOEXEC | SFD_NONBLOCK);
  if (fd < 0) {
    int err = errno;
    sigprocmask(SIG_SETMASK, &original_mask_, nullptr);
    throw std::system_error(err, std::generic_category(), "ember-run: signalfd");
  }
  fd_.reset(fd);
}

SignalWatch::~SignalWatch() {
  fd_.reset();
  sigprocmask(SIG_SETMASK, &original_mask_, nullptr);
}

std::vector<int> drain_signals(int signal_fd) {
  std::vector<int> out;
  signalfd_siginfo info;
  while (true) {
    ssize_t n = ::read(signal_fd, &info, sizeof(info));
    if (n == static_cast<ssize_t>(sizeof(info))) {
      out.push_back(static_cast<int>(info.ssi_signo));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    break;  // EAGAIN: nothing more pending
  }
  return out;
}

bool is_termination_signal(int sig) { return sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGQUIT; }

}  // namespace ember_run
