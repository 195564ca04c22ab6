#pragma once
// torchvision.datasets.CIFAR10 and CIFAR100 as torch::data datasets, read
// from the datasets' binary distributions: <root>/cifar-10-batches-bin
// (data_batch_1..5.bin, test_batch.bin, batches.meta.txt) and
// <root>/cifar-100-binary (train.bin, test.bin, fine_label_names.txt). A
// sample is the image as a uint8 Tensor[3, 32, 32] and its int64 label
// (CIFAR-100: the fine label, as torchvision).
#include <optional>
#include <string>
#include <vector>

#include "ember/data/datasets/base.h"
#include "ember/vision/datasets/common.h"

namespace torch::vision::datasets {

class CIFAR10 : public data::datasets::Dataset<CIFAR10> {
 public:
  explicit CIFAR10(const std::string& root, bool train = true, std::optional<Transform> transform = std::nullopt,
                   std::optional<Transform> target_transform = std::nullopt, bool download = false);

  data::Example<> get(size_t index) override;
  std::optional<size_t> size() const override;

  const Tensor& data() const { return data_; }        // uint8 [N, 32, 32, 3] (HWC, as torchvision's array)
  const Tensor& targets() const { return targets_; }  // int64 [N]
  bool train;
  std::vector<std::string> classes;

  // Where a CIFAR distribution keeps its files and how its records start.
  struct Layout {
    const char* name;
    const char* folder;
    std::vector<std::string> train_files, test_files;
    const char* classes_file;
    int64_t label_bytes;  // bytes before the pixels; the label is the last of them
  };

 protected:
  CIFAR10(const std::string& root, const Layout& layout, bool train, std::optional<Transform> transform,
          std::optional<Transform> target_transform, bool download);

 private:
  Tensor data_, targets_;
  std::optional<Transform> transform_, target_transform_;
};

class CIFAR100 : public CIFAR10 {
 public:
  explicit CIFAR100(const std::string& root, bool train = true, std::optional<Transform> transform = std::nullopt,
                    std::optional<Transform> target_transform = std::nullopt, bool download = false);
};

}  // namespace torch::vision::datasets
