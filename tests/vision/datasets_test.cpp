// ember::vision::datasets on small fixture files
// (tools/golden/gen_vision_ops_datasets.py): MNIST / FashionMNIST / EMNIST
// against torchvision 0.14's readings of the same files, CIFAR-10/100 binary
// batches against the arrays written, ImageFolder's sample order against
// torchvision's, the DataLoader with workers, and hostile files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/datasets.h"
#include "ember/vision/io.h"

namespace vision_datasets_test {

namespace datasets = ember::vision::datasets;
using ember::Tensor;
using ember::testing::Golden;

const std::string kRoot = EMBER_GOLDEN_DIR "/vision/datasets";

const Golden& golden() {
  static const Golden g("vision_ops_datasets.golden");
  return g;
}

void check_mnist(datasets::MNIST& ds, const std::string& name) {
  SCOPED_TRACE(name);
  const Golden& g = golden();
  EXPECT_TENSOR_EQ(ds.data(), g[name + ".data"]);
  EXPECT_TENSOR_EQ(ds.targets(), g[name + ".targets"]);
  ASSERT_EQ(*ds.size(), static_cast<size_t>(g[name + ".data"].size(0)));
  const auto ex = ds.get(1);
  EXPECT_TENSOR_EQ(ex.data, g[name + ".item1"]);
  EXPECT_TENSOR_EQ(ex.target, g[name + ".target1"]);
}

TEST(VisionDatasets, MnistFamilyMatchesTorchvision) {
  datasets::MNIST train(kRoot), test(kRoot, false);
  check_mnist(train, "mnist_train");
  check_mnist(test, "mnist_test");
  EXPECT_EQ(train.classes.front(), "0 - zero");
  datasets::FashionMNIST fashion(kRoot);
  check_mnist(fashion, "fashion_train");
  EXPECT_EQ(fashion.classes.back(), "Ankle boot");
  datasets::EMNIST emnist(kRoot, "letters", false);
  check_mnist(emnist, "emnist_test");
  EXPECT_EQ(emnist.classes.size(), 27u);
  // Transforms apply to the image and the target.
  datasets::MNIST scaled(
      kRoot, true, [](Tensor x) { return x.to(ember::kFloat32) / 255; }, [](Tensor t) { return t + 100; });
  const auto ex = scaled.get(1);
  EXPECT_TENSOR_CLOSE(ex.data, golden()["mnist_train.item1"].to(ember::kFloat32) / 255);
  EXPECT_EQ(ex.target.item<int64_t>(), golden()["mnist_train.target1"].item<int64_t>() + 100);
}

TEST(VisionDatasets, Cifar) {
  const Golden& g = golden();
  datasets::CIFAR10 train(kRoot);
  ASSERT_EQ(*train.size(), 10u);
  EXPECT_TENSOR_EQ(train.targets(), g["cifar10_train.targets"]);
  EXPECT_TENSOR_EQ(train.data(), g["cifar10_train.images"].permute({0, 2, 3, 1}));
  EXPECT_TENSOR_EQ(train.get(7).data, g["cifar10_train.images"][7]);
  EXPECT_EQ(train.classes.size(), 10u);
  EXPECT_EQ(train.classes[9], "truck");
  datasets::CIFAR10 test(kRoot, false);
  ASSERT_EQ(*test.size(), 1u);
  EXPECT_EQ(test.get(0).target.item<int64_t>(), 7);
  EXPECT_TENSOR_EQ(test.get(0).data, g["cifar10_test.images"][0]);
  datasets::CIFAR100 c100(kRoot);
  EXPECT_TENSOR_EQ(c100.targets(), g["cifar100_train.targets"]);
  EXPECT_TENSOR_EQ(c100.get(2).data, g["cifar100_train.images"][2]);
  EXPECT_EQ(c100.classes.size(), 100u);
}

Tensor read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  const std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return ember::tensor(std::vector<int64_t>(s.begin(), s.end()));
}

