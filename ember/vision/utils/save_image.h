#pragma once
// torchvision.utils.save_image: make_grid's picture of a batch (or one image),
// scaled from [0, 1] to uint8 as torchvision rounds it, written as PNG or JPEG.
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "ember/core/tensor.h"

namespace torch::vision::utils {

// format: "png" or "jpeg"/"jpg"; by default the file name's extension picks it
// (PIL's rule). The remaining parameters are make_grid's keywords.
void save_image(const Tensor& tensor, const std::string& fp, const std::optional<std::string>& format = std::nullopt,
                int64_t nrow = 8, int64_t padding = 2, bool normalize = false,
                std::optional<std::tuple<double, double>> value_range = std::nullopt, bool scale_each = false,
                double pad_value = 0.0);
void save_image(const std::vector<Tensor>& tensors, const std::string& fp,
                const std::optional<std::string>& format = std::nullopt, int64_t nrow = 8, int64_t padding = 2,
                bool normalize = false, std::optional<std::tuple<double, double>> value_range = std::nullopt,
                bool scale_each = false, double pad_value = 0.0);

}  // namespace torch::vision::utils
