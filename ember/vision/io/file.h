#pragma once
// torchvision.io.read_file / write_file: a file's bytes as a 1-D uint8 tensor and back.
#include <string>

#include "ember/core/tensor.h"

namespace torch::vision::io {

// The whole file as a 1-D uint8 tensor (empty for an empty file).
Tensor read_file(const std::string& path);

// Writes the bytes of a 1-D uint8 tensor to `filename`, replacing the file.
void write_file(const std::string& filename, const Tensor& data);

}  // namespace torch::vision::io
