// Prints every case of print_cases.h with LibTorch; the output is the golden
// file tests/golden/print.txt. Build and run with tools/golden/gen_print.sh.
#include <torch/torch.h>

#include <iostream>

#include "print_cases.h"

int main() {
  for (auto& [name, t] : print_cases()) std::cout << "=== " << name << "\n" << t << "\n";
}
