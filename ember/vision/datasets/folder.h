#pragma once
// torchvision.datasets.DatasetFolder and ImageFolder as torch::data
// datasets: root/<class>/**/<file>, classes sorted by name, files in sorted
// walk order, each sample the loader's tensor and its int64 class index.
// The loader is a parameter: ImageFolder's default (torchvision's PIL
// loader) corresponds to ember::vision::io::read_image, which the io part
// provides; pass it (or any std::function<Tensor(const std::string&)>).
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

// A DatasetFolder of the image extensions; loader comes before the
// transforms here because Ember has no default image loader in this part.
class ImageFolder : public DatasetFolder {
 public:
  ImageFolder(const std::string& root, Loader loader, std::optional<Transform> transform = std::nullopt,
              std::optional<Transform> target_transform = std::nullopt,
              const std::optional<IsValidFile>& is_valid_file = std::nullopt);
};

}  // namespace torch::vision::datasets
