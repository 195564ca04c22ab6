#include "ember/distributed/gloo/gloo_store.h"

namespace torch::distributed::gloo_detail {

void GlooStore::set(const std::string& key, const std::vector<char>& data) {
  store_->set(key, std::vector<uint8_t>(data.begin(), data.end()));
}

std::vector<char> GlooStore::get(const std::string& key) {
  auto v = store_->get(key);
  return {v.begin(), v.end()};
}

void GlooStore::wait(const std::vector<std::string>& keys) { store_->wait(keys); }

void GlooStore::wait(const std::vector<std::string>& keys, const std::chrono::milliseconds& timeout) {
  store_->wait(keys, timeout);
}

}  // namespace torch::distributed::gloo_detail
