#include "ember/autograd/checkpoint.h"

#include "ember/autograd/forward_ad.h"

#include <random>

#include "ember/autograd/autograd_meta.h"
#include "ember/autograd/backward.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/saved_variable.h"
#include "ember/ops/factory/generator_engine.h"

namespace torch::autograd {

namespace {

CpuEngine rng_state() {
  return default_generator().with_engine([](CpuEngine& e) { return e; });
}
void set_rng_state(const CpuEngine& s) {
  default_generator().with_engine([&](CpuEngine& e) { e = s; });
}

// Note [Reentrant checkpoint].
class CheckpointBackward : public Node {
 public:
  CheckpointBackward(CheckpointFn fn, const variable_list& inputs, bool preserve_rng)
      : fn_(std::move(fn)), preserve_rng_(preserve_rng) {
    if (preserve_rng_) rng_ = rng_state();
    edge_list edges;
    for (const Tensor& t : inputs) {
      edges.push_back(t.defined() ? gradient_edge(t) : Edge());
      saved_.emplace_back(t, /*is_output=*/false);
      requires_grad_.push_back(t.defined() && t.requires_grad());
    }
    set_next_edges(std::move(edges));
  }

  std::string name() const override { return "CheckpointFunctionBackward"; }
  void release_variables() override {
    for (SavedVariable& s : saved_) s.reset();
  }

  variable_list apply(variable_list&& grads) override {
    // Fresh leaves holding the inputs' values: the recomputed graph ends there.
    variable_list leaves;
    for (size_t i = 0; i < saved_.size(); ++i) {
      Tensor t = saved_[i].unpack(this);
      if (t.defined()) {
        t = t.detach();
        if (requires_grad_[i]) t.requires_grad_(true);
      }
      leaves.push_back(std::move(t));
    }
    variable_list outs;
    {
      CpuEngine outer;
      if (preserve_rng_) {
        outer = rng_state();
        set_rng_state(rng_);
      }
      struct Restore {
        bool on;
        const CpuEngine& s;
        ~Restore() {
          if (on) set_rng_state(s);
        }
      } restore{preserve_rng_, outer};
      EnableGradGuard grad_on;
      outs = fn_(leaves);
    }
    EMBER_CHECK(outs.size() == grads.size(), name(), ": the recomputed forward returned ", outs.size(),
                " outputs, the original returned ", grads.size());
    variable_list roots, root_grads;
    for (size_t i = 0; i < outs.size(); ++i) {
      if (!grads[i].defined() || !outs[i].defined() || !outs[i].requires_grad()) continue;
      roots.push_back(outs[i]);
      root_grads.push_back(grads[i]);
    }
    if (!roots.empty()) {
      EnableGradGuard grad_on;  // the reentrant backward records nothing: create_graph=false
      backward(roots, root_grads, /*retain_graph=*/false, /*create_graph=*/false);
    }
    variable_list result(leaves.size());
    for (size_t i = 0; i < leaves.size(); ++i)
      if (requires_grad_[i] && should_compute_output(i)) result[i] = leaves[i].grad();
    return result;
  }

 private:
  CheckpointFn fn_;
  bool preserve_rng_;
  CpuEngine rng_;
  std::vector<SavedVariable> saved_;
  std::vector<bool> requires_grad_;
};

}  // namespace

variable_list checkpoint(const CheckpointFn& fn, const variable_list& inputs, bool preserve_rng_state) {
  bool any = false;
  for (const Tensor& t : inputs) any = any || (t.defined() && t.requires_grad());
  if (!GradMode::is_enabled() || !any) return fn(inputs);
  std::shared_ptr<CheckpointBackward> node;
  // The node captures the generator state before fn draws from it.
  node = std::make_shared<CheckpointBackward>(fn, inputs, preserve_rng_state);
  variable_list outs;
  {
    NoGradGuard no_grad;
    outs = fn(inputs);
  }
  for (Tensor& out : outs) {
    if (!out.defined()) {
      node->add_input_metadata_undefined();
      continue;
    }
    const Tensor tangent = forward_ad::fw_grad(out);  // forward mode went through fn's own ops
    out = out.detach();                               // a fresh alias: an output may be (a view of) an input
    if (tangent.defined()) forward_ad::set_fw_grad(out, tangent);
    if (out.is_floating_point() || out.is_complex())
      set_history(out, node);
    else
      node->add_input_metadata_undefined();
  }
  return outs;
}

Tensor checkpoint(const std::function<Tensor(const variable_list&)>& fn, const variable_list& inputs,
                  bool preserve_rng_state) {
  return checkpoint([fn](const variable_list& in) { return variable_list{fn(in)}; }, inputs, preserve_rng_state)[0];
}

}  // namespace torch::autograd
