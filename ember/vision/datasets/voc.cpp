#include "ember/vision/datasets/voc.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <tuple>
#include <utility>

#include "ember/vision/io/image.h"

namespace torch::vision::datasets {

namespace fs = std::filesystem;

Tensor default_mask_loader(const std::string& path) { return io::read_image(path, io::ImageReadMode::UNCHANGED); }

namespace {

// _VOCBase's checks and file lists: (image paths, target paths) of the split.
std::pair<std::vector<std::string>, std::vector<std::string>> voc_split(const char* op, const std::string& root,
                                                                        const std::string& year,
                                                                        const std::string& image_set, bool download,
                                                                        const char* splits_dir, const char* target_dir,
                                                                        const char* target_ext) {
  detail::refuse_download(op, download);
  const std::vector<std::string> years{"2007", "2008", "2009", "2010", "2011", "2012"};
  EMBER_CHECK(std::find(years.begin(), years.end(), year) != years.end(), op, ": Unknown value '", year,
              "' for argument year. Valid values are {'2007', '2008', '2009', '2010', '2011', '2012'}.");
  std::vector<std::string> sets{"train", "trainval", "val"};
  if (year == "2007") sets.push_back("test");
  EMBER_CHECK(std::find(sets.begin(), sets.end(), image_set) != sets.end(), op, ": Unknown value '", image_set,
              "' for argument image_set.");
  const fs::path voc_root = fs::path(root) / (year == "2011" ? fs::path("TrainVal") / "VOCdevkit" / "VOC2011"
                                                             : fs::path("VOCdevkit") / ("VOC" + year));
  std::error_code ec;
  EMBER_CHECK(fs::is_directory(voc_root, ec), op, ": Dataset not found or corrupted at ", voc_root.string());
  const fs::path split = voc_root / "ImageSets" / splits_dir / (image_set + ".txt");
  std::ifstream f(split);
  EMBER_CHECK(f, op, ": cannot open ", split.string());
  std::vector<std::string> images, targets;
  std::string line;
  while (std::getline(f, line)) {
    const auto b = line.find_first_not_of(" \t\r\n"), e = line.find_last_not_of(" \t\r\n");
    // Python's strip() keeps a blank line as an empty id; so do we.
    const std::string id = b == std::string::npos ? std::string() : line.substr(b, e - b + 1);
    images.push_back((voc_root / "JPEGImages" / (id + ".jpg")).string());
    targets.push_back((voc_root / target_dir / (id + target_ext)).string());
  }
  return {std::move(images), std::move(targets)};
}

// An annotation file's bytes (bounded: VOC annotations are a few kilobytes).
std::string read_annotation(const std::string& path) {
  constexpr std::uintmax_t kMaxBytes = 16u << 20;
  std::error_code ec;
  const std::uintmax_t n = fs::file_size(path, ec);
  EMBER_CHECK(!ec, "VOCDetection: cannot open ", path);
  EMBER_CHECK(n <= kMaxBytes, "VOCDetection: ", path, " is ", n, " bytes, more than an annotation can be");
  std::ifstream f(path, std::ios::binary);
  EMBER_CHECK(f, "VOCDetection: cannot open ", path);
  std::string bytes(static_cast<size_t>(n), '\0');
  f.read(bytes.data(), static_cast<std::streamsize>(n));
  bytes.resize(static_cast<size_t>(f.gcount()));
  return bytes;
}

}  // namespace

VOCSegmentation::VOCSegmentation(const std::string& root, const std::string& year, const std::string& image_set,
                                 bool download, std::optional<Transform> transform,
                                 std::optional<Transform> target_transform, Loader image_loader, Loader target_loader)
    : year(year),
      image_set(image_set),
      image_loader_(std::move(image_loader)),
      target_loader_(std::move(target_loader)),
      transform_(std::move(transform)),
      target_transform_(std::move(target_transform)) {
  const char* op = "VOCSegmentation";
  EMBER_CHECK(image_loader_ && target_loader_, op, ": image_loader and target_loader must be callables");
  std::tie(images, masks) = voc_split(op, root, year, image_set, download, "Segmentation", "SegmentationClass", ".png");
}

data::Example<> VOCSegmentation::get(size_t index) {
  EMBER_CHECK(index < images.size(), "VOCSegmentation: index ", index, " is out of range for a dataset of ",
              images.size(), " samples");
  return detail::make_example(image_loader_(images[index]), target_loader_(masks[index]), transform_,
                              target_transform_);
}

std::optional<size_t> VOCSegmentation::size() const { return images.size(); }

VOCDetection::VOCDetection(const std::string& root, const std::string& year, const std::string& image_set,
                           bool download, std::optional<Transform> transform,
                           std::optional<VOCTargetTransform> target_transform, std::optional<VOCTransforms> transforms,
                           Loader image_loader)
    : year(year),
      image_set(image_set),
      image_loader_(std::move(image_loader)),
      transform_(std::move(transform)),
      target_transform_(std::move(target_transform)),
      transforms_(std::move(transforms)) {
  const char* op = "VOCDetection";
  EMBER_CHECK(image_loader_, op, ": image_loader must be a callable");
  EMBER_CHECK(!(transforms_ && (transform_ || target_transform_)), op,
              ": Only transforms or transform/target_transform can be passed as argument");
  std::tie(images, annotations) = voc_split(op, root, year, image_set, download, "Main", "Annotations", ".xml");
}

VOCExample VOCDetection::get(size_t index) {
  EMBER_CHECK(index < images.size(), "VOCDetection: index ", index, " is out of range for a dataset of ", images.size(),
              " samples");
  Tensor image = image_loader_(images[index]);
  VOCAnnotation target = datasets::parse_voc_xml(read_annotation(annotations[index]), annotations[index]);
  // torchvision applies transform and target_transform (or transforms) as one joint callable.
  if (transforms_ && *transforms_) {
    std::tie(image, target) = (*transforms_)(std::move(image), std::move(target));
  } else {
    if (transform_ && *transform_) image = (*transform_)(std::move(image));
    if (target_transform_ && *target_transform_) target = (*target_transform_)(std::move(target));
  }
  return {std::move(image), std::move(target)};
}

std::optional<size_t> VOCDetection::size() const { return images.size(); }

}  // namespace torch::vision::datasets
