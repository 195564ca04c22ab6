#pragma once
// Join (torch.distributed.algorithms.Join): training on uneven inputs. A rank
// whose inputs run out leaves its loop and, in Join's exit, shadows the
// collectives the other ranks still run (each Joinable's JoinHook), until
// every rank has joined; then the post hooks run (DDP: the last joiner's
// parameters are broadcast so every replica ends equal).
#include <memory>
#include <vector>

#include "ember/distributed/distributed_c10d.h"

namespace torch::distributed::algorithms {

class JoinHook {
 public:
  virtual ~JoinHook() = default;
  // One shadowing round: the collectives one iteration of the others runs.
  virtual void main_hook() {}
  // After every rank joined; is_last_joiner: this rank joined in the last round.
  virtual void post_hook(bool /*is_last_joiner*/) {}
};

struct JoinConfig {
  bool enable = false;
  bool throw_on_early_termination = false;
  bool is_first_joinable = false;
};

// A class whose collectives a joined rank must shadow (DDP, ZeroRedundancyOptimizer).
// Its per-iteration method calls Join::notify_join_context(*this) first.
class Joinable {
 public:
  virtual ~Joinable() = default;
  virtual std::unique_ptr<JoinHook> join_hook() = 0;
  virtual ProcessGroupPtr join_process_group() const = 0;
  // Set by the Join that holds this joinable; disabled otherwise.
  JoinConfig _join_config;
};

class Join {
 public:
  // The joinables' process groups must be the same.
  explicit Join(std::vector<Joinable*> joinables, bool enable = true, bool throw_on_early_termination = false);
  // Runs exit() unless it ran, or an exception is propagating (Python's
  // __exit__ with an exception does nothing); its errors propagate, so hold a
  // Join by value (`auto join = ddp->join();`), not in a unique_ptr.
  ~Join() noexcept(false);
  Join(const Join&) = delete;
  Join& operator=(const Join&) = delete;

  // Python's __exit__ without an exception: shadow until all ranks joined,
  // then the post hooks. With throw_on_early_termination, raises instead
  // (and makes the ranks still training raise in their notify_join_context).
  void exit();

  // Called by a joinable at each iteration while it still has inputs: tells
  // the joined ranks this rank is training. The returned Work's result is the
  // number of ranks still training (nullptr when not the first joinable or
  // join is disabled). Raises when another rank exhausted its inputs and
  // throw_on_early_termination is set.
  static WorkPtr notify_join_context(Joinable& joinable);

 private:
  std::vector<Joinable*> joinables_;
  std::vector<std::unique_ptr<JoinHook>> hooks_;
  bool enable_, throw_on_early_termination_;
  ProcessGroupPtr group_;
  int64_t rank_;
  int uncaught_at_entry_;
  bool exited_ = false;
};

}  // namespace torch::distributed::algorithms
