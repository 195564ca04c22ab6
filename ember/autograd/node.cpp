#include "ember/autograd/node.h"

#include <atomic>

#include "ember/autograd/tensor_hook.h"
#include "ember/core/error.h"
#include "ember/core/fast_thread_local.h"
#include "ember/core/record_scope.h"
#include "ember/core/shape.h"

namespace torch::autograd {

// Note [Sequence numbers]
// Unique across threads and increasing on each thread: the engine runs the
// newest ready node first. As in PyTorch, whose counter is per thread, the
// numbers of nodes made on different threads say nothing about which came
// first (the engine's dependency counts alone make backward correct; the
// order only decides among nodes that are ready together). A thread takes its
// numbers in blocks from the shared counter, so recording an op executes no
// locked instruction for its number (one per op was about 1 % of bench/SPEC.md W1).
namespace {
constexpr uint64_t kSequenceBlock = 1024;
std::atomic<uint64_t> g_sequence_counter{0};
EMBER_INITIAL_EXEC_TLS thread_local uint64_t t_sequence_next = 0;  // Note [Fast thread_locals]
EMBER_INITIAL_EXEC_TLS thread_local uint64_t t_sequence_end = 0;
}  // namespace

uint64_t next_sequence_nr() {
  if (t_sequence_next == t_sequence_end) [[unlikely]] {
    t_sequence_next = g_sequence_counter.fetch_add(kSequenceBlock, std::memory_order_relaxed);
    t_sequence_end = t_sequence_next + kSequenceBlock;
  }
  const uint64_t n = t_sequence_next++;
  if (profiler::is_profiling()) [[unlikely]]
    profiler::detail::note_sequence_nr(n);  // links the op being recorded to this node
  return n;
}

// Note [Iterative graph deletion]
// Dropping the last reference to the head of a long chain would destroy each
// node from inside its successor's destructor: one stack frame per node, and a
// 100,000-node graph overflows the stack. Instead a node hands the successors
// it solely owns to a per-thread list, and only the outermost destructor on
// the thread drains that list, one node at a time.
Node::~Node() {
  thread_local std::vector<std::shared_ptr<Node>> pending;
  thread_local bool draining = false;
  for (Edge& e : next_edges_)
    if (e.function && e.function.use_count() == 1) pending.push_back(std::move(e.function));
  next_edges_.clear();
  if (draining) return;
  draining = true;
  while (!pending.empty()) {
    std::shared_ptr<Node> n = std::move(pending.back());
    pending.pop_back();
    n.reset();  // may push n's own successors
  }
  draining = false;
}

uint32_t Node::add_input_metadata(const Tensor& t) {
  input_metadata_.push_back({DimVector(t.sizes()), t.dtype()});
  return static_cast<uint32_t>(input_metadata_.size() - 1);
}

uint32_t Node::add_input_metadata_undefined() {
  input_metadata_.push_back({DimVector(), ScalarType::Undefined});
  return static_cast<uint32_t>(input_metadata_.size() - 1);
}

void Node::add_tensor_pre_hook(uint32_t output_nr, std::function<Tensor(const Tensor&)> h) {
  hooks().tensor_pre.emplace_back(output_nr, std::move(h));
}

void Node::add_retain_grad_hook(uint32_t output_nr, std::function<void(const Tensor&)> h) {
  hooks().retain_grad.emplace_back(output_nr, std::move(h));
}

void Node::remove_retain_grad_hook(uint32_t output_nr) {
  if (hooks_) std::erase_if(hooks_->retain_grad, [output_nr](const auto& h) { return h.first == output_nr; });
}

Tensor run_tensor_hook(const std::function<Tensor(const Tensor&)>& hook, const Tensor& grad) {
  Tensor r = hook(grad);
  if (!r.defined()) return grad;
  EMBER_CHECK(r.sizes() == grad.sizes(), "backward: a hook has changed the size of value (was ",
              shape_str(grad.sizes()), ", got ", shape_str(r.sizes()), ")");
  EMBER_CHECK(r.dtype() == grad.dtype(), "backward: a hook has changed the type of value (was ", grad.dtype(), ", got ",
              r.dtype(), ")");
  return r;
}

variable_list Node::operator()(variable_list&& grads) {
  profiler::RecordScope scope;
  if (profiler::is_profiling()) [[unlikely]]
    scope.start_named(name(), sequence_nr_ == UINT64_MAX ? -1 : static_cast<int64_t>(sequence_nr_), true);
  if (!hooks_) return apply(std::move(grads));
  for (auto& [nr, hook] : hooks_->tensor_pre) {
    if (nr < grads.size() && grads[nr].defined()) grads[nr] = run_tensor_hook(hook, grads[nr]);
  }
  for (auto& [nr, hook] : hooks_->retain_grad)
    if (nr < grads.size() && grads[nr].defined()) hook(grads[nr]);
  for (auto& hook : hooks_->pre) {
    variable_list r = hook(grads);
    if (!r.empty()) grads = std::move(r);
  }
  variable_list inputs_for_post = hooks_->post.empty() ? variable_list() : grads;
  variable_list out = apply(std::move(grads));
  for (auto& hook : hooks_->post) {
    variable_list r = hook(out, inputs_for_post);
    if (!r.empty()) out = std::move(r);
  }
  return out;
}

}  // namespace torch::autograd
