#pragma once
// The workers of one attempt: started together, their output pumped, their
// exits observed, and stopped together (the signal, then SIGKILL after the
// grace period), as torchrun's SubprocessContext.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "failure_summary.h"
#include "launch_options.h"
#include "output_sink.h"
#include "rendezvous.h"
#include "worker_process.h"

namespace ember_run {

enum class GroupState { HEALTHY, SUCCEEDED, FAILED };

class WorkerGroup {
 public:
  // attempt_dir is empty when nothing is logged. Throws std::system_error when
  // a worker cannot be started (the ones already started are killed).
  WorkerGroup(const LaunchOptions& options, const std::string& program_path, const RendezvousResult& rdzv,
              int restart_count, const std::string& attempt_dir, const sigset_t& worker_mask);
  ~WorkerGroup();

  // Pumps output and observes exits for up to `timeout`; returns a
  // termination signal received meanwhile (SIGINT, SIGTERM, ...), if any.
  std::optional<int> wait_events(std::chrono::milliseconds timeout, int signal_fd);

  // torchrun's _poll: FAILED once any worker exited non-zero or by a signal,
  // SUCCEEDED once all exited with 0.
  GroupState state();
  const std::vector<WorkerFailure>& failures() const { return failures_; }
  bool all_exited() const;

  // Sends `sig` to every worker still running, SIGKILL to those left after
  // `grace`, reaps all and drains their output. A termination signal received
  // meanwhile skips the rest of the grace period and is returned.
  std::optional<int> stop(int sig, std::chrono::duration<double> grace, int signal_fd);

 private:
  struct Worker {
    int local_rank;
    int global_rank;
    std::string error_file;
    WorkerProcess process;
  };
  void observe_exits();
  void drain_output(std::chrono::milliseconds limit);

  std::vector<Worker> workers_;
  std::vector<std::unique_ptr<OutputSink>> sinks_;
  std::vector<WorkerFailure> failures_;
  bool stopped_ = false;
};

}  // namespace ember_run
