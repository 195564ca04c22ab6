#pragma once
// torchvision's C++ spellings for ember::vision (DOMAIN_API.md): torchvision::
// and torchvision's own vision:: name the same namespace as ember::vision.
#include <ember/vision.h>

namespace torchvision = ::torch::vision;
namespace vision = ::torch::vision;
