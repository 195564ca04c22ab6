#include "ember/distributed/store/prefix_store.h"

#include "ember/core/error.h"

namespace torch::distributed {

PrefixStore::PrefixStore(std::string prefix, std::shared_ptr<Store> store)
    : Store(store ? store->timeout() : kDefaultTimeout), prefix_(std::move(prefix)), store_(std::move(store)) {
  EMBER_CHECK(store_ != nullptr, "PrefixStore: the underlying store is null");
}

std::vector<std::string> PrefixStore::keys(const std::vector<std::string>& ks) const {
  std::vector<std::string> out;
  out.reserve(ks.size());
  for (const auto& k : ks) out.push_back(key(k));
  return out;
}

void PrefixStore::set(const std::string& k, const std::vector<uint8_t>& value) { store_->set(key(k), value); }
// Waits with this store's timeout, which set_timeout may have changed from the underlying one's.
std::vector<uint8_t> PrefixStore::get(const std::string& k) {
  store_->wait({key(k)}, timeout());
  return store_->get(key(k));
}
int64_t PrefixStore::add(const std::string& k, int64_t amount) { return store_->add(key(k), amount); }
std::vector<uint8_t> PrefixStore::compare_set(const std::string& k, const std::vector<uint8_t>& expected,
                                              const std::vector<uint8_t>& desired) {
  return store_->compare_set(key(k), expected, desired);
}
bool PrefixStore::delete_key(const std::string& k) { return store_->delete_key(key(k)); }
// As c10d: the underlying store's count (a prefix cannot list its own keys).
int64_t PrefixStore::num_keys() { return store_->num_keys(); }
bool PrefixStore::check(const std::vector<std::string>& ks) { return store_->check(keys(ks)); }
void PrefixStore::wait(const std::vector<std::string>& ks, std::chrono::milliseconds timeout) {
  store_->wait(keys(ks), effective(timeout));
}

}  // namespace torch::distributed
