#include "ember/nn/modules/container/functional.h"

namespace torch::nn {

FunctionalImpl::FunctionalImpl(Function function) : function_(std::move(function)) {
  EMBER_CHECK(static_cast<bool>(function_), "Functional: the function must not be empty");
}

Tensor FunctionalImpl::forward(Tensor input) { return function_(std::move(input)); }

}  // namespace torch::nn
