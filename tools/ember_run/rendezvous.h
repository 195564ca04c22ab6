#pragma once
// The static rendezvous: which global ranks this node's workers get and where
// their MASTER_ADDR:MASTER_PORT is. One node needs no network; with --nnodes N
// node 0 listens on the rendezvous endpoint until every node has reported its
// local world size, then tells each its rank offset (torchrun's
// _assign_worker_ranks: the offset is the sum of the local world sizes of the
// nodes with a smaller group rank).
#include <string>

#include "launch_options.h"
#include "unique_fd.h"

namespace ember_run {

struct RendezvousResult {
  int group_rank = 0;
  int group_world_size = 1;
  int world_size = 1;
  int rank_offset = 0;  // global rank of this node's local rank 0
  std::string master_addr;
  int master_port = 0;
};

// Thrown when SIGINT/SIGTERM arrives while waiting for the other nodes.
struct RendezvousInterrupted {
  int signal;
};

// `signal_fd` is watched while waiting, so Ctrl-C still stops the launcher.
RendezvousResult next_rendezvous(const LaunchOptions& options, int signal_fd);

// A port that was free a moment ago on every interface (torchrun's _get_socket_with_port).
int pick_free_port();

}  // namespace ember_run
