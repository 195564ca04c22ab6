// MNIST reader: untrusted IDX files (bad magic, dims, truncation, huge
// headers, corrupt gzip) raise ember::Error; a crafted valid test set loads
// plain and gzipped; Debian's Fashion-MNIST matches PyTorch's own decoding.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;
using torch::data::datasets::MNIST;

void put_be32(Bytes& b, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) b.push_back(static_cast<uint8_t>(v >> shift));
}

Bytes idx(uint32_t magic, std::vector<uint32_t> dims, size_t payload, uint8_t fill = 0) {
  Bytes b;
  put_be32(b, magic);
  for (uint32_t d : dims) put_be32(b, d);
  for (size_t i = 0; i < payload; ++i) b.push_back(static_cast<uint8_t>(fill + i * 7));
  return b;
}

uint32_t crc32(const Bytes& data) {
  uint32_t crc = 0xFFFFFFFFu;
  for (uint8_t byte : data) {
    crc ^= byte;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

// A gzip member made of stored (uncompressed) deflate blocks, so the test
// needs no compressor of its own.
Bytes gzip_stored(const Bytes& data) {
  Bytes out{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff};
  size_t pos = 0;
  do {
    const size_t n = std::min<size_t>(65535, data.size() - pos);
    const bool last = pos + n == data.size();
    out.push_back(last ? 1 : 0);
    out.push_back(static_cast<uint8_t>(n));
    out.push_back(static_cast<uint8_t>(n >> 8));
    out.push_back(static_cast<uint8_t>(~n));
    out.push_back(static_cast<uint8_t>(~n >> 8));
    out.insert(out.end(), data.begin() + pos, data.begin() + pos + n);
    pos += n;
  } while (pos < data.size());
  for (uint32_t v : {crc32(data), static_cast<uint32_t>(data.size())})
    for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<uint8_t>(v >> shift));
  return out;
}

class MnistFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device rd;
    dir_ = fs::temp_directory_path() / ("ember_mnist_test_" + std::to_string(rd()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write(const std::string& name, const Bytes& b) {
    std::ofstream f(dir_ / name, std::ios::binary);
    f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  }
  // A valid test split: image i is filled with the byte (i * 7 + k) pattern, label i % 10.
  Bytes valid_images() { return idx(2051, {10000, 28, 28}, 10000u * 784u, 3); }
  Bytes valid_labels() {
    Bytes b = idx(2049, {10000}, 0);
    for (int i = 0; i < 10000; ++i) b.push_back(static_cast<uint8_t>(i % 10));
    return b;
  }
  std::string root() const { return dir_.string(); }

  fs::path dir_;
};

void expect_valid_test_split(const MNIST& ds) {
  EXPECT_FALSE(ds.is_train());
  EXPECT_EQ(ds.size().value(), 10000u);
  EXPECT_EQ(ds.images().sizes(), (std::vector<int64_t>{10000, 1, 28, 28}));
  EXPECT_EQ(ds.images().dtype(), torch::kFloat);
  EXPECT_EQ(ds.targets().dtype(), torch::kLong);
  // Pixel k of the file is uint8(3 + 7k); the reader divides by 255 in float32.
  const float* px = ds.images().data_ptr<float>();
  for (size_t k : {size_t{0}, size_t{1}, size_t{784 * 9999 + 783}}) {
    const auto byte = static_cast<uint8_t>(3 + k * 7);
    EXPECT_EQ(px[k], static_cast<float>(byte) / 255.0f) << k;
  }
  EXPECT_EQ(ds.targets()[1234].item<int64_t>(), 4);
}

TEST_F(MnistFiles, LoadsAValidPlainTestSplit) {
  write("t10k-images-idx3-ubyte", valid_images());
  write("t10k-labels-idx1-ubyte", valid_labels());
  MNIST ds(root(), MNIST::Mode::kTest);
  expect_valid_test_split(ds);
  auto e = ds.get(11);
  EXPECT_EQ(e.data.sizes(), (std::vector<int64_t>{1, 28, 28}));
  EXPECT_EQ(e.target.item<int64_t>(), 1);
  EXPECT_EMBER_ERROR(ds.get(10000), "MNIST", "out of range");
}

TEST_F(MnistFiles, LoadsAValidGzippedTestSplit) {
  write("t10k-images-idx3-ubyte.gz", gzip_stored(valid_images()));
  write("t10k-labels-idx1-ubyte.gz", gzip_stored(valid_labels()));
  expect_valid_test_split(MNIST(root(), MNIST::Mode::kTest));
}

TEST_F(MnistFiles, MissingFiles) {
  EXPECT_EMBER_ERROR(MNIST{root()}, "MNIST", "train-images-idx3-ubyte");
  write("t10k-images-idx3-ubyte", valid_images());
  EXPECT_EMBER_ERROR(MNIST(root(), MNIST::Mode::kTest), "MNIST", "t10k-labels-idx1-ubyte");
}

TEST_F(MnistFiles, BadMagicNumbers) {
  write("t10k-images-idx3-ubyte", idx(2049, {10000, 28, 28}, 0));
  EXPECT_EMBER_ERROR(MNIST(root(), MNIST::Mode::kTest), "MNIST", "magic number 2049, expected 2051");
  write("t10k-images-idx3-ubyte", valid_images());
  write("t10k-labels-idx1-ubyte", idx(2051, {10000}, 10000));
  EXPECT_EMBER_ERROR(MNIST(root(), MNIST::Mode::kTest), "MNIST", "magic number 2051, expected 2049");
}

TEST_F(MnistFiles, WrongCountsAndImageSizes) {
  write("t10k-images-idx3-ubyte", idx(2051, {9999, 28, 28}, 9999u * 784u));
  EXPECT_EMBER_ERROR(MNIST(root(), MNIST::Mode::kTest), "dimension 0 is 9999, expected 10000");
  write("t10k-images-idx3-ubyte", idx(2051, {10000, 32, 28}, 0));
  EXPECT_EMBER_ERROR(MNIST(root(), MNIST::Mode::kTest), "dimension 1 is 32, expected 28");
  // A 10000-image test set is not a training set.
  write("train-images-idx3-ubyte", valid_images());
  EXPECT_EMBER_ERROR(MNIST(root(), MNIST::Mode::kTrain), "dimension 0 is 10000, expected 60000");
  write("t10k-images-idx3-ubyte", valid_images());
  write("t10k-labels-idx1-ubyte", idx(2049, {60000}, 0));
  EXPECT_EMBER_ERROR(MNIST(root(), MNIST::Mode::kTest), "labels-idx1-ubyte", "dimension 0 is 60000");
}

TEST_F(MnistFiles, OversizedHeadersAreRejectedBeforeAllocating) {
  write("t10k-images-idx3-ubyte", idx(2051, {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu}, 16));
  EXPECT_EMBER_ERROR(MNIST(root(), MNIST::Mode::kTest), "dimension 0 is 4294967295");
  write("t10k-images-idx3-ubyte", idx(0xFFFFFFFFu, {}, 0));
  EXPECT_EMBER_ERROR(MNIST(root(), MNIST::Mode::kTest), "magic number 4294967295");
}

TEST_F(MnistFiles, TruncatedFiles) {
  write("t10k-images-idx3-ubyte", Bytes{0, 0});
  EXPECT_EMBER_ERROR(MNIST(root(), MNIST::Mode::kTest), "truncated", "header");
  write("t10k-images-idx3-ubyte", idx(2051, {10000}, 0));
  EXPECT_EMBER_ERROR(MNIST(root(), MNIST::Mode::kTest), "truncated", "header");
  write("t10k-images-idx3-ubyte", idx(2051, {10000, 28, 28}, 784 * 100));
  EXPECT_EMBER_ERROR(MNIST(root(), MNIST::Mode::kTest), "truncated", "expected 7840000 bytes of data, got 78400");
  write("t10k-images-idx3-ubyte", Bytes{});
  EXPECT_EMBER_ERROR(MNIST(root(), MNIST::Mode::kTest), "truncated");
}

TEST_F(MnistFiles, TruncatedAndCorruptGzip) {
  Bytes gz = gzip_stored(valid_images());
  gz.resize(gz.size() / 2);
  write("t10k-images-idx3-ubyte.gz", gz);
  EXPECT_EMBER_ERROR(MNIST(root(), MNIST::Mode::kTest), "MNIST", "t10k-images-idx3-ubyte.gz");
  // A gzip header followed by an invalid deflate block type.
  write("t10k-images-idx3-ubyte.gz", Bytes{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 0x07, 0xff, 0xff, 0xff});
  EXPECT_EMBER_ERROR(MNIST(root(), MNIST::Mode::kTest), "MNIST", "t10k-images-idx3-ubyte.gz");
  // Random bytes after a gzip magic.
  Bytes noise{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff};
  std::mt19937 rng(5);
  for (int i = 0; i < 4096; ++i) noise.push_back(static_cast<uint8_t>(rng()));
  write("t10k-images-idx3-ubyte.gz", noise);
  EXPECT_EMBER_ERROR(MNIST(root(), MNIST::Mode::kTest), "MNIST");
}

TEST_F(MnistFiles, DirectoryInPlaceOfFile) {
  fs::create_directories(dir_ / "t10k-images-idx3-ubyte");
  EXPECT_EMBER_ERROR(MNIST(root(), MNIST::Mode::kTest), "MNIST", "error opening");
}

const char* kFashion = "/usr/share/datasets/fashion-mnist";

TEST(DataMnistFashion, MatchesPyTorchDecoding) {
  if (!fs::exists(kFashion)) GTEST_SKIP() << "dataset-fashion-mnist is not installed";
  ember::testing::Golden g("data.golden");
  for (auto [mode, split] : {std::pair{MNIST::Mode::kTrain, "train"}, std::pair{MNIST::Mode::kTest, "t10k"}}) {
    const auto t0 = std::chrono::steady_clock::now();
    MNIST ds(kFashion, mode);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "[ info ] Fashion-MNIST " << split << " loaded in " << secs << " s\n";
    const std::string p = std::string("fashion_") + split + "_";
    EXPECT_EQ(ds.is_train(), mode == MNIST::Mode::kTrain);
    EXPECT_TENSOR_EQ(ds.images()[0], g[p + "first_image"]);
    EXPECT_TENSOR_EQ(ds.images()[-1], g[p + "last_image"]);
    EXPECT_TENSOR_EQ(ds.targets().slice(0, 0, 32), g[p + "first_labels"]);
    EXPECT_TENSOR_EQ(torch::bincount(ds.targets(), {}, 10), g[p + "label_counts"]);
    EXPECT_TENSOR_CLOSE(ds.images().to(torch::kDouble).sum(), g[p + "image_sum"]);
  }
}

TEST(DataMnistFashion, TrainingPipelineLikeTheMnistExample) {
  if (!fs::exists(kFashion)) GTEST_SKIP() << "dataset-fashion-mnist is not installed";
  torch::manual_seed(1);
  auto dataset = torch::data::datasets::MNIST(kFashion, torch::data::datasets::MNIST::Mode::kTest)
                     .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
                     .map(torch::data::transforms::Stack<>());
  const size_t dataset_size = dataset.size().value();
  auto loader =
      torch::data::make_data_loader(std::move(dataset), torch::data::DataLoaderOptions().batch_size(1000).workers(2));
  size_t seen = 0;
  for (auto& batch : *loader) {
    EXPECT_EQ(batch.data.sizes(), (std::vector<int64_t>{1000, 1, 28, 28}));
    EXPECT_EQ(batch.target.dtype(), torch::kLong);
    seen += static_cast<size_t>(batch.data.size(0));
  }
  EXPECT_EQ(seen, dataset_size);
}

}  // namespace
