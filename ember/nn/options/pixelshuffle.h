#pragma once
// Options of PixelShuffle / PixelUnshuffle, as torch/nn/options/pixelshuffle.h.
#include <cstdint>

#include "ember/core/arg.h"

namespace torch::nn {

struct PixelShuffleOptions {
  /* implicit */ PixelShuffleOptions(int64_t upscale_factor) : upscale_factor_(upscale_factor) {}  // NOLINT
  TORCH_ARG(int64_t, upscale_factor);
};

struct PixelUnshuffleOptions {
  /* implicit */ PixelUnshuffleOptions(int64_t downscale_factor) : downscale_factor_(downscale_factor) {}  // NOLINT
  TORCH_ARG(int64_t, downscale_factor);
};

namespace functional {
using PixelShuffleFuncOptions = PixelShuffleOptions;
using PixelUnshuffleFuncOptions = PixelUnshuffleOptions;
}  // namespace functional

}  // namespace torch::nn
