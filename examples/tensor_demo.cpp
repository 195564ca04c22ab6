// A small tour of Ember's tensors: factories, views, printing.
#include <ember/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(0);
  auto a = torch::arange(6, torch::kFloat).view({2, 3});
  std::cout << "a =\n" << a << "\n\n";
  std::cout << "a.t() =\n" << a.t() << "\n\n";
  auto r = torch::randn({2, 2});
  std::cout << "randn({2, 2}) =\n" << r << "\n\n";
  std::cout << "eye(3) =\n" << torch::eye(3) << "\n\n";
  std::cout << "linspace(0, 1, 5) =\n" << torch::linspace(0, 1, 5) << "\n";
  return 0;
}
