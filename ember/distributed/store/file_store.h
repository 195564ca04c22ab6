#pragma once
// FileStore (torch.distributed.FileStore): a store in one file that every
// process opens, for machines that share a file system. The file is an
// append-only log of set/delete records, read whole under flock(2) on every
// call; the last of world_size processes to destroy its FileStore removes it.
#include <map>
#include <mutex>

#include "ember/distributed/store/store.h"

namespace torch::distributed {

class FileStore : public Store {
 public:
  // world_size -1: the file is never removed.
  FileStore(std::string file_name, int64_t world_size = -1);
  ~FileStore() override;

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

  const std::string& path() const { return path_; }

 private:
  using Map = std::map<std::string, std::vector<uint8_t>>;
  // Runs f(map, append) with the file locked; append(key, value-or-null) logs a record.
  template <typename F>
  auto locked(F&& f);

  std::string path_;
  int64_t world_size_;
  std::mutex mu_;  // flock locks per open file description, not per thread
};

}  // namespace torch::distributed
