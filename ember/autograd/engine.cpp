// Note [Engine]
// A PyTorch-shaped engine, small enough to read in one sitting:
//  1. compute_dependencies: count, for every node reachable from the roots,
//     how many gradients will flow into it.
//  2. A ready queue ordered by sequence number (newest node first; leaves'
//     AccumulateGrad first of all) holds nodes whose gradients are complete.
//  3. evaluate: pre-hooks, apply, post-hooks; then each output gradient is
//     validated against the receiving node's input metadata (sum_to for
//     broadcasts, dtype cast) and added into that node's input buffer, which
//     *is* the sum of its incoming gradients; a node whose count reaches zero
//     becomes ready.
// Everything runs on the calling thread: independent graphs can run backward
// concurrently from different threads, and a backward() called inside a node
// (checkpointing) simply runs a nested engine call on the same thread.
#include "ember/autograd/engine.h"

#include <algorithm>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "ember/autograd/accumulate_grad.h"
#include "ember/autograd/anomaly_mode.h"
#include "ember/autograd/grad_mode.h"
#include "ember/core/fast_thread_local.h"
#include "ember/core/shape.h"
#include "ember/ops/elementwise/elementwise.h"

namespace torch::autograd {

namespace {

// Note [Recycled gradient lists]
// Gradient lists whose storage is reused: each node consumes one list (its
// input buffer) and produces one (its formula's result). The engine takes
// the buffers from here, and while a pass runs on a thread the formulas of
// the unary and binary tables take their result lists from it too
// (recycled_gradient_list), so after the first few nodes neither needs a
// fresh allocation; with the formulas allocating, every node had cost a
// malloc and a free (5 % of bench/SPEC.md W1's backward). Lists are kept with room
// for two gradients, what almost every node needs.
class SpareLists {
 public:
  variable_list take() {
    if (spare_.empty()) return {};
    variable_list v = std::move(spare_.back());
    spare_.pop_back();
    return v;
  }
  void give(variable_list&& v) {
    if (v.capacity() < 2 || spare_.size() >= 64) return;
    v.clear();
    spare_.push_back(std::move(v));
  }

 private:
  std::vector<variable_list> spare_;
};

struct InputBuffer {
  variable_list grads;
  void add(size_t pos, Tensor g, SpareLists& spare) {
    if (grads.capacity() == 0) grads = spare.take();
    if (grads.size() <= pos) grads.resize(pos + 1);
    Tensor& slot = grads[pos];
    if (!slot.defined()) {
      slot = std::move(g);
    } else if (can_accumulate_inplace(slot, g)) {
      ops::accumulate_(slot, g);
    } else {
      slot = slot.add(g);
    }
  }
  // As PyTorch's input buffer: a sum the buffer alone holds (no other tensor
  // shares its memory) is added to in place, saving an allocation per
  // gradient; otherwise, or when the sum itself must be differentiable
  // (create_graph), it is replaced out of place.
  static bool can_accumulate_inplace(const Tensor& slot, const Tensor& g) {
    return !GradMode::is_enabled() && owns_gradient_memory(slot) && slot.dtype() == g.dtype() &&
           slot.sizes().equals(g.sizes());
  }
};

// One execution's state of a node: how many gradients are still to come and
// the sum of those that arrived. Found through the node (or a NodeTable).
struct NodeTask {
  Node* node = nullptr;
  int deps = 0;
  bool claimed = false;  // the node's engine slot points here
  InputBuffer buffer;
};

// Note [Tasks found through the node]
// Every gradient the engine routes needs the receiving node's task. A node
// records, in its EngineSlot, the pass that claimed it and the task's index,
// so the lookup is a load from the node the engine is reading anyway. A pass
// claims a node with a compare-and-swap while counting dependencies; a node
// already claimed by another pass (two threads running backward over a shared
// graph with retain_graph, or a reentrant backward reaching the outer pass's
// nodes) is found instead through an open-addressing hash table keyed by the
// node's address. A claim ends when the node has run (nothing looks it up
// after that) or when the table is cleared, even by an exception.
// (A hash table alone cost about a tenth of bench/SPEC.md W1's backward: 16-byte
// slots over ~128 KiB, one cache miss per probe.)
class NodeTable {
 public:
  NodeTable() : slots_(64) {}
  NodeTable(const NodeTable&) = delete;
  NodeTable& operator=(const NodeTable&) = delete;
  ~NodeTable() { clear(); }

