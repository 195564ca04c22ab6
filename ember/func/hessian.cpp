#include "ember/func/hessian.h"

#include <utility>

#include "ember/func/jacfwd.h"
#include "ember/func/jacrev.h"

namespace ember::func {

Function hessian(Function f, std::vector<int64_t> argnums) {
  // Forward over reverse, as torch.func: jacfwd's tangents ride through
  // jacrev's backward pass (its formulas see the saved tensors' tangents).
  return jacfwd(jacrev(std::move(f), argnums), argnums);
}

std::function<Tensor(const Tensor&)> hessian(std::function<Tensor(const Tensor&)> f) {
  Function h = hessian([f = std::move(f)](const std::vector<Tensor>& a) { return std::vector<Tensor>{f(a[0])}; });
  return [h = std::move(h)](const Tensor& x) { return h({x})[0]; };
}

}  // namespace ember::func
