#pragma once
// DistributedOptimizer (torch.distributed.optim.DistributedOptimizer): one
// local optimizer on each worker that owns some of the parameters (RRefs);
// step(context_id) steps them all with that distributed-autograd context's
// gradients. The optimizer class is named (register_optimizer_class on every
// worker): C++ cannot send a class over the wire (Note [RPC design]).
#include <string>
#include <vector>

#include "ember/distributed/optim/zero_redundancy_optimizer.h"
#include "ember/distributed/rpc/api.h"

namespace torch::distributed::optim {

void register_optimizer_class(const std::string& name, OptimizerClass optimizer_class);

class DistributedOptimizer {
 public:
  DistributedOptimizer(const std::string& optimizer_class, const std::vector<rpc::RRef>& params_rref);
  // Every owner steps its parameters with its gradients in context_id; waits for all.
  void step(int64_t context_id);

 private:
  std::vector<std::pair<int64_t, int64_t>> remote_optimizers_;  // (owner, optimizer id there)
};

}  // namespace torch::distributed::optim
