#include "ember/distributed/rpc/dist_autograd.h"

#include <map>
#include <mutex>
#include <set>
#include <unordered_set>

#include "ember/autograd/accumulate_grad.h"
#include "ember/autograd/autograd_meta.h"
#include "ember/autograd/backward.h"
#include "ember/autograd/node.h"
#include "ember/core/error.h"
#include "ember/distributed/rpc/agent.h"
#include "ember/ops/factory/factory.h"

namespace torch::distributed::autograd {
namespace {

namespace ta = ::torch::autograd;
using rpc::detail::Agent;
using rpc::detail::MessageType;

// Where a received tensor's gradient goes: back to the sender of message_id.
class RecvRpcBackward : public ta::Node {
 public:
  RecvRpcBackward(int64_t context_id, int64_t from, int64_t message_id)
      : context_id_(context_id), from_(from), message_id_(message_id) {}
  // The pass captures the gradient at this node's outputs (Note [Distributed
  // autograd]); run by a plain local backward it has nowhere local to go.
  ta::variable_list apply(ta::variable_list&&) override { return {}; }
  std::string name() const override { return "torch::distributed::autograd::RecvRpcBackward"; }
  int64_t message_id() const { return message_id_; }

 private:
  int64_t context_id_, from_, message_id_;
};

struct Recv {
  int64_t from;
  std::vector<Tensor> tensors;
};
struct Send {
  int64_t to;
  std::vector<Tensor> tensors;
};
struct Context {
  std::mutex mu;
  std::map<int64_t, Send> sends;
  std::map<int64_t, Recv> recvs;
  std::set<int64_t> peers;
  Gradients grads;
};

std::mutex& container_mu() {
  static std::mutex mu;
  return mu;
}
std::map<int64_t, std::shared_ptr<Context>>& container() {
  static std::map<int64_t, std::shared_ptr<Context>> contexts;
  return contexts;
}
thread_local int64_t t_current = -1;

std::shared_ptr<Context> find(int64_t id, bool create) {
  std::lock_guard<std::mutex> lock(container_mu());
  auto& c = container();
  auto it = c.find(id);
  if (it != c.end()) return it->second;
  EMBER_CHECK(create, "dist_autograd: Could not find autograd context with id: ", id);
  return c[id] = std::make_shared<Context>();
}

void collect(const Object& obj, std::vector<Tensor>& out) {
  if (obj.is_tensor()) {
    out.push_back(obj.to_tensor());
  } else if (obj.is_list()) {
    for (const auto& o : obj.to_list()) collect(o, out);
  } else if (obj.is_dict()) {
    for (const auto& [k, v] : obj.to_dict()) collect(v, out);
  }
}

// This worker's part of the pass: gradients of outputs w.r.t. its leaves
// (accumulated in the context) and w.r.t. the tensors it received (sent back).
void local_pass(int64_t id, const std::shared_ptr<Context>& ctx, const std::vector<Tensor>& outputs,
                const std::vector<Tensor>& grad_outputs) {
  std::vector<Tensor> leaves;
  std::vector<int64_t> recv_msgs;
  std::unordered_set<const ta::Node*> seen;
  std::vector<std::shared_ptr<ta::Node>> stack;
  for (const auto& o : outputs)
    if (auto e = ta::gradient_edge(o); e.function) stack.push_back(e.function);
  while (!stack.empty()) {
    auto n = stack.back();
    stack.pop_back();
    if (!seen.insert(n.get()).second) continue;
    if (auto* acc = dynamic_cast<ta::AccumulateGrad*>(n.get())) leaves.push_back(acc->variable());
    if (auto* recv = dynamic_cast<RecvRpcBackward*>(n.get())) recv_msgs.push_back(recv->message_id());
    for (const auto& e : n->next_edges())
      if (e.function) stack.push_back(e.function);
  }
  std::vector<Tensor> inputs = leaves;
  std::vector<std::pair<int64_t, Recv>> recvs;
  {
    std::lock_guard<std::mutex> lock(ctx->mu);
    for (int64_t m : recv_msgs) {
      auto it = ctx->recvs.find(m);
      if (it == ctx->recvs.end()) continue;
      recvs.emplace_back(m, it->second);
      inputs.insert(inputs.end(), it->second.tensors.begin(), it->second.tensors.end());
    }
  }
  if (inputs.empty()) return;
  // retain_graph: another message's gradient may cross the same part of the graph.
  auto grads = ta::grad(outputs, inputs, grad_outputs, true, false, true);
  {
    std::lock_guard<std::mutex> lock(ctx->mu);
    for (size_t i = 0; i < leaves.size(); ++i)
      if (grads[i].defined()) ctx->grads.accumulate(leaves[i], grads[i]);
  }
  auto agent = Agent::get();
  std::vector<rpc::Future> replies;
  size_t at = leaves.size();
  for (auto& [msg, recv] : recvs) {
    Object::List g;
    bool any = false;
    for (size_t k = 0; k < recv.tensors.size(); ++k, ++at) {
      any = any || grads[at].defined();
      g.push_back(grads[at].defined() ? Object(grads[at]) : Object());
    }
    if (any)
      replies.push_back(agent->send(recv.from, MessageType::kBackward,
                                    Object(Object::List{Object(id), Object(msg), Object(std::move(g))}),
                                    rpc::kUnsetRpcTimeout));
  }
  for (auto& r : replies) r.wait();
}

}  // namespace

const Tensor& Gradients::operator[](const Tensor& t) const {
  for (const auto& [k, v] : items_)
    if (k.is_same(t)) return v;
  EMBER_ERROR("dist_autograd.get_gradients: the tensor has no gradient in this context");
}

bool Gradients::contains(const Tensor& t) const {
  for (const auto& [k, v] : items_)
    if (k.is_same(t)) return true;
  return false;
}

void Gradients::accumulate(const Tensor& leaf, const Tensor& grad) {
  for (auto& [k, v] : items_)
    if (k.is_same(leaf)) {
      v = v.add(grad);
      return;
    }
  items_.emplace_back(leaf, grad);
}

context::context() {
  EMBER_CHECK(t_current < 0, "dist_autograd.context: Already have an autograd context id for this thread.");
  id_ = Agent::get()->next_id();
  find(id_, true);
  t_current = id_;
}

context::~context() {
  t_current = -1;
  detail::release_context(id_);
}

void backward(int64_t context_id, const std::vector<Tensor>& roots, bool /*retain_graph*/) {
  auto ctx = find(context_id, false);
  EMBER_CHECK(!roots.empty(), "dist_autograd.backward: roots is empty");
  std::vector<Tensor> grads;
  for (const auto& r : roots) {
    EMBER_CHECK(r.numel() == 1, "dist_autograd.backward: roots must be scalars, got shape ", r.sizes());
    EMBER_CHECK(r.requires_grad(), "dist_autograd.backward: a root does not require grad");
    grads.push_back(ones_like(r));
  }
  local_pass(context_id, ctx, roots, grads);
}

Gradients get_gradients(int64_t context_id) {
  auto ctx = find(context_id, false);
  std::lock_guard<std::mutex> lock(ctx->mu);
  return ctx->grads;
}

namespace detail {

int64_t current_context_id() { return t_current; }

ContextGuard::ContextGuard(int64_t id) : prev_(t_current) { t_current = id; }
ContextGuard::~ContextGuard() { t_current = prev_; }

void collect_tensors(const Object& obj, std::vector<Tensor>& out) { collect(obj, out); }

std::vector<int64_t> record_send(int64_t context_id, int64_t message_id, const Object& obj, int64_t to_rank) {
  std::vector<Tensor> all;
  collect(obj, all);
  std::vector<int64_t> positions;
  Send send{to_rank, {}};
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i].requires_grad()) {
      positions.push_back(static_cast<int64_t>(i));
      send.tensors.push_back(all[i]);
    }
  auto ctx = find(context_id, true);
  std::lock_guard<std::mutex> lock(ctx->mu);
  ctx->peers.insert(to_rank);
  if (!positions.empty()) ctx->sends[message_id] = std::move(send);
  return positions;
}

