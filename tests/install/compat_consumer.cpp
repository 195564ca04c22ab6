// Written as a LibTorch program: only the include and the link target differ.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::Tensor a = torch::ones({2, 2}, torch::kFloat32);
  at::Tensor b = a * 2;
  std::cout << b << "\n";
  return b.sum().item<float>() == 8.0f ? 0 : 1;
}
