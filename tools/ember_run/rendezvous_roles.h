#pragma once
// The two sides of the static multi-node rendezvous (see rendezvous.h).
#include "launch_options.h"
#include "rendezvous.h"

namespace ember_run::rdzv {

// Node 0: waits for every other node, answers each with its rank offset.
RendezvousResult host_rendezvous(const LaunchOptions& options, int signal_fd);
// Nodes 1..N-1: joins node 0's rendezvous, retrying until the timeout.
RendezvousResult join_rendezvous(const LaunchOptions& options, int signal_fd);

}  // namespace ember_run::rdzv