// The default loaders decode with ember::vision::io: images as RGB (torchvision's
// PIL loader converts), VOC masks as their stored palette indices.
TEST(VisionDatasets, DefaultLoadersDecodeImagesAsRGB) {
  const std::string tree = ::testing::TempDir() + "/ember_image_folder";
  std::filesystem::remove_all(tree);
  std::filesystem::create_directories(tree + "/cat");
  const Tensor gray = ember::arange(12, torch::kUInt8).reshape({1, 3, 4});
  ember::vision::io::write_png(gray, tree + "/cat/a.png");
  datasets::ImageFolder ds(tree);
  ASSERT_EQ(*ds.size(), 1u);
  const auto example = ds.get(0);
  EXPECT_TENSOR_EQ(example.data, gray.expand({3, 3, 4}));
  EXPECT_EQ(example.target.item<int64_t>(), 0);
  EXPECT_TENSOR_EQ(datasets::default_mask_loader(tree + "/cat/a.png"), gray);
  std::filesystem::remove_all(tree);
}

TEST(VisionDatasets, ImageFolderMatchesTorchvisionOrder) {
  std::ifstream expected(kRoot + "/folder_expected.txt");
  std::vector<std::string> classes;
  std::vector<std::pair<std::string, int64_t>> samples;
  std::string line;
  while (std::getline(expected, line) && line != "--") classes.push_back(line);
  while (std::getline(expected, line)) {
    const auto sp = line.rfind(' ');
    samples.emplace_back(line.substr(0, sp), std::stoll(line.substr(sp + 1)));
  }
  const std::string tree = kRoot + "/folder";
  datasets::ImageFolder ds(tree, std::nullopt, std::nullopt, read_bytes);
  EXPECT_EQ(ds.classes, classes);
  ASSERT_EQ(ds.samples.size(), samples.size());
  for (size_t i = 0; i < samples.size(); ++i) {
    EXPECT_EQ(std::filesystem::relative(ds.samples[i].first, tree).string(), samples[i].first);
    EXPECT_EQ(ds.samples[i].second, samples[i].second);
  }
  const auto ex = ds.get(0);
  EXPECT_EQ(ex.target.item<int64_t>(), 0);
  EXPECT_EQ(ex.data.numel(), static_cast<int64_t>(std::string("cat/a.png").size()));
  // DatasetFolder with its own extensions or rule (case-insensitive suffixes).
  datasets::DatasetFolder some(tree, read_bytes, std::vector<std::string>{".png", ".txt"});
  ASSERT_EQ(some.samples.size(), 3u);
  EXPECT_EQ(std::filesystem::path(some.samples[2].first).filename(), "readme.txt");
  EXPECT_EQ(some.targets, (std::vector<int64_t>{0, 1, 1}));
  const auto is_txt = [](const std::string& p) { return p.size() > 4 && p.substr(p.size() - 4) == ".txt"; };
  EXPECT_EMBER_ERROR(datasets::DatasetFolder(tree, read_bytes, std::nullopt, std::nullopt, std::nullopt, is_txt),
                     "make_dataset", "no valid file", "cat");
  EXPECT_EMBER_ERROR(datasets::DatasetFolder(tree, read_bytes), "make_dataset", "cannot be None");
}

TEST(VisionDatasets, WorksWithTheDataLoader) {
  auto ds = datasets::CIFAR10(kRoot).map(ember::data::transforms::Stack<>());
  auto loader = ember::data::make_data_loader(std::move(ds), ember::data::DataLoaderOptions().batch_size(4).workers(2));
  int64_t seen = 0;
  for (auto& batch : *loader) {
    EXPECT_EQ(batch.data.size(1), 3);
    seen += batch.data.size(0);
  }
  EXPECT_EQ(seen, 10);
}

TEST(VisionDatasets, BadFilesRaise) {
  const std::string bad = kRoot + "/bad";
  EXPECT_EMBER_ERROR(datasets::MNIST{bad}, "MNIST", "declares more data");
  EXPECT_EMBER_ERROR(datasets::MNIST(bad, false), "MNIST", "magic number");
  EXPECT_EMBER_ERROR(datasets::MNIST(kRoot + "/nowhere"), "MNIST");
  EXPECT_EMBER_ERROR(datasets::CIFAR10{bad}, "CIFAR10", "whole number");
  EXPECT_EMBER_ERROR(datasets::CIFAR100{bad}, "CIFAR100", "not found");
  EXPECT_EMBER_ERROR(datasets::MNIST(kRoot, true, std::nullopt, std::nullopt, true), "MNIST", "download");
  EXPECT_EMBER_ERROR(datasets::EMNIST(kRoot, "bogus"), "EMNIST", "bogus");
  EXPECT_EMBER_ERROR(datasets::ImageFolder(kRoot + "/nowhere", std::nullopt, std::nullopt, read_bytes), "find_classes");
  datasets::MNIST ok(kRoot);
  EXPECT_EMBER_ERROR(ok.get(3), "MNIST", "index 3");
}

}  // namespace vision_datasets_test

