#include "ember/func/hessian.h"
#include "ember/func/transform_util.h"

#include <utility>

#include "ember/func/jacfwd.h"
#include "ember/func/jacrev.h"

namespace torch::func {

Function hessian(Function f, std::vector<int64_t> argnums) {
  // Forward over reverse, as torch.func: jacfwd's tangents ride through
  // jacrev's backward pass (its formulas see the saved tensors' tangents).
  return jacfwd(jacrev(std::move(f), argnums), argnums);
}

std::function<Tensor(const Tensor&)> hessian(std::function<Tensor(const Tensor&)> f) {
  return detail::one_tensor_form(std::move(f), [](Function h) { return hessian(std::move(h)); });
}

}  // namespace torch::func
