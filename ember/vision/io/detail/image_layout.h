#pragma once
// Helpers the image codecs share: checks on encoded-byte tensors, the size
// limits that keep a lying header from sizing an allocation, and the
// interleaved <-> planar copies between codec rows (HWC) and tensors (CHW).
#include <cstddef>
#include <cstdint>

#include "ember/core/tensor.h"

namespace torch::vision::io::detail {

// No decoder allocates an image of more pixels than this (16384 x 16384), whatever its
// header claims; PIL's decompression-bomb guard has the same order of magnitude.
constexpr int64_t kMaxImagePixels = int64_t{1} << 28;

// Raises unless `data` is a non-empty 1-D contiguous uint8 CPU tensor; `op` names the caller.
void check_encoded_data(const Tensor& data, const char* op);

// Raises when width x height exceeds kMaxImagePixels or either is zero.
void check_image_size(int64_t width, int64_t height, const char* op);

// Raises unless `image` is a uint8 [C, H, W] tensor with C in {1, 3}; returns it contiguous.
Tensor check_encoder_input(const Tensor& image, const char* op);

// Copies `rows` rows of `width` interleaved pixels with `channels` channels into the planes of a
// [channels, height, width] image starting at row `row0`; plane_size is height * width.
void deinterleave_rows(const uint8_t* src, uint8_t* dst, int64_t row0, int64_t rows, int64_t width, int64_t channels,
                       int64_t plane_size);

// The [C, H, W] tensor of an interleaved [H, W, C] buffer (parallel over rows).
Tensor hwc_to_chw(const uint8_t* src, int64_t height, int64_t width, int64_t channels);

// The interleaved [H, W, C] bytes of a contiguous [C, H, W] uint8 image.
void chw_to_hwc(const uint8_t* src, uint8_t* dst, int64_t height, int64_t width, int64_t channels);

}  // namespace torch::vision::io::detail
