#include "ember/vision/models/detection/model_utils.h"

#include "ember/vision/ops/misc.h"

namespace torch::vision::models::detection::_utils {

void overwrite_eps(nn::Module& model, double eps) {
  for (const auto& m : model.modules())
    if (auto* bn = dynamic_cast<ops::FrozenBatchNorm2dImpl*>(m.get())) bn->options.eps(eps);
}

}  // namespace torch::vision::models::detection::_utils
