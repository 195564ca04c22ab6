#pragma once
// Joining a process group through its store, before Gloo connects: every rank
// registers its world size and claims its rank, so a wrong world size, a rank
// taken twice or a rank that never comes raises an ember::Error naming it
// (on every rank that is there) instead of hanging in Gloo's rendezvous.
#include <chrono>
#include <string>

#include "ember/distributed/store/store.h"

namespace torch::distributed::gloo_detail {

void join_group(Store& store, int64_t rank, int64_t size, std::chrono::milliseconds timeout,
                const std::string& group_name);

// The address this process is reachable on for peers of a group using store.
std::string reachable_hostname(Store& store);

}  // namespace torch::distributed::gloo_detail
