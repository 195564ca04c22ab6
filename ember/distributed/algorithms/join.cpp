#include "ember/distributed/algorithms/join.h"

#include <exception>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"

namespace torch::distributed::algorithms {

Join::Join(std::vector<Joinable*> joinables, bool enable, bool throw_on_early_termination)
    : joinables_(std::move(joinables)),
      enable_(enable),
      throw_on_early_termination_(throw_on_early_termination),
      uncaught_at_entry_(std::uncaught_exceptions()) {
  EMBER_CHECK(!joinables_.empty(), "Join: The join context manager requires at least one joinable");
  for (size_t i = 0; i < joinables_.size(); ++i) {
    EMBER_CHECK(joinables_[i] != nullptr, "Join: joinable ", i, " is null");
    auto pg = joinables_[i]->join_process_group();
    if (i == 0)
      group_ = pg;
    else
      EMBER_CHECK(pg == group_, "Join: Using join context manager with multiple process groups");
  }
  for (auto* j : joinables_) hooks_.push_back(j->join_hook());
  bool first = true;
  for (auto* j : joinables_) {
    j->_join_config = JoinConfig{enable_, throw_on_early_termination_, first};
    first = false;
  }
  rank_ = get_rank(group_);
}

Join::~Join() noexcept(false) {
  bool unwinding = std::uncaught_exceptions() > uncaught_at_entry_;
  auto reset = [this] {
    for (auto* j : joinables_) j->_join_config = JoinConfig{};
  };
  if (exited_ || unwinding) {
    reset();
    return;
  }
  try {
    exit();
  } catch (...) {
    reset();
    throw;
  }
  reset();
}

void Join::exit() {
  if (exited_) return;
  exited_ = true;
  if (!enable_) return;
  bool is_last_joiner = true;
  for (;;) {
    // Matches the ones that notify_join_context all-reduces on training ranks.
    Tensor count = zeros({1});
    all_reduce(count, ReduceOp::SUM, group_);
    if (count.item<float>() == 0) break;
    if (throw_on_early_termination_) {
      all_reduce(ones({1}), ReduceOp::SUM, group_);  // the training ranks' should-throw flag
      EMBER_ERROR("Join: Rank ", rank_, " exhausted all inputs.");
    }
    for (auto& h : hooks_) h->main_hook();
    is_last_joiner = false;
  }
  for (auto& h : hooks_) h->post_hook(is_last_joiner);
}

WorkPtr Join::notify_join_context(Joinable& joinable) {
  const JoinConfig& c = joinable._join_config;
  if (!c.is_first_joinable || !c.enable) return nullptr;
  ProcessGroupPtr pg = joinable.join_process_group();
  WorkPtr work = all_reduce(ones({1}), ReduceOp::SUM, pg, true);
  if (c.throw_on_early_termination) {
    Tensor flag = zeros({1});
    all_reduce(flag, ReduceOp::SUM, pg);
    if (flag.item<float>() != 0)
      EMBER_ERROR("Join: Detected at least one rank that exhausted inputs. Throwing across all ranks.");
  }
  return work;
}

}  // namespace torch::distributed::algorithms
