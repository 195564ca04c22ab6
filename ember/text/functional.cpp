#include "ember/text/functional.h"

#include <algorithm>
#include <charconv>

#include "ember/core/error.h"
#include "ember/nn/utils/rnn.h"
#include "ember/ops/factory/factory.h"

namespace torch::text::functional {
namespace {

Tensor long_tensor(const std::vector<int64_t>& values) {
  Tensor t = torch::empty({static_cast<int64_t>(values.size())}, TensorOptions().dtype(kLong));
  std::copy(values.begin(), values.end(), t.data_ptr<int64_t>());
  return t;
}

template <typename T>
std::vector<T> slice_prefix(const std::vector<T>& v, int64_t n) {
  int64_t size = static_cast<int64_t>(v.size());
  int64_t end = n >= 0 ? std::min(n, size) : std::max<int64_t>(size + n, 0);
  return std::vector<T>(v.begin(), v.begin() + end);
}

template <typename T>
std::vector<T> with_token(const std::vector<T>& v, const T& token, bool begin) {
  std::vector<T> out;
  out.reserve(v.size() + 1);
  if (begin) out.push_back(token);
  out.insert(out.end(), v.begin(), v.end());
  if (!begin) out.push_back(token);
  return out;
}

}  // namespace

Tensor to_tensor(const std::vector<int64_t>& input, std::optional<int64_t> padding_value, ScalarType dtype) {
  Tensor t = long_tensor(input);
  return dtype == kLong ? t : t.to(dtype);
}

Tensor to_tensor(const std::vector<std::vector<int64_t>>& input, std::optional<int64_t> padding_value,
                 ScalarType dtype) {
  if (!padding_value) {
    for (const auto& row : input)
      EMBER_CHECK(row.size() == input[0].size(), "to_tensor: sequences have different lengths (", input[0].size(),
                  " and ", row.size(), ") and padding_value is None");
    int64_t cols = input.empty() ? 0 : static_cast<int64_t>(input[0].size());
    Tensor t = torch::empty({static_cast<int64_t>(input.size()), cols}, TensorOptions().dtype(kLong));
    int64_t* p = t.data_ptr<int64_t>();
    for (const auto& row : input) p = std::copy(row.begin(), row.end(), p);
    return dtype == kLong ? t : t.to(dtype);
  }
  std::vector<Tensor> rows;
  rows.reserve(input.size());
  for (const auto& row : input) rows.push_back(long_tensor(row));
  EMBER_CHECK(!rows.empty(), "to_tensor: the batch is empty");
  Tensor t = torch::nn::utils::rnn::pad_sequence(rows, /*batch_first=*/true, static_cast<double>(*padding_value));
  return dtype == kLong ? t : t.to(dtype);
}

std::vector<int64_t> truncate(const std::vector<int64_t>& input, int64_t max_seq_len) {
  return slice_prefix(input, max_seq_len);
}
std::vector<std::string> truncate(const std::vector<std::string>& input, int64_t max_seq_len) {
  return slice_prefix(input, max_seq_len);
}
std::vector<std::vector<int64_t>> truncate(const std::vector<std::vector<int64_t>>& input, int64_t max_seq_len) {
  std::vector<std::vector<int64_t>> out;
  for (const auto& v : input) out.push_back(slice_prefix(v, max_seq_len));
  return out;
}
std::vector<std::vector<std::string>> truncate(const std::vector<std::vector<std::string>>& input,
                                               int64_t max_seq_len) {
  std::vector<std::vector<std::string>> out;
  for (const auto& v : input) out.push_back(slice_prefix(v, max_seq_len));
  return out;
}

std::vector<int64_t> add_token(const std::vector<int64_t>& input, int64_t token_id, bool begin) {
  return with_token(input, token_id, begin);
}
std::vector<std::string> add_token(const std::vector<std::string>& input, const std::string& token_id, bool begin) {
  return with_token(input, token_id, begin);
}
std::vector<std::vector<int64_t>> add_token(const std::vector<std::vector<int64_t>>& input, int64_t token_id,
                                            bool begin) {
  std::vector<std::vector<int64_t>> out;
  for (const auto& v : input) out.push_back(with_token(v, token_id, begin));
  return out;
}
std::vector<std::vector<std::string>> add_token(const std::vector<std::vector<std::string>>& input,
                                                const std::string& token_id, bool begin) {
  std::vector<std::vector<std::string>> out;
  for (const auto& v : input) out.push_back(with_token(v, token_id, begin));
  return out;
}

std::vector<int64_t> str_to_int(const std::vector<std::string>& input) {
  std::vector<int64_t> out;
  out.reserve(input.size());
  for (const auto& s : input) {
    // Python's int(): surrounding whitespace and a sign are allowed.
    size_t b = s.find_first_not_of(" \t\n\r\f\v"), e = s.find_last_not_of(" \t\n\r\f\v");
    std::string_view v = b == std::string::npos ? std::string_view() : std::string_view(s).substr(b, e - b + 1);
    if (!v.empty() && v[0] == '+') v.remove_prefix(1);
    int64_t x = 0;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    EMBER_CHECK(!v.empty() && ec == std::errc() && ptr == v.data() + v.size(),
                "str_to_int: invalid literal for int() with base 10: '", s, "'");
    out.push_back(x);
  }
  return out;
}

std::vector<std::vector<int64_t>> str_to_int(const std::vector<std::vector<std::string>>& input) {
  std::vector<std::vector<int64_t>> out;
  for (const auto& v : input) out.push_back(str_to_int(v));
  return out;
}

}  // namespace torch::text::functional