  // The node's task and whether it was just added (valid until the next insert).
  std::pair<NodeTask*, bool> insert(Node* n) {
    // A node this pass holds, claimed or in the table, is found first: one held in the
    // table stays there even if the pass that had claimed it has since run it and let
    // go. Claiming it then would give the node a second task, and its gradients would be
    // split between the two (a shared-graph pass lost half of a leaf's gradient,
    // Engine.ConcurrentBackwardOnASharedGraph).
    if (NodeTask* t = find(n)) return {t, false};
    Node::EngineSlot& slot = n->engine_slot();
    const void* owner = slot.owner.load(std::memory_order_relaxed);
    if (owner == nullptr && slot.owner.compare_exchange_strong(owner, this, std::memory_order_acquire)) {
      slot.task = static_cast<uint32_t>(tasks_.size());
      tasks_.push_back(NodeTask{n, 0, true, {}});
      return {&tasks_.back(), true};
    }
    if (2 * (hashed_ + 1) > slots_.size()) grow();
    slots_[probe(n)] = {n, static_cast<uint32_t>(tasks_.size())};  // an empty slot: find() did not see n
    ++hashed_;
    tasks_.push_back(NodeTask{n, 0, false, {}});
    return {&tasks_.back(), true};
  }
  NodeTask* find(Node* n) {
    const Node::EngineSlot& slot = n->engine_slot();
    if (slot.owner.load(std::memory_order_relaxed) == this) return &tasks_[slot.task];
    if (hashed_ == 0) return nullptr;
    const Slot& s = slots_[probe(n)];
    return s.node == n ? &tasks_[s.index] : nullptr;
  }
  // The task's node has run: no gradient will be routed to it again in this pass.
  static void release(NodeTask& t) {
    if (!t.claimed) return;
    t.node->engine_slot().owner.store(nullptr, std::memory_order_release);
    t.claimed = false;
  }
  // Forgets every node, keeping the memory for the next backward (Note [Engine scratch]).
  void clear() {
    for (NodeTask& t : tasks_) release(t);
    tasks_.clear();
    if (hashed_ != 0) {
      std::fill(slots_.begin(), slots_.end(), Slot{});
      hashed_ = 0;
    }
    if (slots_.size() > kKeepEntries) {
      slots_ = std::vector<Slot>(64);
      shift_ = 64 - 6;
    }
    if (tasks_.capacity() > kKeepEntries) tasks_ = {};
  }

 private:
  struct Slot {
    Node* node = nullptr;
    uint32_t index = 0;
  };
  size_t probe(Node* n) const {
    const size_t mask = slots_.size() - 1;
    // Fibonacci hashing: the product's top bits are the ones every bit of the
    // address feeds into.
    size_t i = (reinterpret_cast<uintptr_t>(n) * 0x9E3779B97F4A7C15ull) >> shift_;
    while (slots_[i].node != nullptr && slots_[i].node != n) i = (i + 1) & mask;
    return i;
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    --shift_;
    for (const Slot& s : old)
      if (s.node != nullptr) slots_[probe(s.node)] = s;
  }
  static constexpr size_t kKeepEntries = size_t{1} << 16;  // tasks or slots kept between passes (~4 MiB)
  std::vector<Slot> slots_;
  int shift_ = 64 - 6;  // 64 - log2(slots_.size())
  size_t hashed_ = 0;   // tasks reached through slots_
  std::vector<NodeTask> tasks_;
};

// Note [Engine scratch]
// A backward over N nodes needs a task list of O(N) bytes; for bench/SPEC.md W1's
// 3000-node chain, with the hash table it had then, ~250 KiB, which malloc
// served from fresh pages each time (one page fault per 4 KiB: a sixth of
// W1's backward). Each thread keeps one scratch (table and spare gradient
// lists) between backward calls; a nested backward (checkpointing) on the same
// thread finds it taken and uses a fresh one.
struct Scratch {
  NodeTable table;
  SpareLists spare;
};

// The spare lists of the pass running on this thread (the innermost one),
// for recycled_gradient_list().
EMBER_INITIAL_EXEC_TLS thread_local SpareLists* t_running_spare = nullptr;  // Note [Fast thread_locals]

class RunningSpareScope {
 public:
  explicit RunningSpareScope(SpareLists& s) : prev_(std::exchange(t_running_spare, &s)) {}
  ~RunningSpareScope() { t_running_spare = prev_; }
  RunningSpareScope(const RunningSpareScope&) = delete;
  RunningSpareScope& operator=(const RunningSpareScope&) = delete;

