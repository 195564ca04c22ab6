#pragma once
// The 1000 ImageNet-1K class names, in the order of the classifiers' outputs
// (torchvision.models._meta._IMAGENET_CATEGORIES).
#include <string>
#include <vector>

namespace torch::vision::models {

const std::vector<std::string>& imagenet_categories();

}  // namespace torch::vision::models
