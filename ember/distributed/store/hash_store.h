#pragma once
// HashStore: an in-process store (torch.distributed.HashStore), for threads of
// one process and for tests.
#include <condition_variable>
#include <map>
#include <mutex>

#include "ember/distributed/store/store.h"

namespace torch::distributed {

class HashStore : public Store {
 public:
  HashStore() = default;
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

 private:
  bool has_all(const std::vector<std::string>& keys) const;
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, std::vector<uint8_t>> map_;
};

}  // namespace torch::distributed
