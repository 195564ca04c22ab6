#pragma once
// The state torch.distributed keeps per process: the default group, its
// store, and the global ranks of every subgroup. It is the one piece of
// process-wide mutable state in the library (Python's module globals), behind
// one mutex.
#include <map>
#include <mutex>

#include "ember/distributed/distributed_c10d.h"

namespace torch::distributed::c10d_detail {

struct World {
  std::mutex mu;
  ProcessGroupPtr default_pg;
  std::shared_ptr<Store> store;  // the default group's store, before its prefix
  std::string backend;
  int64_t group_count = 0;
  std::chrono::milliseconds timeout{default_pg_timeout};
  std::map<const ProcessGroup*, std::vector<int64_t>> global_ranks;  // subgroups only
};
World& world();

// The group a call runs on: the default one for nullptr; raises when
// init_process_group has not run.
ProcessGroupPtr resolve(const ProcessGroupPtr& group, const char* op);
bool is_non_member(const ProcessGroupPtr& group);
// A global rank's rank in group (raises naming op when it is not a member).
int64_t group_rank_of(const ProcessGroupPtr& group, int64_t global_rank, const char* op);
int64_t global_rank_of(const ProcessGroupPtr& group, int64_t group_rank);

}  // namespace torch::distributed::c10d_detail
