#pragma once
// Distributed autograd (torch.distributed.autograd). Note [Distributed autograd]
// Inside a context, an RPC whose arguments (or result) hold tensors that
// require grad records a "send" on the sending worker (the tensors, under a
// message id) and, on the receiving one, makes the received tensors outputs of
// a RecvRpcBackward node carrying the sender and message id. backward(ctx,
// roots) computes, on each worker, the gradients of what it holds with respect
// to its local leaves and to the tensors it received; the latter go back to
// their senders (a BACKWARD message), which continue from their recorded
// sends, so the pass crosses every RPC boundary (torch's FAST mode: each
// message's part is computed when its gradient arrives; the maths is linear,
// so per-message passes sum to the whole). Leaf gradients accumulate in the
// context, not in .grad; get_gradients reads them on the worker that owns the
// leaves. The container of contexts is process-wide, as torch's.
#include <cstdint>
#include <utility>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/distributed/object.h"

namespace torch::distributed::autograd {

// Python's `with dist_autograd.context() as context_id:`. While alive, RPCs
// from this thread are recorded under it. Releasing it frees the recorded
// graph here and on the workers it reached.
class context {
 public:
  context();
  ~context();
  context(const context&) = delete;
  context& operator=(const context&) = delete;
  int64_t id() const { return id_; }
  operator int64_t() const { return id_; }  // NOLINT: implicit, as the Python context_id

 private:
  int64_t id_;
};

// Leaf tensor -> its accumulated gradient in one context.
class Gradients {
 public:
  const Tensor& operator[](const Tensor& t) const;  // raises when t has none
  bool contains(const Tensor& t) const;
  size_t size() const { return items_.size(); }
  const std::vector<std::pair<Tensor, Tensor>>& items() const { return items_; }
  void accumulate(const Tensor& leaf, const Tensor& grad);

 private:
  std::vector<std::pair<Tensor, Tensor>> items_;
};

// Runs the distributed backward pass from roots (scalars; gradient 1).
void backward(int64_t context_id, const std::vector<Tensor>& roots, bool retain_graph = false);
Gradients get_gradients(int64_t context_id);

namespace detail {
// The context the calling thread records into (-1: none).
int64_t current_context_id();
// Makes id current on this thread while alive (a callee runs the call under the caller's context).
class ContextGuard {
 public:
  explicit ContextGuard(int64_t id);
  ~ContextGuard();
  ContextGuard(const ContextGuard&) = delete;
  ContextGuard& operator=(const ContextGuard&) = delete;

 private:
  int64_t prev_;
};
// Sending side: the positions (in Object order) of obj's tensors that require grad,
// recorded under message_id (nothing when none does).
std::vector<int64_t> record_send(int64_t context_id, int64_t message_id, const Object& obj, int64_t to_rank);
// Receiving side: makes the tensors at `positions` outputs of a RecvRpcBackward.
void attach_recv(int64_t context_id, int64_t from_rank, int64_t message_id, const Object& obj,
                 const std::vector<int64_t>& positions);
// A BACKWARD message: continues the pass from the recorded send.
void backward_from_message(int64_t context_id, int64_t message_id, const Object::List& grads);
// Frees a context (a CLEANUP message, or the context's end); false if unknown.
bool release_context(int64_t context_id);
// Every tensor in obj, in its order.
void collect_tensors(const Object& obj, std::vector<Tensor>& out);
}  // namespace detail

}  // namespace torch::distributed::autograd
