#pragma once
// Node: one backward function in the graph, and Edge: where a gradient goes.
// Note [Backward graph]
// Forward ops with an input that requires grad create a Node; its next_edges
// point at the nodes of its inputs (their grad_fn, or the AccumulateGrad of a
// leaf). A Node's "inputs" in backward are the gradients of its forward
// outputs; input_metadata_ records their shapes/dtypes so the engine can
// validate and reduce (sum_to) incoming gradients in one place. Sequence
// numbers grow with creation, so the engine runs newer nodes first.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ember/core/inline_vector.h"
#include "ember/core/tensor.h"

namespace torch::autograd {

using Variable = Tensor;
using variable_list = std::vector<Tensor>;
using tensor_list = std::vector<Tensor>;
class Node;

struct Edge {
  Edge() = default;
  Edge(std::shared_ptr<Node> f, uint32_t nr) : function(std::move(f)), input_nr(nr) {}
  bool is_valid() const { return function != nullptr; }
  std::shared_ptr<Node> function;
  uint32_t input_nr = 0;
};
// Most nodes have one or two inputs: their edges live inside the node.
using edge_list = InlineVector<Edge, 2>;

struct InputMetadata {
  DimVector shape;
  ScalarType dtype = kFloat;
};

uint64_t next_sequence_nr();

class Node : public std::enable_shared_from_this<Node> {
 public:
  explicit Node(uint64_t sequence_nr = next_sequence_nr()) : sequence_nr_(sequence_nr) {}
  virtual ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  // Computes gradients for next_edges() from gradients of this node's outputs.
  // An undefined gradient means zero.
  virtual variable_list apply(variable_list&& grads) = 0;
  virtual std::string name() const = 0;
  // Frees saved tensors once backward no longer needs them (retain_graph=false).
  virtual void release_variables() {}

  variable_list operator()(variable_list&& grads);  // runs hooks around apply

  uint64_t sequence_nr() const { return sequence_nr_; }
  const edge_list& next_edges() const { return next_edges_; }
  const Edge& next_edge(size_t i) const { return next_edges_[i]; }
  size_t num_outputs() const { return next_edges_.size(); }
  void set_next_edges(edge_list e) { next_edges_ = std::move(e); }
  void add_next_edge(Edge e) { next_edges_.push_back(std::move(e)); }
  void set_next_edge(size_t i, Edge e) { next_edges_.at(i) = std::move(e); }
  // Whether the gradient for forward input i is needed at all.
  bool should_compute_output(size_t i) const { return i < next_edges_.size() && next_edges_[i].is_valid(); }

  uint32_t add_input_metadata(const Tensor& t);
  uint32_t add_input_metadata_undefined();
  size_t num_inputs() const { return input_metadata_.size(); }
  const InputMetadata& input_metadata(size_t i) const { return input_metadata_[i]; }

  using PreHook = std::function<variable_list(const variable_list& grads)>;
  using PostHook = std::function<variable_list(const variable_list& outputs, const variable_list& grads)>;
  void add_pre_hook(PreHook h) { hooks().pre.push_back(std::move(h)); }
  void add_post_hook(PostHook h) { hooks().post.push_back(std::move(h)); }
  // Hooks run on the gradient of one output (tensor.register_hook on a non-leaf).
  void add_tensor_pre_hook(uint32_t output_nr, std::function<Tensor(const Tensor&)> h);
  // retain_grad(): copies the gradient of one output into that tensor's .grad.
  void add_retain_grad_hook(uint32_t output_nr, std::function<void(const Tensor&)> h);
  // The tensor that was output `output_nr` now has another grad_fn (an in-place op).
  void remove_retain_grad_hook(uint32_t output_nr);

  // Where the engine keeps this node's task while one backward pass runs
  // (Note [Tasks found through the node], engine.cpp).
  struct EngineSlot {
    std::atomic<const void*> owner{nullptr};  // the pass that claimed the node, or null
    uint32_t task = 0;                        // the task's index in that pass's list
  };
  EngineSlot& engine_slot() { return engine_slot_; }

 private:
  // Few nodes have hooks: they live in a side table made on first use, so
  // the common node neither builds nor destroys four empty vectors.
  struct Hooks {
    std::vector<PreHook> pre;
    std::vector<PostHook> post;
    std::vector<std::pair<uint32_t, std::function<Tensor(const Tensor&)>>> tensor_pre;
    std::vector<std::pair<uint32_t, std::function<void(const Tensor&)>>> retain_grad;
  };
  Hooks& hooks() {
    if (!hooks_) hooks_ = std::make_unique<Hooks>();
    return *hooks_;
  }

  // Hot fields first: the engine reads the sequence number, slot and edges of every node.
  uint64_t sequence_nr_;
  EngineSlot engine_slot_;
  edge_list next_edges_;
  InlineVector<InputMetadata, 1> input_metadata_;  // one per forward output; almost always one
  std::unique_ptr<Hooks> hooks_;

 public:
  // Anomaly mode: the stack (or description) of where the forward op ran.
  std::string creation_trace;
};

// The engine's entry node: returns the root gradients along its edges.
class GraphRoot : public Node {
 public:
  GraphRoot(edge_list roots, variable_list grads) : Node(UINT64_MAX), grads_(std::move(grads)) {
    set_next_edges(std::move(roots));
  }
  variable_list apply(variable_list&&) override { return grads_; }
  std::string name() const override { return "GraphRoot"; }

 private:
  variable_list grads_;
};

}  // namespace torch::autograd
