#pragma once
// PrefixStore: every key of an underlying store behind "<prefix>/"
// (torch.distributed.PrefixStore); how subgroups share one rendezvous.
#include "ember/distributed/store/store.h"

namespace torch::distributed {

class PrefixStore : public Store {
 public:
  PrefixStore(std::string prefix, std::shared_ptr<Store> store);
  void set(const std::string& key, const std::vector<uint8_t>& value) override;
  using Store::set;
  std::vector<uint8_t> get(const std::string& key) override;
  int64_t add(const std::string& key, int64_t amount) override;
  std::vector<uint8_t> compare_set(const std::string& key, const std::vector<uint8_t>& expected,
                                   const std::vector<uint8_t>& desired) override;
  using Store::compare_set;
  bool delete_key(const std::string& key) override;
  int64_t num_keys() override;
  bool check(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout) override;
  using Store::wait;

  std::shared_ptr<Store> clone() override { return std::make_shared<PrefixStore>(prefix_, store_->clone()); }

  const std::shared_ptr<Store>& underlying_store() const { return store_; }

 private:
  std::string key(const std::string& k) const { return prefix_ + "/" + k; }
  std::vector<std::string> keys(const std::vector<std::string>& ks) const;
  std::string prefix_;
  std::shared_ptr<Store> store_;
};

}  // namespace torch::distributed
