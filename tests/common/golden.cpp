#include "common/golden.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "common/test_util.h"

namespace torch::testing {

ScalarType parse_dtype(const std::string& n) {
  static const std::map<std::string, ScalarType> kMap = {{"bool", kBool},
                                                         {"uint8", kByte},
                                                         {"int8", kChar},
                                                         {"int16", kShort},
                                                         {"int32", kInt},
                                                         {"int64", kLong},
                                                         {"float16", kHalf},
                                                         {"bfloat16", kBFloat16},
                                                         {"float32", kFloat},
                                                         {"float64", kDouble},
                                                         {"complex64", kComplexFloat},
                                                         {"complex128", kComplexDouble}};
  auto it = kMap.find(n);
  EMBER_CHECK(it != kMap.end(), "golden: unknown dtype '", n, "'");
  return it->second;
}

namespace {
double parse_number(const std::string& tok) {
  if (tok == "nan") return NAN;
  if (tok == "inf") return INFINITY;
  if (tok == "-inf") return -INFINITY;
  // strtod, not stod: stod throws on subnormals (it reports their ERANGE).
  char* end = nullptr;
  const double v = std::strtod(tok.c_str(), &end);
  EMBER_CHECK(end != tok.c_str() && *end == '\0', "golden: not a number '", tok, "'");
  return v;
}
}  // namespace

Golden::Golden(const std::string& file) {
  std::string path = std::string(EMBER_GOLDEN_DIR) + "/" + file;
  std::ifstream in(path);
  EMBER_CHECK(in.good(), "golden: cannot open ", path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::stringstream ss(line);
    std::string name, dt, shape, vals;
    std::getline(ss, name, '|');
    std::getline(ss, dt, '|');
    std::getline(ss, shape, '|');
    std::getline(ss, vals);
    std::vector<int64_t> sizes;
    std::stringstream sh(shape);
    for (std::string s; std::getline(sh, s, ',');)
      if (!s.empty()) sizes.push_back(std::stoll(s));
    std::vector<double> v;
    std::stringstream vs(vals);
    for (std::string tok; vs >> tok;) v.push_back(parse_number(tok));
    ScalarType t = parse_dtype(dt);
    Tensor x = empty(sizes, TensorOptions(t));
    const int64_t n = x.numel();
    EMBER_CHECK(static_cast<int64_t>(v.size()) == n * (is_complex(t) ? 2 : 1), "golden: entry ", name, " has ",
                v.size(), " values for shape ", shape_str(sizes));
    dispatch_all(t, "golden", [&](auto tag) {
      using T = EMBER_TYPE(tag);
      T* p = x.data_ptr<T>();
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (is_complex_v<T>) {
          p[i] = T(static_cast<value_t<T>>(v[2 * i]), static_cast<value_t<T>>(v[2 * i + 1]));
        } else if constexpr (std::is_same_v<T, bool>) {
          p[i] = v[i] != 0;
        } else if constexpr (std::is_integral_v<T>) {
          p[i] = static_cast<T>(static_cast<int64_t>(v[i]));
        } else {
          p[i] = static_cast<T>(static_cast<opmath_t<T>>(v[i]));
        }
      }
    });
    entries_[name] = x;
  }
}

Tensor Golden::operator[](const std::string& name) const {
  auto it = entries_.find(name);
  EMBER_CHECK(it != entries_.end(), "golden: no entry named '", name, "'");
  return it->second;
}

std::vector<std::string> Golden::names_with_prefix(const std::string& prefix) const {
  std::vector<std::string> out;
  for (const auto& [k, v] : entries_)
    if (k.rfind(prefix, 0) == 0) out.push_back(k);
  return out;
}

void expect_golden_case(const Golden& g, const std::string& name, int n_inputs,
                        const std::function<Tensor(const std::vector<Tensor>&)>& f) {
  SCOPED_TRACE(name);
  std::vector<Tensor> xs;
  for (int i = 0; i < n_inputs; ++i) xs.push_back(g[name + ".x" + std::to_string(i)].clone().requires_grad_(true));
  Tensor y = f(xs);
  EXPECT_TENSOR_CLOSE(y, g[name + ".y"]);
  y.backward(g[name + ".gy"]);
  for (int i = 0; i < n_inputs; ++i) {
    const Tensor expected = g[name + ".gx" + std::to_string(i)];
    // An input the output does not depend on gets no gradient; PyTorch's is written as zeros.
    EXPECT_TENSOR_CLOSE(xs[i].grad().defined() ? xs[i].grad() : zeros_like(expected), expected);
  }
}

}  // namespace torch::testing