void attach_recv(int64_t context_id, int64_t from_rank, int64_t message_id, const Object& obj,
                 const std::vector<int64_t>& positions) {
  auto ctx = find(context_id, true);
  std::lock_guard<std::mutex> lock(ctx->mu);
  ctx->peers.insert(from_rank);
  if (positions.empty()) return;
  std::vector<Tensor> all;
  collect(obj, all);
  auto node = std::make_shared<RecvRpcBackward>(context_id, from_rank, message_id);
  Recv recv{from_rank, {}};
  for (int64_t p : positions) {
    EMBER_CHECK(p >= 0 && static_cast<size_t>(p) < all.size(), "dist_autograd: a message names tensor ", p, " of ",
                all.size());
    ta::set_history(all[static_cast<size_t>(p)], node);
    recv.tensors.push_back(all[static_cast<size_t>(p)]);
  }
  ctx->recvs[message_id] = std::move(recv);
}

void backward_from_message(int64_t context_id, int64_t message_id, const Object::List& grads) {
  auto ctx = find(context_id, false);
  std::vector<Tensor> outputs;
  {
    std::lock_guard<std::mutex> lock(ctx->mu);
    auto it = ctx->sends.find(message_id);
    EMBER_CHECK(it != ctx->sends.end(), "dist_autograd: no recorded send ", message_id, " in context ", context_id);
    outputs = it->second.tensors;
  }
  EMBER_CHECK(grads.size() == outputs.size(), "dist_autograd: ", grads.size(), " gradients for ", outputs.size(),
              " sent tensors");
  std::vector<Tensor> g;
  for (size_t i = 0; i < grads.size(); ++i) {
    Tensor t = grads[i].is_none() ? zeros_like(outputs[i]) : grads[i].to_tensor();
    EMBER_CHECK(t.sizes() == outputs[i].sizes(), "dist_autograd: a gradient of shape ", t.sizes(),
                " for a tensor of shape ", outputs[i].sizes());
    g.push_back(t);
  }
  local_pass(context_id, ctx, outputs, g);
}

bool release_context(int64_t context_id) {
  std::shared_ptr<Context> ctx;
  {
    std::lock_guard<std::mutex> lock(container_mu());
    auto it = container().find(context_id);
    if (it == container().end()) return false;
    ctx = it->second;
    container().erase(it);
  }
  // The workers this context reached free theirs too (and pass it on).
  auto agent = Agent::get_if_running();
  if (!agent) return true;
  std::set<int64_t> peers;
  {
    std::lock_guard<std::mutex> lock(ctx->mu);
    peers = ctx->peers;
  }
  for (int64_t p : peers) {
    if (p == agent->rank()) continue;
    try {
      agent->send(p, MessageType::kCleanup, Object(Object::List{Object(context_id)}), rpc::kUnsetRpcTimeout);
    } catch (const std::exception&) {  // that worker is gone
    }
  }
  return true;
}

}  // namespace detail
}  // namespace torch::distributed::autograd
