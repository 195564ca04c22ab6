// Spellings found in LibTorch programs written by others that compiled against
// LibTorch and not against Ember. <torch/torch.h> comes first and the helpers
// are defined before anything else is included, so they see only what it
// brings: LibTorch's headers bring `assert` (a tutorial uses it without
// <cassert>), and LibTorch 1.13's linalg::svdvals has a two-argument form
// whose `driver` has no default.
#include <torch/torch.h>

namespace spellings {

double tutorial_assert_and_svdvals() {
  auto A = torch::tensor({{3.0, 0.0}, {0.0, -2.0}}, torch::kDouble);
  auto S = torch::linalg::svdvals(A, c10::nullopt);
  assert(S.numel() == 2);
  auto [U, S2, Vh] = torch::linalg::svd(A, false, c10::nullopt);
  assert(S2.sizes() == S.sizes());
  return S.sum().item<double>();
}

}  // namespace spellings

#include <gtest/gtest.h>

TEST(LibTorchSpellings, AssertAndSvdvalsDriver) {
  EXPECT_DOUBLE_EQ(spellings::tutorial_assert_and_svdvals(), 5.0);  // singular values 3 and 2
  // torch 1.13: torch.linalg.svdvals(A, driver="gesvd") on a CPU tensor raises
  // "keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER backend".
  auto A = torch::eye(2, torch::kDouble);
  try {
    torch::linalg::svdvals(A, "gesvd");
    ADD_FAILURE() << "svdvals with a driver on the CPU did not raise";
  } catch (const c10::Error& e) {
    EXPECT_NE(std::string(e.what()).find("only supported on CUDA inputs"), std::string::npos) << e.what();
  }
}
