#pragma once
// The launcher's signals arrive through a signalfd instead of handlers: the
// monitor loop polls it beside the workers' pipes, so a SIGCHLD or a Ctrl-C is
// an ordinary event and no handler touches shared state.
#include <signal.h>

#include <vector>

#include "unique_fd.h"

namespace ember_run {

class SignalWatch {
 public:
  // Blocks SIGCHLD, SIGINT, SIGTERM, SIGHUP and SIGQUIT for this process and
  // routes them to fd(); the previous mask is restored on destruction.
  SignalWatch();
  ~SignalWatch();
  SignalWatch(const SignalWatch&) = delete;
  SignalWatch& operator=(const SignalWatch&) = delete;

  int fd() const { return fd_.get(); }
  // The mask a worker must start with (the one ember-run itself started with).
  const sigset_t& original_mask() const { return original_mask_; }

 private:
  sigset_t original_mask_;
  UniqueFd fd_;
};

bool is_termination_signal(int sig);

// Every signal pending on a signalfd, without blocking.
std::vector<int> drain_signals(int signal_fd);

}  // namespace ember_run
