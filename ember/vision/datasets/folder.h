#pragma once
// torchvision.datasets.DatasetFolder and ImageFolder as torch::data
// datasets: root/<class>/**/<file>, classes sorted by name, files in sorted
// walk order, each sample the loader's tensor and its int64 class index.
// The loader is torchvision's parameter: default_loader decodes the file
// with ember::vision::io::read_image in RGB (torchvision's PIL loader
// converts to RGB), giving a uint8 [3, H, W] tensor.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "ember/data/datasets/base.h"
#include "ember/vision/datasets/common.h"

namespace torch::vision::datasets {

using Loader = std::function<Tensor(const std::string&)>;
using IsValidFile = std::function<bool(const std::string&)>;

// torchvision.datasets.folder.default_loader: the image at path as uint8 [3, H, W] (RGB).
Tensor default_loader(const std::string& path);

// torchvision's IMG_EXTENSIONS.
const std::vector<std::string>& IMG_EXTENSIONS();

// Whether filename ends with one of extensions (case-insensitive).
bool has_file_allowed_extension(const std::string& filename, const std::vector<std::string>& extensions);
bool is_image_file(const std::string& filename);

// The sorted class folder names under directory and their indices.
std::tuple<std::vector<std::string>, std::map<std::string, int64_t>> find_classes(const std::string& directory);

// (path, class index) for every valid file; exactly one of extensions and
// is_valid_file must be given.
std::vector<std::pair<std::string, int64_t>> make_dataset(
    const std::string& directory, const std::optional<std::map<std::string, int64_t>>& class_to_idx = std::nullopt,
    const std::optional<std::vector<std::string>>& extensions = std::nullopt,
    const std::optional<IsValidFile>& is_valid_file = std::nullopt);

class DatasetFolder : public data::datasets::Dataset<DatasetFolder> {
 public:
  DatasetFolder(const std::string& root, Loader loader,
                const std::optional<std::vector<std::string>>& extensions = std::nullopt,
                std::optional<Transform> transform = std::nullopt,
                std::optional<Transform> target_transform = std::nullopt,
                const std::optional<IsValidFile>& is_valid_file = std::nullopt);

  data::Example<> get(size_t index) override;
  std::optional<size_t> size() const override;

  std::string root;
  std::vector<std::string> classes;
  std::map<std::string, int64_t> class_to_idx;
  std::vector<std::pair<std::string, int64_t>> samples;
  std::vector<int64_t> targets;

 private:
  Loader loader_;
  std::optional<Transform> transform_, target_transform_;
};

// A DatasetFolder of the image extensions, with Python's parameter order.
class ImageFolder : public DatasetFolder {
 public:
  explicit ImageFolder(const std::string& root, std::optional<Transform> transform = std::nullopt,
                       std::optional<Transform> target_transform = std::nullopt, Loader loader = default_loader,
                       const std::optional<IsValidFile>& is_valid_file = std::nullopt);
};

}  // namespace torch::vision::datasets
