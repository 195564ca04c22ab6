#include "ember/nn/modules/distance.h"

namespace torch::nn {

void CosineSimilarityImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::CosineSimilarity(dim=" << options.dim() << ", eps=" << options.eps() << ")";
}

void PairwiseDistanceImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::PairwiseDistance(p=" << options.p() << ", eps=" << options.eps()
         << ", keepdim=" << options.keepdim() << ")";
}

}  // namespace torch::nn
