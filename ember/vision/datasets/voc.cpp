#include "ember/vision/datasets/voc.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "ember/vision/io/image.h"

namespace torch::vision::datasets {

namespace fs = std::filesystem;

Tensor default_mask_loader(const std::string& path) { return io::read_image(path, io::ImageReadMode::UNCHANGED); }

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
  detail::refuse_download(op, download);
  EMBER_CHECK(image_loader_ && target_loader_, op, ": image_loader and target_loader must be callables");
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
  const fs::path split = voc_root / "ImageSets" / "Segmentation" / (image_set + ".txt");
  std::ifstream f(split);
  EMBER_CHECK(f, op, ": cannot open ", split.string());
  std::string line;
  while (std::getline(f, line)) {
    const auto b = line.find_first_not_of(" \t\r\n"), e = line.find_last_not_of(" \t\r\n");
    // Python's strip() keeps a blank line as an empty id; so do we.
    const std::string id = b == std::string::npos ? std::string() : line.substr(b, e - b + 1);
    images.push_back((voc_root / "JPEGImages" / (id + ".jpg")).string());
    masks.push_back((voc_root / "SegmentationClass" / (id + ".png")).string());
  }
}

data::Example<> VOCSegmentation::get(size_t index) {
  EMBER_CHECK(index < images.size(), "VOCSegmentation: index ", index, " is out of range for a dataset of ",
              images.size(), " samples");
  return detail::make_example(image_loader_(images[index]), target_loader_(masks[index]), transform_,
                              target_transform_);
}

std::optional<size_t> VOCSegmentation::size() const { return images.size(); }

}  // namespace torch::vision::datasets
