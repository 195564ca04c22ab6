#include "ember/distributed/store/hash_store.h"

#include "ember/core/error.h"

namespace torch::distributed {

void HashStore::set(const std::string& key, const std::vector<uint8_t>& value) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    map_[key] = value;
  }
  cv_.notify_all();
}

std::vector<uint8_t> HashStore::get(const std::string& key) {
  wait({key});
  std::lock_guard<std::mutex> lock(mu_);
  return map_.at(key);
}

int64_t HashStore::add(const std::string& key, int64_t amount) {
  int64_t v = amount;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(key);
    if (it != map_.end()) v += store_detail::parse_counter(it->second, key);
    map_[key] = store_detail::counter_bytes(v);
  }
  cv_.notify_all();
  return v;
}

std::vector<uint8_t> HashStore::compare_set(const std::string& key, const std::vector<uint8_t>& expected,
                                            const std::vector<uint8_t>& desired) {
  std::vector<uint8_t> result;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(key);
    if (it == map_.end()) {
      if (!expected.empty()) return expected;  // c10d: a missing key is left alone unless expected is empty
      map_[key] = desired;
      result = desired;
    } else if (it->second == expected) {
      it->second = desired;
      result = desired;
    } else {
      return it->second;
    }
  }
  cv_.notify_all();
  return result;
}

bool HashStore::delete_key(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  return map_.erase(key) > 0;
}

int64_t HashStore::num_keys() {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int64_t>(map_.size());
}

bool HashStore::has_all(const std::vector<std::string>& keys) const {
  for (const auto& k : keys)
    if (!map_.count(k)) return false;
  return true;
}

bool HashStore::check(const std::vector<std::string>& keys) {
  std::lock_guard<std::mutex> lock(mu_);
  return has_all(keys);
}

void HashStore::wait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout) {
  timeout = effective(timeout);
  std::unique_lock<std::mutex> lock(mu_);
  bool ok = cv_.wait_for(lock, timeout, [&] { return has_all(keys); });
  EMBER_CHECK(ok, "HashStore.wait: timed out after ", timeout.count(), " ms waiting for keys ",
              store_detail::keys_str(keys));
}

}  // namespace torch::distributed