 private:
  SpareLists* prev_;
};

class ScratchLease {
 public:
  ScratchLease() : s_(std::move(t_idle)) {
    if (!s_) s_ = std::make_unique<Scratch>();
  }
  ~ScratchLease() {
    s_->table.clear();
    if (!t_idle) t_idle = std::move(s_);
  }
  ScratchLease(const ScratchLease&) = delete;
  ScratchLease& operator=(const ScratchLease&) = delete;
  Scratch& operator*() { return *s_; }

 private:
  std::unique_ptr<Scratch> s_;
  static inline thread_local std::unique_ptr<Scratch> t_idle;
};

// Note [Prefetching the next nodes]
// Backward reaches each node long after forward created it: in bench/SPEC.md W1 the
// node (~570 bytes, nine cache lines) has left the caches, and the engine's
// first reads of it (its slot, its input metadata) were a third of the
// engine's own time. The nodes a node sends gradients to are known as soon as
// it is popped, a whole formula before they are read, so the engine asks for
// their lines then.
inline void prefetch_node(const Node* n) {
  const char* p = reinterpret_cast<const char*>(n);
  for (int line = 0; line < 9; ++line) __builtin_prefetch(p + 64 * line);
}

struct ByNewest {
  bool operator()(const NodeTask* a, const NodeTask* b) const {
    return a->node->sequence_nr() < b->node->sequence_nr();
  }
};

// Sums `g` over the dims that broadcasting expanded, giving `shape`.
Tensor sum_to(const Tensor& g, IntArrayRef shape) {
  const int64_t lead = g.dim() - static_cast<int64_t>(shape.size());
  DimVector dims;
  for (int64_t d = 0; d < g.dim(); ++d)
    if (d < lead || (shape[d - lead] == 1 && g.size(d) != 1)) dims.push_back(d);
  Tensor r = dims.empty() ? g : g.sum(dims, /*keepdim=*/true);
  return lead > 0 || !r.sizes().equals(shape) ? r.view(shape) : r;
}

// Reduces a gradient to the shape its receiver expects (undoing broadcasting) and its dtype.
Tensor validate_grad(Tensor g, const Node& fn, const InputMetadata& meta, size_t i) {
  if (meta.dtype == ScalarType::Undefined) return g;
  if (!g.sizes().equals(meta.shape)) {
    DimVector b = broadcast_shapes(meta.shape, g.sizes(), "backward");
    EMBER_CHECK(b.ref().equals(g.sizes()), "backward: function ", fn.name(), " returned an invalid gradient at index ",
                i, " - got ", shape_str(g.sizes()), " but expected shape compatible with ", shape_str(meta.shape));
    g = sum_to(g, meta.shape);
  }
  if (g.dtype() != meta.dtype) g = g.to(meta.dtype);
  return g;
}

// Counts, for every node reachable from `root`, the gradients that will flow into it.
void compute_dependencies(Node* root, NodeTable& table) {
  table.insert(root);
  std::vector<Node*> stack{root};
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    for (const Edge& e : n->next_edges()) {
      if (!e.is_valid()) continue;
      auto [task, added] = table.insert(e.function.get());
      task->deps++;
      if (added) stack.push_back(task->node);
    }
  }
}

// Nodes that lie on a path to one of `targets` (only those run in autograd::grad).
std::unordered_set<Node*> needed_nodes(Node* root, const std::unordered_set<Node*>& targets) {
  // Iterative post-order: a node is needed when it is a target or any child is needed.
  std::unordered_set<Node*> needed, done;
  std::vector<std::pair<Node*, size_t>> stack{{root, 0}};
  std::unordered_set<Node*> on_stack{root};
  while (!stack.empty()) {
    auto& [n, idx] = stack.back();
    if (idx < n->next_edges().size()) {
      const Edge& e = n->next_edges()[idx++];
      Node* f = e.function.get();
      if (f && !done.count(f) && !on_stack.count(f)) {
        stack.emplace_back(f, 0);
        on_stack.insert(f);
      }
      continue;
    }
    bool need = targets.count(n) != 0;
    for (const Edge& e : n->next_edges())
      if (e.function && needed.count(e.function.get())) need = true;
    if (need) needed.insert(n);
    done.insert(n);
    on_stack.erase(n);
    stack.pop_back();
  }
  return needed;
}

}  // namespace

