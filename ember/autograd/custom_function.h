#pragma once
// Custom autograd functions, as LibTorch's torch::autograd::Function<T>:
//   struct MyFn : Function<MyFn> {
//     static Tensor forward(AutogradContext* ctx, Tensor x, double k) { ... }
//     static variable_list backward(AutogradContext* ctx, variable_list grads) { ... }
//   };
//   Tensor y = MyFn::apply(x, 2.0);
// backward returns one gradient per forward argument (undefined for
// non-tensor arguments and for inputs that need none).
#include <cxxabi.h>

#include <memory>
#include <string>
#include <typeinfo>
#include <unordered_map>
#include <unordered_set>

#include "ember/autograd/autograd_meta.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/saved_variable.h"
#include "ember/core/ivalue.h"
#include "ember/ops/factory/factory.h"

namespace torch::autograd {

class AutogradContext {
 public:
  std::unordered_map<std::string, IValue> saved_data;

  void save_for_backward(variable_list to_save) { to_save_ = std::move(to_save); }
  variable_list get_saved_variables() const;
  void mark_dirty(const variable_list& inputs);
  void mark_non_differentiable(const variable_list& outputs);
  void set_materialize_grads(bool value) { materialize_grads_ = value; }
  // Whether forward argument `i`'s gradient is needed (false for non-tensors).
  bool needs_input_grad(size_t i) const;

 private:
  template <class T>
  friend struct Function;
  template <class T>
  friend class CppNode;
  friend void wrap_outputs(const std::shared_ptr<Node>& node, AutogradContext& ctx, const variable_list& inputs,
                           variable_list& outputs, bool is_executable);
  void save_variables(const variable_list& outputs);

  variable_list to_save_;
  std::vector<SavedVariable> saved_;
  std::unordered_set<const TensorImpl*> dirty_, non_differentiable_;
  std::vector<bool> needs_input_grad_;
  std::weak_ptr<Node> node_;
  bool materialize_grads_ = true;
  bool has_freed_buffers_ = false;
};

std::string demangle_type_name(const char* mangled);

// The node a custom Function records.
template <class T>
class CppNode : public Node {
 public:
  variable_list apply(variable_list&& grads) override {
    if (ctx_.materialize_grads_)
      for (size_t i = 0; i < grads.size(); ++i)
        if (!grads[i].defined() && input_metadata(i).dtype != ScalarType::Undefined)
          grads[i] = zeros(input_metadata(i).shape, TensorOptions(input_metadata(i).dtype));
    variable_list out = T::backward(&ctx_, std::move(grads));
    const size_t num_args = is_tensor_arg_.size();
    // Extra gradients are allowed only when undefined, as LibTorch's CppNode.
    if (out.size() > num_args) {
      bool all_undefined = true;
      for (size_t i = num_args; i < out.size(); ++i) all_undefined &= !out[i].defined();
      if (all_undefined) out.resize(num_args);
    }
    EMBER_CHECK(out.size() == num_args, "function ", name(), " returned an incorrect number of gradients (expected ",
                num_args, ", got ", out.size(), ")");
    variable_list result;
    for (size_t i = 0; i < num_args; ++i) {
      if (!is_tensor_arg_[i]) {
        EMBER_CHECK(!out[i].defined(), "function ", name(),
                    " returned a gradient different that is defined at position ", i + 1,
                    ", but the corresponding forward input was not a Variable");
        continue;
      }
      result.push_back(out[i]);
    }
    return result;
  }
  // LibTorch's name for the node, so `grad_fn()->name()` prints the same.
  std::string name() const override { return "torch::autograd::CppNode<" + demangle_type_name(typeid(T).name()) + ">"; }
  void release_variables() override {
    ctx_.saved_.clear();
    ctx_.has_freed_buffers_ = true;
  }

  AutogradContext ctx_;
  std::vector<bool> is_tensor_arg_;
};

namespace detail {
template <typename A>
void collect_arg(std::vector<bool>& is_tensor, variable_list& tensors, A&& a) {
  if constexpr (std::is_same_v<std::decay_t<A>, Tensor>) {
    is_tensor.push_back(true);
    tensors.push_back(a);
  } else {
    is_tensor.push_back(false);
  }
}
inline variable_list to_list(const Tensor& t) { return {t}; }
inline variable_list to_list(const variable_list& v) { return v; }
}  // namespace detail

// Raises when an input carries a forward-mode tangent: custom Functions have
// no JVP, as in LibTorch (whose C++ Function raises the same way).
void check_no_tangents(const variable_list& inputs);

// Wires outputs of a custom function into the graph (shared by every Function<T>).
void wrap_outputs(const std::shared_ptr<Node>& node, AutogradContext& ctx, const variable_list& inputs,
                  variable_list& outputs, bool is_executable);

template <class T>
struct Function {
  template <typename X = T, typename... Args>
  static auto apply(Args&&... args) {
    auto node = std::make_shared<CppNode<X>>();
    variable_list inputs;
    (detail::collect_arg(node->is_tensor_arg_, inputs, args), ...);
    check_no_tangents(inputs);
    bool needs_grad = false;
    if (GradMode::is_enabled())
      for (const Tensor& t : inputs) needs_grad |= t.defined() && t.requires_grad();
    size_t k = 0;
    for (size_t i = 0; i < node->is_tensor_arg_.size(); ++i) {
      bool need = false;
      if (node->is_tensor_arg_[i]) {
        const Tensor& t = inputs[k++];
        need = needs_grad && t.defined() && t.requires_grad();
        if (needs_grad) node->add_next_edge(t.defined() ? gradient_edge(t) : Edge());
      }
      node->ctx_.needs_input_grad_.push_back(need);
    }
    node->ctx_.node_ = node;
    using Out = decltype(X::forward(&node->ctx_, std::forward<Args>(args)...));
    Out out = [&] {
      AutoGradMode no_grad(false);
      return X::forward(&node->ctx_, std::forward<Args>(args)...);
    }();
    variable_list outputs = detail::to_list(out);
    wrap_outputs(node, node->ctx_, inputs, outputs, needs_grad);
    if constexpr (std::is_same_v<Out, Tensor>) {
      return outputs[0];
    } else {
      return outputs;
    }
  }
};

}  // namespace torch::autograd
