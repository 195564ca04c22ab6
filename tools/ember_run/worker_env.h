#pragma once
// What each worker is told: the launcher's own environment plus torchrun's
// variables (local_elastic_agent.py, _start_workers), and its arguments with
// torchrun's ${local_rank} macro substituted.
#include <optional>
#include <string>
#include <vector>

#include "launch_options.h"
#include "rendezvous.h"

namespace ember_run {

struct WorkerIdentity {
  int local_rank = 0;
  int restart_count = 0;
  std::optional<std::string> error_file;  // TORCHELASTIC_ERROR_FILE when there is a log dir
};

// "KEY=value" entries for execve.
std::vector<std::string> worker_environment(const LaunchOptions& options, const RendezvousResult& rdzv,
                                            const WorkerIdentity& worker);

// string.Template(arg).safe_substitute(local_rank=...): $local_rank and
// ${local_rank} become the rank, $$ becomes $, anything else stays.
std::string substitute_local_rank(const std::string& arg, int local_rank);

}  // namespace ember_run
