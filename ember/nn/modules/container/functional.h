#pragma once
// Functional: wraps a Tensor -> Tensor callable as a module, so free functions
// can sit in a Sequential, as torch::nn::Functional:
//   Functional(torch::relu)                      // a function
//   Functional(torch::leaky_relu, 0.2)           // with extra arguments bound after the input
//   Functional([](Tensor x) { return x * 2; })   // a lambda
#include <functional>
#include <ostream>
#include <type_traits>
#include <utility>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

class FunctionalImpl : public Cloneable<FunctionalImpl> {
 public:
  using Function = std::function<Tensor(Tensor)>;

  // Taking a std::function (not a template) lets the name of a function be
  // passed directly: Functional(torch::relu).
  explicit FunctionalImpl(Function function);
  // Binds `args` after the input: f(input, args...).
  template <typename SomeFunction, typename... Args, typename = std::enable_if_t<(sizeof...(Args) > 0)>>
  explicit FunctionalImpl(SomeFunction original_function, Args&&... args)
      : FunctionalImpl(Function(std::bind(original_function, std::placeholders::_1, std::forward<Args>(args)...))) {}

  void reset() override {}
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::Functional()"; }
  Tensor forward(Tensor input);
  Tensor operator()(Tensor input) { return forward(std::move(input)); }
  // The callable cannot be saved.
  bool is_serializable() const override { return false; }

 private:
  Function function_;
};
EMBER_NN_MODULE(Functional);

}  // namespace torch::nn
