#include "elastic_agent.h"

#include <cstdio>
#include <memory>
#include <optional>

#include "failure_summary.h"
#include "host_name.h"
#include "log_dir.h"
#include "rendezvous.h"
#include "worker_group.h"

namespace ember_run {
namespace {

using Clock = std::chrono::steady_clock;

void log(const LaunchOptions& o, const std::string& msg) {
  std::string line = "ember-run: [" + o.role + "] " + msg + "\n";
  write_all(2, line.data(), line.size());
}

bool logs_anything(const LaunchOptions& o) {
  auto any = [&](const StdSpec& spec) {
    for (Std s : to_map(spec, o.nproc_per_node))
      if (s != Std::NONE) return true;
    return false;
  };
  return o.log_dir || any(o.redirects) || any(o.tee);
}

std::string describe(const WorkerFailure& f) {
  std::string how = f.exitcode < 0 ? "signal " + signal_name(-f.exitcode) : "exitcode " + std::to_string(f.exitcode);
  return "rank " + std::to_string(f.global_rank) + " (local_rank " + std::to_string(f.local_rank) + ", pid " +
         std::to_string(f.pid) + ") failed with " + how;
}

}  // namespace

int run_elastic_agent(const LaunchOptions& o, const std::string& program_path, const SignalWatch& signals) {
  const auto grace = std::chrono::duration<double>(o.stop_timeout_s);
  const auto interval =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.monitor_interval_s));
  std::optional<RunLogDir> log_dir;
  if (logs_anything(o)) {
    log_dir.emplace(o.log_dir.value_or(""), o.run_id);
    log(o, "log directory set to: " + log_dir->path());
  }
  int remaining_restarts = o.max_restarts;
  while (true) {
    const int restart_count = o.max_restarts - remaining_restarts;
    RendezvousResult rdzv;
    try {
      rdzv = next_rendezvous(o, signals.fd());
    } catch (const RendezvousInterrupted& stop) {
      log(o, "received " + signal_name(stop.signal) + " during rendezvous; exiting");
      return 128 + stop.signal;
    }
    const std::string attempt = log_dir ? log_dir->make_attempt(restart_count, o.nproc_per_node) : "";
    auto group = std::make_unique<WorkerGroup>(o, program_path, rdzv, restart_count, attempt, signals.original_mask());

    GroupState state = GroupState::HEALTHY;
    auto next_check = Clock::now() + interval;
    while (state == GroupState::HEALTHY) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(next_check - Clock::now());
      if (auto sig = group->wait_events(std::max(left, std::chrono::milliseconds(0)), signals.fd())) {
        // torchrun: a SignalException shuts the workers down with the same signal.
        log(o, "received " + signal_name(*sig) + " death signal, shutting down workers");
        group->stop(*sig, grace, signals.fd());
        return 128 + *sig;
      }
      // torchrun decides at each monitor tick, so ranks failing together are
      // reported together; a group with no worker left has nothing to wait for.
      if (Clock::now() >= next_check || group->all_exited()) {
        state = group->state();
        next_check += interval;
      }
    }
    if (state == GroupState::SUCCEEDED) {
      group->stop(SIGTERM, grace, signals.fd());
      return 0;
    }
    const auto failures = group->failures();
    if (auto sig = group->stop(SIGTERM, grace, signals.fd())) {
      log(o, "received " + signal_name(*sig) + " while stopping the failed group; not restarting");
      return 128 + *sig;
    }
    group.reset();
    const WorkerFailure& root = root_cause(failures);
    if (remaining_restarts > 0) {
      log(o, "worker group FAILED: " + describe(root) + ". " + std::to_string(remaining_restarts) + "/" +
                 std::to_string(o.max_restarts) + " attempts left; will restart worker group");
      --remaining_restarts;
      continue;
    }
    std::string summary = format_failure_summary(o.program, failures, fq_hostname());
    write_all(2, summary.data(), summary.size());
    return launcher_exit_code(root);
  }
}

}  // namespace ember_run
