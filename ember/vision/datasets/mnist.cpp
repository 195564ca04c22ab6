#include "ember/vision/datasets/mnist.h"

#include <array>
#include <filesystem>
#include <fstream>

#include "ember/data/datasets/mnist.h"
#include "ember/ops/all_ops.h"

namespace torch::vision::datasets {

namespace {

constexpr uint32_t kImageMagic = 2051;  // ubyte, 3 dims
constexpr uint32_t kLabelMagic = 2049;  // ubyte, 1 dim

// The dims an IDX file's header declares, checked against the file's size
// so the reader never reserves what the bytes cannot fill. Only a plain file
// can be measured; for a gzipped one the standard MNIST sizes are assumed
// (the core's reader checks them).
std::vector<int64_t> idx_dims(const char* op, const std::string& path, uint32_t magic,
                              std::vector<int64_t> gz_default) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return gz_default;
  const uintmax_t bytes = std::filesystem::file_size(path, ec);
  std::ifstream f(path, std::ios::binary);
  EMBER_CHECK(f && !ec, op, ": cannot open ", path);
  const auto be32 = [&]() {
    std::array<unsigned char, 4> b{};
    f.read(reinterpret_cast<char*>(b.data()), 4);
    EMBER_CHECK(f.gcount() == 4, op, ": ", path, " is truncated in its header");
    return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | uint32_t{b[3]};
  };
  const uint32_t found = be32();
  EMBER_CHECK(found == magic, op, ": ", path, " is not an IDX file of the expected kind: magic number ", found,
              ", expected ", magic);
  const size_t ndim = magic & 0xff;
  std::vector<int64_t> dims;
  uintmax_t total = 1;
  for (size_t d = 0; d < ndim; ++d) {
    const uint32_t v = be32();
    dims.push_back(v);
    // Checked before multiplying, so the product cannot overflow.
    EMBER_CHECK(v == 0 || total <= bytes / v, op, ": ", path, " declares more data than its ", bytes, " bytes hold");
    total *= v;
  }
  EMBER_CHECK(4 + 4 * ndim + total <= bytes, op, ": ", path, " is truncated: its header declares ", total,
              " bytes of data, the file holds ", bytes - (4 + 4 * ndim));
  return dims;
}

std::vector<std::string> digits() {
  std::vector<std::string> out;
  for (char c = '0'; c <= '9'; ++c) out.emplace_back(1, c);
  return out;
}

std::vector<std::string> emnist_classes(const std::string& split) {
  std::vector<std::string> c = digits();
  const auto add = [&](const std::string& letters) {
    for (char ch : letters) c.emplace_back(1, ch);
  };
  const std::string upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ", lower = "abcdefghijklmnopqrstuvwxyz";
  if (split == "byclass") {
    add(upper);
    add(lower);
  } else if (split == "bymerge" || split == "balanced") {
    add(upper);
    add("abdefghnqrt");
  } else if (split == "letters") {
    c = {"N/A"};
    add(lower);
  } else {
    EMBER_CHECK(split == "digits" || split == "mnist", "EMNIST: Unknown value '", split,
                "' for argument split. Valid values are {'byclass', 'bymerge', 'balanced', 'letters', 'digits', "
                "'mnist'}.");
  }
  return c;
}

}  // namespace

MNIST::MNIST(const std::string& root, bool train, std::optional<Transform> transform,
             std::optional<Transform> target_transform, bool download)
    : MNIST(root, "MNIST", train ? "train" : "t10k", train, std::move(transform), std::move(target_transform), download,
            {"0 - zero", "1 - one", "2 - two", "3 - three", "4 - four", "5 - five", "6 - six", "7 - seven", "8 - eight",
             "9 - nine"}) {}

MNIST::MNIST(const std::string& root, const std::string& name, const std::string& prefix, bool train,
             std::optional<Transform> transform, std::optional<Transform> target_transform, bool download,
             std::vector<std::string> classes)
    : train(train),
      classes(std::move(classes)),
      transform_(std::move(transform)),
      target_transform_(std::move(target_transform)) {
  detail::refuse_download(name.c_str(), download);
  const std::filesystem::path raw = std::filesystem::path(root) / name / "raw";
  const std::string images = (raw / (prefix + "-images-idx3-ubyte")).string();
  const std::string labels = (raw / (prefix + "-labels-idx1-ubyte")).string();
  const int64_t n = train ? 60000 : 10000;
  const auto image_dims = idx_dims(name.c_str(), images, kImageMagic, {n, 28, 28});
  const auto label_dims = idx_dims(name.c_str(), labels, kLabelMagic, {n});
  EMBER_CHECK(image_dims[0] == label_dims[0], name, ": ", images, " holds ", image_dims[0], " images but ", labels,
              " holds ", label_dims[0], " labels");
  data_ = data::datasets::detail::read_idx_ubyte(images, kImageMagic, image_dims);
  targets_ = data::datasets::detail::read_idx_ubyte(labels, kLabelMagic, label_dims).to(kInt64);
}

data::Example<> MNIST::get(size_t index) {
  EMBER_CHECK(index < static_cast<size_t>(data_.size(0)), "MNIST: index ", index, " is out of range for a dataset of ",
              data_.size(0), " samples");
  const int64_t i = static_cast<int64_t>(index);
  return detail::make_example(data_[i].unsqueeze(0).clone(), targets_[i].clone(), transform_, target_transform_);
}

std::optional<size_t> MNIST::size() const { return static_cast<size_t>(data_.size(0)); }

FashionMNIST::FashionMNIST(const std::string& root, bool train, std::optional<Transform> transform,
                           std::optional<Transform> target_transform, bool download)
    : MNIST(
          root, "FashionMNIST", train ? "train" : "t10k", train, std::move(transform), std::move(target_transform),
          download,
          {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"}) {}

KMNIST::KMNIST(const std::string& root, bool train, std::optional<Transform> transform,
               std::optional<Transform> target_transform, bool download)
    : MNIST(root, "KMNIST", train ? "train" : "t10k", train, std::move(transform), std::move(target_transform),
            download, {"o", "ki", "su", "tsu", "na", "ha", "ma", "ya", "re", "wo"}) {}

EMNIST::EMNIST(const std::string& root, const std::string& split, bool train, std::optional<Transform> transform,
               std::optional<Transform> target_transform, bool download)
    : MNIST(root, "EMNIST", "emnist-" + split + (train ? "-train" : "-test"), train, std::move(transform),
            std::move(target_transform), download, emnist_classes(split)),
      split(split) {}

}  // namespace torch::vision::datasets
