#pragma once
// ember-run's command line: torchrun's options, their defaults and their
// PET_<OPTION> environment fallbacks (torch/distributed/run.py), then the
// program and its arguments.
#include <optional>
#include <string>
#include <vector>

#include "std_streams.h"

namespace ember_run {

struct Endpoint {
  std::string host;
  int port = 0;
};

struct LaunchOptions {
  int nproc_per_node = 1;
  int nnodes = 1;  // min == max: membership changes are not supported
  int node_rank = 0;
  Endpoint rdzv_endpoint;  // static rendezvous: also the workers' MASTER_ADDR:MASTER_PORT
  std::string run_id = "none";
  double rdzv_timeout_s = 600;  // torchrun's static rendezvous default
  bool standalone = false;
  bool pick_master_port = false;  // c10d / --standalone: MASTER_ADDR = this host, MASTER_PORT = a free port
  int max_restarts = 0;
  double monitor_interval_s = 5;
  std::string role = "default";
  StdSpec redirects;
  StdSpec tee;
  std::optional<std::string> log_dir;
  double stop_timeout_s = 30;  // SIGTERM -> SIGKILL grace, torchrun's PContext.close timeout
  std::string program;
  std::vector<std::string> program_args;
};

struct ParsedCommandLine {
  bool show_help = false;
  LaunchOptions options;
};

// Throws UsageError naming the option and the bad value.
ParsedCommandLine parse_command_line(const std::vector<std::string>& args);

std::string usage_text();

}  // namespace ember_run
