#pragma once
// The report torchrun prints when a worker fails (ChildFailedError.format_msg
// in torch/distributed/elastic/multiprocessing/errors): every failed rank with
// its time, host, exit code or signal and pid, the first one as the root cause.
#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace ember_run {

struct WorkerFailure {
  int local_rank = 0;
  int global_rank = 0;
  pid_t pid = 0;
  int exitcode = 0;  // -signal when killed by one
  std::chrono::system_clock::time_point time;
  std::string error_file;  // "<N/A>" when the worker wrote none
};

// The failure observed first (torchrun: smallest timestamp, first in rank order on ties).
const WorkerFailure& root_cause(const std::vector<WorkerFailure>& failures);

std::string format_failure_summary(const std::string& entrypoint, const std::vector<WorkerFailure>& failures,
                                   const std::string& hostname);

// The launcher's exit status for a failure: the worker's code, or 128+signal
// for a worker killed by a signal (the shell's convention).
int launcher_exit_code(const WorkerFailure& failure);

std::string signal_name(int sig);  // "SIGKILL"

}  // namespace ember_run