namespace vision_datasets_test {

// COCO's order (pycocotools + torchvision): images by sorted id, each image's
// annotations in file order.
TEST(VisionDatasets, CocoDetection) {
  const std::string dir = kRoot + "/coco";
  datasets::CocoDetection ds(dir, dir + "/instances.json", std::nullopt, std::nullopt, read_bytes);
  ASSERT_EQ(*ds.size(), 3u);
  EXPECT_EQ(ds.ids, (std::vector<int64_t>{7, 9, 42}));
  const auto first = ds.get(0);
  EXPECT_EQ(first.data.numel(), 5);  // the loader read "a.jpg"
  ASSERT_EQ(first.target.size(), 1u);
  EXPECT_EQ(first.target[0].id, 2);
  EXPECT_TRUE(first.target[0].iscrowd);
  EXPECT_EQ(first.target[0].segmentation, R"({"counts":[0,1,8],"size":[3,3]})");
  EXPECT_TRUE(ds.get(1).target.empty());
  const auto last = ds.get(2);
  ASSERT_EQ(last.target.size(), 2u);
  EXPECT_EQ(last.target[0].id, 1);
  EXPECT_EQ(last.target[0].category_id, 3);
  EXPECT_EQ(last.target[0].bbox, (std::vector<double>{1, 2, 3, 4.5}));
  EXPECT_DOUBLE_EQ(last.target[0].area, 13.5);
  EXPECT_EQ(last.target[1].id, 3);
  EXPECT_EMBER_ERROR(ds.get(3), "CocoDetection", "index 3");
  EXPECT_EMBER_ERROR(datasets::CocoDetection(dir, dir + "/bad_type.json", std::nullopt, std::nullopt, read_bytes),
                     "CocoDetection", "integer");
  EXPECT_EMBER_ERROR(datasets::CocoDetection(dir, dir + "/bad_ref.json", std::nullopt, std::nullopt, read_bytes),
                     "CocoDetection", "image 2");
  EXPECT_EMBER_ERROR(datasets::CocoDetection(dir, dir + "/truncated.json", std::nullopt, std::nullopt, read_bytes),
                     "CocoDetection", "JSON");
  EXPECT_EMBER_ERROR(datasets::CocoDetection(dir, dir + "/missing.json", std::nullopt, std::nullopt, read_bytes),
                     "CocoDetection", "cannot open");
}

}  // namespace vision_datasets_test

namespace vision_datasets_test {

TEST(VisionDatasets, VOCSegmentationMatchesTorchvisionFiles) {
  std::ifstream expected(kRoot + "/voc_expected.txt");
  std::vector<std::pair<std::string, std::string>> files;
  std::string a, b;
  while (expected >> a >> b) files.emplace_back(a, b);
  datasets::VOCSegmentation ds(kRoot + "/voc", "2012", "train", false, std::nullopt, std::nullopt, read_bytes,
                               read_bytes);
  ASSERT_EQ(*ds.size(), files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    EXPECT_EQ(std::filesystem::relative(ds.images[i], kRoot).string(), files[i].first);
    EXPECT_EQ(std::filesystem::relative(ds.masks[i], kRoot).string(), files[i].second);
  }
  const auto ex = ds.get(1);
  EXPECT_EQ(ex.data.numel(), static_cast<int64_t>(std::string("2007_000039.jpg").size()));
  EXPECT_EQ(ex.target.numel(), static_cast<int64_t>(std::string("2007_000039.png").size()));
  EXPECT_EMBER_ERROR(datasets::VOCSegmentation(kRoot + "/voc", "2013"), "VOCSegmentation", "2013");
  EXPECT_EMBER_ERROR(datasets::VOCSegmentation(kRoot + "/voc", "2012", "test"), "VOCSegmentation", "test");
  EXPECT_EMBER_ERROR(datasets::VOCSegmentation(kRoot + "/voc", "2010"), "VOCSegmentation", "not found");
}

}  // namespace vision_datasets_test
