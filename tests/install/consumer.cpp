#include <ember/torch.h>

#include <iostream>

int main() {
  auto a = torch::ones({2, 2});
  std::cout << a << "\n";
  return a.sum().item<float>() == 4.0f ? 0 : 1;
}