variable_list recycled_gradient_list() {
  variable_list v = t_running_spare != nullptr ? t_running_spare->take() : variable_list();
  v.reserve(2);
  return v;
}

variable_list execute(const edge_list& roots, const variable_list& grads, bool keep_graph, bool create_graph,
                      const edge_list& outputs) {
  EMBER_CHECK(roots.size() == grads.size(), "backward: got ", roots.size(), " roots but ", grads.size(), " gradients");
  AutoGradMode grad_mode(create_graph);
  auto root = std::make_shared<GraphRoot>(roots, grads);
  ScratchLease lease;  // after `root`: the table is cleared while the graph is alive
  NodeTable& table = (*lease).table;
  SpareLists& spare = (*lease).spare;
  RunningSpareScope running_spare(spare);
  compute_dependencies(root.get(), table);

  // For autograd::grad: which (node, input_nr) pairs to capture, and which nodes must run.
  const bool capture_mode = !outputs.empty();
  std::unordered_map<Node*, std::vector<std::pair<uint32_t, size_t>>> captures;
  std::unordered_set<Node*> needed;
  variable_list captured(outputs.size());
  if (capture_mode) {
    std::unordered_set<Node*> targets;
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (!outputs[i].is_valid()) continue;
      captures[outputs[i].function.get()].emplace_back(outputs[i].input_nr, i);
      targets.insert(outputs[i].function.get());
    }
    needed = needed_nodes(root.get(), targets);
  }

  // The graph stays alive through `root` while it runs, so the queue holds plain pointers.
  std::priority_queue<NodeTask*, std::vector<NodeTask*>, ByNewest> ready;
  ready.push(table.find(root.get()));
  const bool anomaly = AnomalyMode::is_enabled();

  while (!ready.empty()) {
    NodeTask* task = ready.top();
    ready.pop();
    Node* fn = task->node;
    for (const Edge& e : fn->next_edges())
      if (e.function) prefetch_node(e.function.get());
    variable_list inputs = std::move(task->buffer.grads);
    if (inputs.size() < fn->num_inputs()) inputs.resize(fn->num_inputs());

    if (capture_mode) {
      if (auto it = captures.find(fn); it != captures.end())
        for (auto [input_nr, out_idx] : it->second)
          if (input_nr < inputs.size()) captured[out_idx] = inputs[input_nr];
      // Only nodes on a path to a captured edge run; the captured nodes
      // themselves (e.g. a leaf's AccumulateGrad) do not, so autograd::grad
      // never touches .grad. Skipped nodes only feed other skipped nodes.
      bool leads_further = fn == root.get();
      for (const Edge& e : fn->next_edges())
        if (e.function && needed.count(e.function.get())) leads_further = true;
      if (!leads_further) continue;
    }

    bool any_defined = false;
    for (const Tensor& g : inputs) any_defined |= g.defined();
    variable_list outs;
    if (any_defined || fn == root.get()) {
      if (anomaly) {
        outs = run_with_anomaly_check(*fn, std::move(inputs));
      } else {
        outs = (*fn)(std::move(inputs));
      }
      if (!keep_graph) fn->release_variables();
    }
    NodeTable::release(*task);
    spare.give(std::move(inputs));  // unless apply took it
    const size_t n_out = fn->num_outputs();
    EMBER_CHECK(outs.empty() || outs.size() == n_out, "backward: function ", fn->name(),
                " returned an incorrect number of gradients (expected ", n_out, ", got ", outs.size(), ")");

    for (size_t i = 0; i < n_out; ++i) {
      const Edge& e = fn->next_edge(i);
      if (!e.is_valid()) continue;
      Node* next = e.function.get();
      NodeTask* next_task = table.find(next);
      EMBER_CHECK(next_task != nullptr, "backward: function ", fn->name(), " gained an edge to ", next->name(),
                  " while the graph was running");
      if (i < outs.size() && outs[i].defined())
        next_task->buffer.add(e.input_nr, validate_grad(std::move(outs[i]), *fn, next->input_metadata(e.input_nr), i),
                              spare);
      if (--next_task->deps == 0) ready.push(next_task);
    }
    spare.give(std::move(outs));
  }
  return captured;
}

}  // namespace torch::autograd
