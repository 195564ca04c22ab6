#include "ember/func/basis.h"

#include "ember/autograd/forward_ad.h"
#include "ember/func/transform_util.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/view.h"

namespace torch::func::detail {

StandardBasis::StandardBasis(const std::vector<Tensor>& tensors) {
  for (const Tensor& t : tensors) {
    offsets.push_back(total);
    numels.push_back(t.numel());
    total += t.numel();
  }
  // Plain tensors, shared by every sample of the enclosing vmaps.
  autograd::BelowAutogradGuard plain;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const TensorOptions opts = TensorOptions().dtype(tensors[i].scalar_type());
    Tensor v = zeros({total, numels[i]}, opts);
    if (numels[i] > 0) v.narrow(0, offsets[i], numels[i]).copy_(eye(numels[i], opts));
    vectors.push_back(v.view(concat_shape({total}, tensors[i].sizes())));
  }
}

}  // namespace torch::func::detail
