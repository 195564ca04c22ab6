// Written as a LibTorch program: only the include and the link target differ. Its
// CMake project asks for C++17, as LibTorch projects do (tests/install/CMakeLists.txt).
#include <torch/nn/functional.h>
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::Tensor a = torch::ones({2, 2}, torch::kFloat32);
  at::Tensor b = a * 2;
  AT_ASSERT(b.defined());  // c10's macro, used by LibTorch's own examples
  std::cout << std::setprecision(4) << b << "\n";  // <iomanip> through <torch/torch.h>, as in LibTorch
  std::set<int64_t> sizes(b.sizes().begin(), b.sizes().end());
  return b.sum().item<float>() == 8.0f && sizes.size() == 1 ? 0 : 1;
}
