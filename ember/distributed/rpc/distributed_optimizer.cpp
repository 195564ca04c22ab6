#include "ember/distributed/rpc/distributed_optimizer.h"

#include <map>
#include <mutex>

#include "ember/core/error.h"
#include "ember/distributed/rpc/agent.h"
#include "ember/distributed/rpc/dist_autograd.h"

namespace torch::distributed::optim {
namespace {

struct Local {
  std::unique_ptr<::torch::optim::Optimizer> optimizer;
  std::vector<Tensor> params;
};

std::mutex& mu() {
  static std::mutex m;
  return m;
}
std::map<std::string, OptimizerClass>& classes() {
  static std::map<std::string, OptimizerClass> c;
  return c;
}
std::map<int64_t, Local>& locals() {
  static std::map<int64_t, Local> l;
  return l;
}

// [class name, [rref ids]] on the owner: builds the local optimizer, returns its id.
Object create(const Object::List& args, const Object::Dict&) {
  EMBER_CHECK(args.size() == 2, "DistributedOptimizer: malformed create request");
  OptimizerClass cls;
  {
    std::lock_guard<std::mutex> lock(mu());
    auto it = classes().find(args[0].to_string());
    EMBER_CHECK(it != classes().end(), "DistributedOptimizer: no optimizer class '", args[0].to_string(),
                "' is registered on this worker (register_optimizer_class)");
    cls = it->second;
  }
  std::vector<Tensor> params;
  for (const auto& id : args[1].to_list()) params.push_back(rpc::local_rref_value(id.to_int()).to_tensor());
  Local local{cls({::torch::optim::OptimizerParamGroup(params)}), params};
  int64_t id = rpc::detail::Agent::get()->next_id();
  std::lock_guard<std::mutex> lock(mu());
  locals()[id] = std::move(local);
  return Object(id);
}

// [optimizer id, context id]: one step with the context's gradients.
Object step_local(const Object::List& args, const Object::Dict&) {
  EMBER_CHECK(args.size() == 2, "DistributedOptimizer: malformed step request");
  auto grads = autograd::get_gradients(args[1].to_int());
  std::lock_guard<std::mutex> lock(mu());
  auto it = locals().find(args[0].to_int());
  EMBER_CHECK(it != locals().end(), "DistributedOptimizer: unknown optimizer ", args[0].to_int());
  auto& [optimizer, params] = it->second;
  std::vector<Tensor> saved;
  for (auto& p : params) {
    saved.push_back(p.grad());
    p.mutable_grad() = grads.contains(p) ? grads[p] : Tensor();
  }
  optimizer->step();
  for (size_t i = 0; i < params.size(); ++i) params[i].mutable_grad() = saved[i];
  return {};
}

const bool kRegistered = [] {
  rpc::register_function("__ember_dist_optim_create", create);
  rpc::register_function("__ember_dist_optim_step", step_local);
  return true;
}();

}  // namespace

void register_optimizer_class(const std::string& name, OptimizerClass optimizer_class) {
  EMBER_CHECK(optimizer_class != nullptr, "register_optimizer_class: the class for '", name, "' is empty");
  std::lock_guard<std::mutex> lock(mu());
  classes()[name] = std::move(optimizer_class);
}

DistributedOptimizer::DistributedOptimizer(const std::string& optimizer_class,
                                           const std::vector<rpc::RRef>& params_rref) {
  (void)kRegistered;
  EMBER_CHECK(!params_rref.empty(), "DistributedOptimizer: params_rref is empty");
  std::map<int64_t, Object::List> by_owner;
  for (const auto& r : params_rref) by_owner[r.owner().id].emplace_back(r.id());
  std::vector<std::pair<int64_t, rpc::Future>> created;
  for (auto& [owner, ids] : by_owner) {
    created.emplace_back(
        owner, rpc::rpc_async(owner, "__ember_dist_optim_create", {Object(optimizer_class), Object(std::move(ids))}));
  }
  for (auto& [owner, f] : created) remote_optimizers_.emplace_back(owner, f.wait().to_int());
}

void DistributedOptimizer::step(int64_t context_id) {
  std::vector<rpc::Future> steps;
  for (const auto& [owner, id] : remote_optimizers_)
    steps.push_back(rpc::rpc_async(owner, "__ember_dist_optim_step", {Object(id), Object(context_id)}));
  for (auto& f : steps) f.wait();
}

}  // namespace torch::distributed::optim
