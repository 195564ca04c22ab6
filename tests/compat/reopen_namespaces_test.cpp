// What LibTorch code does with the namespaces and c10's utilities, compiled against the
// compatibility headers only: reopening torch::, torch::nn::, at:: and c10::, `using namespace
// torch;` next to a reopened torch::nn, LibTorch's type names, c10's warning handler, TypeMeta,
// c10::guts, c10::Join, c10::make_tempfile, the static traits and tensor_flatten.
#include <gtest/gtest.h>

#include <c10/util/Exception.h>
#include <c10/util/tempfile.h>
#include <torch/csrc/utils/tensor_flatten.h>
#include <torch/detail/static.h>
#include <torch/torch.h>

#include <fstream>
#include <string>
#include <vector>

// An extension module added to torch::nn itself, as LibTorch extensions do.
namespace torch {
namespace nn {
struct ScaleImpl : Cloneable<ScaleImpl> {
  explicit ScaleImpl(double s) : factor(s) { reset(); }
  void reset() override {}
  Tensor forward(const Tensor& x) { return x * factor; }
  double factor;
};
TORCH_MODULE(Scale);
}  // namespace nn
namespace test {
inline int answer() { return 42; }
}  // namespace test
}  // namespace torch
namespace at {
inline Tensor twice(const Tensor& x) { return x * 2; }
}  // namespace at
namespace c10 {
inline int c10_extension() { return 7; }
}  // namespace c10

namespace {

using namespace torch;  // beside the reopened torch::nn: one nn, not two

TEST(ReopenNamespaces, ExtensionsLiveBesideEmbersOwnNames) {
  nn::Sequential seq(nn::Linear(2, 3), nn::Scale(2.0));
  EXPECT_EQ(seq->forward(torch::ones({1, 2})).sizes(), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(torch::test::answer(), 42);
  EXPECT_TRUE(at::twice(torch::ones({2})).equal(torch::full({2}, 2.0)));
  EXPECT_EQ(c10::c10_extension(), 7);
  // at:: and c10:: still see all of Ember.
  EXPECT_EQ(at::ones({2}).dtype(), c10::kFloat);
  // One entity, two spellings; the type names are LibTorch's.
  static_assert(std::is_same_v<ember::nn::LinearImpl, torch::nn::LinearImpl>);
  EXPECT_EQ(nn::Linear(1, 1)->name(), "torch::nn::LinearImpl");
}

struct Capture : c10::WarningHandler {
  void process(const c10::SourceLocation& loc, const std::string& msg, bool) override {
    messages.push_back(msg);
    lines.push_back(loc.line);
  }
  std::vector<std::string> messages;
  std::vector<uint32_t> lines;
};

TEST(ReopenNamespaces, WarningsReachTheInstalledHandler) {
  Capture capture;
  c10::WarningHandler* previous = c10::Warning::get_warning_handler();
  c10::Warning::set_warning_handler(&capture);
  TORCH_WARN("first ", 1);
  for (int i = 0; i < 3; ++i) TORCH_WARN_ONCE("once");
  c10::Warning::set_warnAlways(true);
  for (int i = 0; i < 2; ++i) TORCH_WARN_ONCE("always");
  c10::Warning::set_warnAlways(false);
  c10::Warning::set_warning_handler(previous);
  TORCH_WARN("not captured");
  EXPECT_EQ(capture.messages, (std::vector<std::string>{"first 1", "once", "always", "always"}));
  EXPECT_GT(capture.lines[0], 0u);
  EXPECT_EQ(c10::Warning::get_warning_handler(), previous);
}

TEST(ReopenNamespaces, C10Utilities) {
  EXPECT_EQ(c10::Join(", ", std::vector<int>{1, 2, 3}), "1, 2, 3");
  EXPECT_EQ(c10::to_string(12), "12");
  EXPECT_EQ(caffe2::TypeMeta::Make<int>(), torch::kInt);
  EXPECT_EQ(torch::typeMetaToScalarType(torch::scalarTypeToTypeMeta(torch::kDouble)), torch::kDouble);
  EXPECT_EQ(caffe2::TypeMeta::Make<float>().itemsize(), 4u);
  c10::complex<float> z(1, 2);
  EXPECT_EQ(torch::tensor({z}).dtype(), torch::kComplexFloat);
  std::string path;
  {
    auto file = c10::make_tempfile();
    path = file.name;
    std::ofstream(path) << "x";
    EXPECT_TRUE(std::ifstream(path).good());
  }
  EXPECT_FALSE(std::ifstream(path).good());  // removed with the TempFile
  static_assert(torch::all_of<true, true>::value && !torch::all_of<true, false>::value);
  static_assert(torch::any_of<false, true>::value && !torch::any_of<>::value);
  static_assert(torch::detail::is_module<torch::nn::LinearImpl>::value && !torch::detail::is_module<int>::value);
  static_assert(torch::detail::check_not_lvalue_references<int, float>() &&
                !torch::detail::check_not_lvalue_references<int&>());
}

TEST(ReopenNamespaces, FlattenAndUnflattenDenseTensors) {
  const std::vector<torch::Tensor> parts{torch::ones({2, 2}), torch::zeros({0}), torch::arange(3)};
  const torch::Tensor flat = torch::utils::flatten_dense_tensors(
      std::vector<torch::Tensor>{parts[0].to(torch::kLong), parts[1].to(torch::kLong), parts[2]});
  EXPECT_EQ(flat.numel(), 7);
  const auto back = torch::utils::unflatten_dense_tensors(flat, parts);
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back[0].sizes(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(back[1].numel(), 0);
  EXPECT_TRUE(back[2].equal(torch::arange(3)));
}

}  // namespace
