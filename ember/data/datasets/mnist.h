#pragma once
// MNIST: the MNIST (or Fashion-MNIST) IDX files under a root directory.
// Images are float32 (N, 1, 28, 28) scaled to [0, 1]; targets are int64 (N).
// Each file may also be gzipped (name + ".gz").
#include <cstddef>
#include <optional>
#include <string>

#include "ember/data/datasets/base.h"

namespace torch::data::datasets {

class MNIST : public Dataset<MNIST> {
 public:
  enum class Mode { kTrain, kTest };

  // Reads train-{images-idx3,labels-idx1}-ubyte (60000 examples) or
  // t10k-... (10000 examples). Raises ember::Error for a missing, truncated
  // or malformed file.
  explicit MNIST(const std::string& root, Mode mode = Mode::kTrain);

  Example<> get(size_t index) override;
  std::optional<size_t> size() const override;

  bool is_train() const noexcept;
  const Tensor& images() const { return images_; }
  const Tensor& targets() const { return targets_; }

 private:
  Tensor images_, targets_;
};

namespace detail {
// Reads one IDX file of unsigned bytes (plain or gzipped at `path`),
// checking its header against magic and the expected dimensions; returns a
// uint8 tensor of those dimensions.
Tensor read_idx_ubyte(const std::string& path, uint32_t magic, IntArrayRef expected_dims);
}  // namespace detail

}  // namespace torch::data::datasets
