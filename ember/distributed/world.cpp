#include "ember/distributed/world.h"

#include <algorithm>

#include "ember/core/error.h"

namespace torch::distributed::c10d_detail {

World& world() {
  static World w;
  return w;
}

ProcessGroupPtr resolve(const ProcessGroupPtr& group, const char* op) {
  if (group) return group;
  World& w = world();
  std::lock_guard<std::mutex> lock(w.mu);
  EMBER_CHECK(w.default_pg != nullptr, op,
              ": Default process group has not been initialized, please make sure to call init_process_group.");
  return w.default_pg;
}

bool is_non_member(const ProcessGroupPtr& group) { return group && group == GroupMember::NON_GROUP_MEMBER(); }

int64_t group_rank_of(const ProcessGroupPtr& group, int64_t global_rank, const char* op) {
  World& w = world();
  std::lock_guard<std::mutex> lock(w.mu);
  auto it = w.global_ranks.find(group.get());
  if (it == w.global_ranks.end()) {
    EMBER_CHECK(global_rank >= 0 && global_rank < group->size(), op, ": rank ", global_rank,
                " is out of range for world_size ", group->size());
    return global_rank;
  }
  auto pos = std::find(it->second.begin(), it->second.end(), global_rank);
  EMBER_CHECK(pos != it->second.end(), op, ": global rank ", global_rank, " is not part of process group '",
              group->group_name(), "'");
  return pos - it->second.begin();
}

int64_t global_rank_of(const ProcessGroupPtr& group, int64_t group_rank) {
  World& w = world();
  std::lock_guard<std::mutex> lock(w.mu);
  auto it = w.global_ranks.find(group.get());
  if (it == w.global_ranks.end()) return group_rank;
  EMBER_CHECK(group_rank >= 0 && group_rank < static_cast<int64_t>(it->second.size()), "get_global_rank: group rank ",
              group_rank, " is out of range for process group '", group->group_name(), "' of size ", it->second.size());
  return it->second[static_cast<size_t>(group_rank)];
}

}  // namespace torch::distributed::c10d_detail
