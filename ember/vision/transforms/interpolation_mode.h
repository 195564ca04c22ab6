#pragma once
// torchvision.transforms.InterpolationMode. The tensor path supports NEAREST,
// NEAREST_EXACT, BILINEAR and BICUBIC; BOX, HAMMING and LANCZOS exist for PIL
// only in torchvision, so Ember's tensor functions reject them by name.
#include <string_view>

namespace torch::vision::transforms {

enum class InterpolationMode { NEAREST, NEAREST_EXACT, BILINEAR, BICUBIC, BOX, HAMMING, LANCZOS };

// Python's InterpolationMode.value ("nearest", "nearest-exact", ...).
std::string_view interpolation_mode_name(InterpolationMode mode);

}  // namespace torch::vision::transforms
