#pragma once
// torchvision.datasets.MNIST, FashionMNIST, KMNIST and EMNIST as torch::data
// datasets: the IDX files under <root>/<ClassName>/raw (torchvision's layout;
// plain or gzipped), read with the core's IDX reader. A sample is the image
// as a uint8 Tensor[1, 28, 28] (what torchvision's PIL image becomes under
// PILToTensor) and its int64 class index.
#include <optional>
#include <string>
#include <vector>

#include "ember/data/datasets/base.h"
#include "ember/vision/datasets/common.h"

namespace torch::vision::datasets {

class MNIST : public data::datasets::Dataset<MNIST> {
 public:
  explicit MNIST(const std::string& root, bool train = true, std::optional<Transform> transform = std::nullopt,
                 std::optional<Transform> target_transform = std::nullopt, bool download = false);

  data::Example<> get(size_t index) override;
  std::optional<size_t> size() const override;

  const Tensor& data() const { return data_; }        // uint8 [N, 28, 28]
  const Tensor& targets() const { return targets_; }  // int64 [N]
  bool train;
  std::vector<std::string> classes;

 protected:
  // name: the folder under root; prefix: the files' prefix for this split
  // ("train" / "t10k", or EMNIST's "emnist-<split>-train").
  MNIST(const std::string& root, const std::string& name, const std::string& prefix, bool train,
        std::optional<Transform> transform, std::optional<Transform> target_transform, bool download,
        std::vector<std::string> classes);

 private:
  Tensor data_, targets_;
  std::optional<Transform> transform_, target_transform_;
};

class FashionMNIST : public MNIST {
 public:
  explicit FashionMNIST(const std::string& root, bool train = true, std::optional<Transform> transform = std::nullopt,
                        std::optional<Transform> target_transform = std::nullopt, bool download = false);
};

class KMNIST : public MNIST {
 public:
  explicit KMNIST(const std::string& root, bool train = true, std::optional<Transform> transform = std::nullopt,
                  std::optional<Transform> target_transform = std::nullopt, bool download = false);
};

// split: "byclass", "bymerge", "balanced", "letters", "digits" or "mnist".
class EMNIST : public MNIST {
 public:
  EMNIST(const std::string& root, const std::string& split, bool train = true,
         std::optional<Transform> transform = std::nullopt, std::optional<Transform> target_transform = std::nullopt,
         bool download = false);
  std::string split;
};

}  // namespace torch::vision::datasets
