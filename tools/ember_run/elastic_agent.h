#pragma once
// torchrun's SimpleElasticAgent._invoke_run for one role: rendezvous, start
// the group, check it every monitor interval, restart the whole group on a
// failure while restarts remain, and stop the workers on SIGINT/SIGTERM.
#include <string>

#include "launch_options.h"
#include "signal_watch.h"

namespace ember_run {

// Returns the launcher's exit status: 0 when every worker succeeded, the
// root-cause worker's code (128+signal when killed by one) after the last
// restart failed, 128+signal when the launcher itself was signalled.
int run_elastic_agent(const LaunchOptions& options, const std::string& program_path, const SignalWatch& signals);

}  // namespace ember_run
