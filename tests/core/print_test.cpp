// std::cout << tensor must match LibTorch's output byte for byte
// (golden: tests/golden/print.txt from tools/golden/gen_print.sh).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "ember/torch.h"

// After the framework header: it names torch:: (and compiles against LibTorch too).
#include "../../tools/golden/print_cases.h"

namespace {
std::map<std::string, std::string> load_expected() {
  std::ifstream in(std::string(EMBER_GOLDEN_DIR) + "/print.txt");
  std::map<std::string, std::string> out;
  std::string line, name, body;
  auto flush = [&] {
    if (!name.empty()) out[name] = body.substr(0, body.empty() ? 0 : body.size() - 1);  // drop the separator newline
  };
  while (std::getline(in, line)) {
    if (line.rfind("=== ", 0) == 0) {
      flush();
      name = line.substr(4);
      body.clear();
    } else {
      body += line + "\n";
    }
  }
  flush();
  return out;
}
}  // namespace

TEST(Print, MatchesLibTorch) {
  auto expected = load_expected();
  auto cases = print_cases();
  ASSERT_EQ(expected.size(), cases.size());
  for (auto& [name, t] : cases) {
    std::ostringstream os;
    os << t;
    ASSERT_TRUE(expected.count(name)) << name;
    EXPECT_EQ(os.str(), expected[name]) << "case " << name;
  }
}

TEST(Print, SizesAndStreamStateRestored) {
  std::ostringstream os;
  os << torch::zeros({6, 1, 3, 3}).sizes();
  EXPECT_EQ(os.str(), "[6, 1, 3, 3]");
  std::ostringstream os2;
  os2 << torch::tensor({0.5}) << 1.25;
  EXPECT_NE(os2.str().find("]1.25"), std::string::npos) << os2.str();
}
