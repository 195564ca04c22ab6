#pragma once
// Gloo rendezvous through an Ember Store: gloo::rendezvous::Context asks a
// gloo::rendezvous::Store for the peers' addresses.
#include <gloo/rendezvous/store.h>

#include <memory>

#include "ember/distributed/store/store.h"

namespace torch::distributed::gloo_detail {

class GlooStore : public ::gloo::rendezvous::Store {
 public:
  explicit GlooStore(std::shared_ptr<distributed::Store> store) : store_(std::move(store)) {}
  void set(const std::string& key, const std::vector<char>& data) override;
  std::vector<char> get(const std::string& key) override;
  void wait(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys, const std::chrono::milliseconds& timeout) override;

 private:
  std::shared_ptr<distributed::Store> store_;
};

}  // namespace torch::distributed::gloo_detail
