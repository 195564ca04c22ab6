// Behaviour PyTorch's C++ API tests check: version counters of fresh tensors, set_data,
// storage(), index assignment of a value with leading size-1 dims, every LibTorch device
// name, layouts in options, Half's numeric_limits.
#include <gtest/gtest.h>

#include <limits>

#include "common/test_util.h"
#include "ember/ember.h"

namespace libtorch_semantics_test {

using namespace ember;

TEST(LibTorchSemantics, FactoriesStartAtVersionZero) {
  EXPECT_EQ(ones({3})._version(), 0u);
  EXPECT_EQ(zeros({3})._version(), 0u);
  EXPECT_EQ(full({2}, 7)._version(), 0u);
  EXPECT_EQ(rand({2})._version(), 0u);
  EXPECT_EQ(randn({2})._version(), 0u);
  EXPECT_EQ(arange(4)._version(), 0u);
  Tensor t = ones({3});
  t.add_(1);
  EXPECT_EQ(t._version(), 1u);
}

TEST(LibTorchSemantics, SetDataSwapsTheDataKeepsTheAutogradState) {
  Tensor x = ones({2, 2}).requires_grad_(true);
  const Tensor y = arange(6, kFloat64).view({3, 2});
  x.set_data(y);
  EXPECT_EQ(x.sizes(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(x.dtype(), kFloat64);
  EXPECT_TRUE(x.requires_grad());
  EXPECT_EQ(x.data_ptr(), y.data_ptr());  // shares y's storage
  (x * 2).sum().backward();
  EXPECT_TENSOR_EQ(x.grad(), full({3, 2}, 2.0, kFloat64));
  EXPECT_EMBER_ERROR(x.set_data(Tensor()), "set_data");
}

TEST(LibTorchSemantics, StorageAnswersC10Calls) {
  const Tensor a = arange(6, kFloat32);
  const Tensor v = a.view({2, 3}).select(0, 1);
  EXPECT_EQ(v.storage().data(), a.data_ptr());
  EXPECT_EQ(a.storage().nbytes(), 6 * sizeof(float));
  EXPECT_TRUE(v.storage().is_alias_of(a.storage()));
  EXPECT_FALSE(a.clone().storage().is_alias_of(a.storage()));
}

TEST(LibTorchSemantics, IndexAssignmentDropsLeadingOnes) {
  using namespace indexing;
  Tensor t = zeros({2, 2, 3});
  t.index_put_({0}, arange(6, kFloat32).view({1, 1, 2, 3}));  // a [1, 1, 2, 3] value into a [2, 3] slot
  EXPECT_TENSOR_EQ(t[0], arange(6, kFloat32).view({2, 3}));
  Tensor u = zeros({4, 3});
  u.index_put_({tensor({0, 2})}, ones({1, 2, 3}));  // advanced indexing: [1, 2, 3] into [2, 3]
  EXPECT_EQ(u.sum().item<double>(), 6.0);
  EXPECT_EMBER_ERROR(t.index_put_({0}, ones({2, 2, 3})), "");  // a real size mismatch still raises
}

TEST(LibTorchSemantics, EveryLibTorchDeviceNameParses) {
  EXPECT_EQ(Device("hip:123"), Device(DeviceType::HIP, 123));
  EXPECT_EQ(Device("mkldnn").type(), DeviceType::MKLDNN);
  EXPECT_EQ(Device("cpu:0").index(), 0);
  EXPECT_EQ(Device(DeviceType::XLA).str(), "xla");
  for (const char* bad : {"", "cud:1", "cuda:", "cpu::1", ":1", "3", "tpu:4", "??", "cuda:01", "cuda:128"})
    EXPECT_EMBER_ERROR(Device d(bad), "Device");
  EXPECT_EMBER_ERROR(ones({2}, TensorOptions().device(Device("hip"))), "device hip", "not available");
}

TEST(LibTorchSemantics, LayoutsAreStoredAndRefusedByFactories) {
  const TensorOptions o = layout(kSparse).dtype(kByte);
  EXPECT_EQ(o.layout(), kSparse);
  EXPECT_EQ(TensorOptions().layout(), kStrided);
  EXPECT_EQ(ones({2}).options().layout(), kStrided);
  EXPECT_EMBER_ERROR(empty({2}, o), "empty", "Sparse", "strided");
}

TEST(LibTorchSemantics, HalfAndBFloat16Limits) {
  using HL = std::numeric_limits<Half>;
  EXPECT_TRUE(HL::has_signaling_NaN);
  EXPECT_TRUE(std::isnan(static_cast<float>(HL::signaling_NaN())));
  EXPECT_EQ(static_cast<float>(HL::round_error()), 0.5f);
  EXPECT_EQ(HL::digits10, 3);
  using BL = std::numeric_limits<BFloat16>;
  EXPECT_TRUE(std::isnan(static_cast<float>(BL::signaling_NaN())));
  EXPECT_EQ(BL::max_exponent, 128);
}

}  // namespace libtorch_semantics_test
