#include "ember/distributed/store/store.h"

#include <charconv>

#include "ember/core/error.h"

namespace torch::distributed {

void Store::set(const std::string& key, const std::string& value) {
  set(key, std::vector<uint8_t>(value.begin(), value.end()));
}

std::vector<uint8_t> Store::compare_set(const std::string& key, const std::string& expected,
                                        const std::string& desired) {
  return compare_set(key, std::vector<uint8_t>(expected.begin(), expected.end()),
                     std::vector<uint8_t>(desired.begin(), desired.end()));
}

std::shared_ptr<Store> Store::clone() {
  auto self = weak_from_this().lock();
  EMBER_CHECK(self != nullptr, "Store.clone: the store must be owned by a std::shared_ptr");
  return self;
}

namespace store_detail {

int64_t parse_counter(const std::vector<uint8_t>& value, const std::string& key) {
  int64_t v = 0;
  const char* b = reinterpret_cast<const char*>(value.data());
  auto [end, ec] = std::from_chars(b, b + value.size(), v);
  EMBER_CHECK(ec == std::errc() && end == b + value.size() && !value.empty(), "Store.add: the value of key '", key,
              "' is not an integer counter");
  return v;
}

std::vector<uint8_t> counter_bytes(int64_t v) {
  std::string s = std::to_string(v);
  return {s.begin(), s.end()};
}

std::string keys_str(const std::vector<std::string>& keys) {
  std::string out = "[";
  for (size_t i = 0; i < keys.size(); ++i) out += (i ? ", '" : "'") + keys[i] + "'";
  return out + "]";
}

}  // namespace store_detail
}  // namespace torch::distributed
