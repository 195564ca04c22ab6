#include "ember/vision/datasets/cifar.h"

#include <filesystem>
#include <fstream>

#include "ember/ops/all_ops.h"

namespace torch::vision::datasets {

namespace {

constexpr int64_t kPixels = 3 * 32 * 32;

std::vector<std::string> read_lines(const std::filesystem::path& path) {
  std::vector<std::string> out;
  std::ifstream f(path);
  std::string line;
  while (f && std::getline(f, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

CIFAR10::Layout cifar10_layout() {
  return {"CIFAR10",
          "cifar-10-batches-bin",
          {"data_batch_1.bin", "data_batch_2.bin", "data_batch_3.bin", "data_batch_4.bin", "data_batch_5.bin"},
          {"test_batch.bin"},
          "batches.meta.txt",
          1};
}

CIFAR10::Layout cifar100_layout() {
  return {"CIFAR100", "cifar-100-binary", {"train.bin"}, {"test.bin"}, "fine_label_names.txt", 2};
}

}  // namespace

CIFAR10::CIFAR10(const std::string& root, bool train, std::optional<Transform> transform,
                 std::optional<Transform> target_transform, bool download)
    : CIFAR10(root, cifar10_layout(), train, std::move(transform), std::move(target_transform), download) {}

CIFAR100::CIFAR100(const std::string& root, bool train, std::optional<Transform> transform,
                   std::optional<Transform> target_transform, bool download)
    : CIFAR10(root, cifar100_layout(), train, std::move(transform), std::move(target_transform), download) {}

CIFAR10::CIFAR10(const std::string& root, const Layout& layout, bool train, std::optional<Transform> transform,
                 std::optional<Transform> target_transform, bool download)
    : train(train), transform_(std::move(transform)), target_transform_(std::move(target_transform)) {
  detail::refuse_download(layout.name, download);
  const std::filesystem::path dir = std::filesystem::path(root) / layout.folder;
  const int64_t record = layout.label_bytes + kPixels;
  // The sizes are checked first, so nothing is allocated for a file that is
  // not a whole number of records.
  int64_t total = 0;
  const auto& files = train ? layout.train_files : layout.test_files;
  std::vector<std::pair<std::filesystem::path, int64_t>> parts;
  for (const std::string& name : files) {
    const std::filesystem::path p = dir / name;
    std::error_code ec;
    const uintmax_t bytes = std::filesystem::file_size(p, ec);
    EMBER_CHECK(!ec, layout.name, ": Dataset not found or corrupted: cannot read ", p.string());
    EMBER_CHECK(bytes % static_cast<uintmax_t>(record) == 0 && bytes > 0, layout.name, ": ", p.string(), " holds ",
                bytes, " bytes, not a whole number of ", record, "-byte records");
    parts.emplace_back(p, static_cast<int64_t>(bytes) / record);
    total += parts.back().second;
  }
  Tensor chw = empty({total, 3, 32, 32}, kUInt8);
  targets_ = empty({total}, kInt64);
  uint8_t* px = chw.data_ptr<uint8_t>();
  int64_t* lbl = targets_.data_ptr<int64_t>();
  std::vector<char> buf(static_cast<size_t>(record));
  int64_t k = 0;
  for (const auto& [path, count] : parts) {
    std::ifstream f(path, std::ios::binary);
    EMBER_CHECK(f, layout.name, ": cannot open ", path.string());
    for (int64_t r = 0; r < count; ++r, ++k) {
      f.read(buf.data(), record);
      EMBER_CHECK(f.gcount() == record, layout.name, ": ", path.string(), " is truncated at record ", r);
      lbl[k] = static_cast<unsigned char>(buf[static_cast<size_t>(layout.label_bytes - 1)]);
      std::copy(buf.begin() + layout.label_bytes, buf.end(), px + k * kPixels);
    }
  }
  data_ = chw.permute({0, 2, 3, 1}).contiguous();
  classes = read_lines(dir / layout.classes_file);
}

data::Example<> CIFAR10::get(size_t index) {
  EMBER_CHECK(index < static_cast<size_t>(data_.size(0)), "CIFAR: index ", index, " is out of range for a dataset of ",
              data_.size(0), " samples");
  const int64_t i = static_cast<int64_t>(index);
  return detail::make_example(data_[i].permute({2, 0, 1}).contiguous(), targets_[i].clone(), transform_,
                              target_transform_);
}

std::optional<size_t> CIFAR10::size() const { return static_cast<size_t>(data_.size(0)); }

}  // namespace torch::vision::datasets
