#include "ember/vision/datasets/folder.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "ember/ops/all_ops.h"
#include "ember/vision/io/image.h"

namespace torch::vision::datasets {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// Every folder under dir (dir included), following links but never into a
// folder already on the current path, so a link cycle cannot recurse forever.
void folders(const fs::path& dir, std::vector<fs::path>& on_path, std::vector<std::string>& out) {
  std::error_code ec;
  const fs::path canon = fs::canonical(dir, ec);
  if (ec || std::find(on_path.begin(), on_path.end(), canon) != on_path.end()) return;
  on_path.push_back(canon);
  out.push_back(dir.string());
  for (const auto& entry : fs::directory_iterator(dir, fs::directory_options::skip_permission_denied, ec)) {
    std::error_code e2;
    if (entry.is_directory(e2)) folders(entry.path(), on_path, out);
  }
  on_path.pop_back();
}

// The files under dir in torchvision's order: sorted(os.walk(dir,
// followlinks=True)) sorts the folders by path string, then each folder's
// files by name.
std::vector<std::string> walk_files(const fs::path& dir) {
  std::vector<fs::path> on_path;
  std::vector<std::string> dirs, out;
  folders(dir, on_path, dirs);
  std::sort(dirs.begin(), dirs.end());
  for (const std::string& d : dirs) {
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(d, fs::directory_options::skip_permission_denied, ec)) {
      std::error_code e2;
      if (!entry.is_directory(e2)) files.push_back(entry.path().filename().string());
    }
    std::sort(files.begin(), files.end());
    for (const std::string& f : files) out.push_back((fs::path(d) / f).string());
  }
  return out;
}

}  // namespace

const std::vector<std::string>& IMG_EXTENSIONS() {
  static const std::vector<std::string> ext{".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp"};
  return ext;
}

bool has_file_allowed_extension(const std::string& filename, const std::vector<std::string>& extensions) {
  const std::string name = lower(filename);
  return std::any_of(extensions.begin(), extensions.end(), [&](const std::string& e) {
    const std::string ext = lower(e);
    return name.size() >= ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0;
  });
}

bool is_image_file(const std::string& filename) { return has_file_allowed_extension(filename, IMG_EXTENSIONS()); }

std::tuple<std::vector<std::string>, std::map<std::string, int64_t>> find_classes(const std::string& directory) {
  std::error_code ec;
  std::vector<std::string> classes;
  fs::directory_iterator it(directory, ec);
  EMBER_CHECK(!ec, "find_classes: cannot read directory ", directory, ": ", ec.message());
  for (const auto& entry : it) {
    std::error_code e2;
    if (entry.is_directory(e2)) classes.push_back(entry.path().filename().string());
  }
  std::sort(classes.begin(), classes.end());
  EMBER_CHECK(!classes.empty(), "find_classes: Couldn't find any class folder in ", directory, ".");
  std::map<std::string, int64_t> idx;
  for (size_t i = 0; i < classes.size(); ++i) idx[classes[i]] = static_cast<int64_t>(i);
  return {classes, idx};
}

std::vector<std::pair<std::string, int64_t>> make_dataset(
    const std::string& directory, const std::optional<std::map<std::string, int64_t>>& class_to_idx,
    const std::optional<std::vector<std::string>>& extensions, const std::optional<IsValidFile>& is_valid_file) {
  const std::map<std::string, int64_t> classes = class_to_idx ? *class_to_idx : std::get<1>(find_classes(directory));
  const bool both_none = !extensions && !(is_valid_file && *is_valid_file);
  const bool both_something = extensions && is_valid_file && *is_valid_file;
  EMBER_CHECK(!both_none && !both_something,
              "make_dataset: Both extensions and is_valid_file cannot be None or not None at the same time");
  const IsValidFile valid =
      extensions ? IsValidFile([&](const std::string& p) { return has_file_allowed_extension(p, *extensions); })
                 : *is_valid_file;
  std::vector<std::pair<std::string, int64_t>> out;
  std::vector<std::string> empty_classes;
  // In class-index order, as torchvision's sorted(class_to_idx.keys()).
  for (const auto& [name, index] : classes) {
    const fs::path dir = fs::path(directory) / name;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    const std::vector<std::string> files = walk_files(dir);
    bool any = false;
    for (const std::string& f : files)
      if (valid(f)) {
        out.emplace_back(f, index);
        any = true;
      }
    if (!any) empty_classes.push_back(name);
  }
  if (!empty_classes.empty()) {
    std::string msg = "Found no valid file for the classes ";
    for (size_t i = 0; i < empty_classes.size(); ++i) msg += (i ? ", " : "") + empty_classes[i];
    msg += ". ";
    if (extensions) {
      msg += "Supported extensions are: ";
      for (size_t i = 0; i < extensions->size(); ++i) msg += (i ? ", " : "") + (*extensions)[i];
    }
    EMBER_ERROR("make_dataset: ", msg);
  }
  return out;
}

DatasetFolder::DatasetFolder(const std::string& root, Loader loader,
                             const std::optional<std::vector<std::string>>& extensions,
                             std::optional<Transform> transform, std::optional<Transform> target_transform,
                             const std::optional<IsValidFile>& is_valid_file)
    : root(root),
      loader_(std::move(loader)),
      transform_(std::move(transform)),
      target_transform_(std::move(target_transform)) {
  EMBER_CHECK(loader_, "DatasetFolder: loader must be a callable");
  std::tie(classes, class_to_idx) = find_classes(root);
  samples = make_dataset(root, class_to_idx, extensions, is_valid_file);
  for (const auto& s : samples) targets.push_back(s.second);
}

data::Example<> DatasetFolder::get(size_t index) {
  EMBER_CHECK(index < samples.size(), "DatasetFolder: index ", index, " is out of range for a dataset of ",
              samples.size(), " samples");
  const auto& [path, target] = samples[index];
  return detail::make_example(loader_(path), scalar_tensor(target, kInt64), transform_, target_transform_);
}

std::optional<size_t> DatasetFolder::size() const { return samples.size(); }

Tensor default_loader(const std::string& path) { return io::read_image(path, io::ImageReadMode::RGB); }

ImageFolder::ImageFolder(const std::string& root, std::optional<Transform> transform,
                         std::optional<Transform> target_transform, Loader loader,
                         const std::optional<IsValidFile>& is_valid_file)
    : DatasetFolder(
          root, std::move(loader),
          is_valid_file && *is_valid_file ? std::nullopt : std::optional<std::vector<std::string>>(IMG_EXTENSIONS()),
          std::move(transform), std::move(target_transform), is_valid_file) {}

}  // namespace torch::vision::datasets
