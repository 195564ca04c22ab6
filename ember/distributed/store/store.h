#pragma once
// Store: the key-value rendezvous every process group starts from
// (torch.distributed.Store). Keys are strings, values are bytes; add() keeps a
// decimal counter, as c10d does, so a counter is readable with get().
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ember/core/namespace.h"

namespace torch::distributed {

class Store : public std::enable_shared_from_this<Store> {
 public:
  static constexpr std::chrono::milliseconds kDefaultTimeout{std::chrono::seconds(300)};
  // wait()/get() with this timeout use the store's own timeout.
  static constexpr std::chrono::milliseconds kNoTimeout{std::chrono::milliseconds::zero()};

  explicit Store(std::chrono::milliseconds timeout = kDefaultTimeout) : timeout_(timeout) {}
  virtual ~Store() = default;
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  virtual void set(const std::string& key, const std::vector<uint8_t>& value) = 0;
  void set(const std::string& key, const std::string& value);
  // Blocks until the key exists or the store's timeout passes (an ember::Error).
  virtual std::vector<uint8_t> get(const std::string& key) = 0;
  // Adds to the integer counter at key (created as 0) and returns the new value.
  virtual int64_t add(const std::string& key, int64_t amount) = 0;
  // Sets key to desired if its value is expected (or if it is missing and
  // expected is empty); returns the value the key holds afterwards.
  virtual std::vector<uint8_t> compare_set(const std::string& key, const std::vector<uint8_t>& expected,
                                           const std::vector<uint8_t>& desired) = 0;
  std::vector<uint8_t> compare_set(const std::string& key, const std::string& expected, const std::string& desired);
  virtual bool delete_key(const std::string& key) = 0;
  virtual int64_t num_keys() = 0;
  // Whether every key exists, without waiting.
  virtual bool check(const std::vector<std::string>& keys) = 0;
  void wait(const std::vector<std::string>& keys) { wait(keys, timeout_); }
  virtual void wait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout) = 0;

  // A handle with its own connection, for a thread that must not wait behind
  // another's blocking call (stores without connections return themselves).
  virtual std::shared_ptr<Store> clone();

  void set_timeout(std::chrono::milliseconds timeout) { timeout_ = timeout; }
  std::chrono::milliseconds timeout() const { return timeout_; }

 protected:
  std::chrono::milliseconds effective(std::chrono::milliseconds t) const { return t == kNoTimeout ? timeout_ : t; }

 private:
  std::chrono::milliseconds timeout_;
};

// The value of an add() counter, as every store keeps it: decimal text.
namespace store_detail {
int64_t parse_counter(const std::vector<uint8_t>& value, const std::string& key);
std::vector<uint8_t> counter_bytes(int64_t v);
std::string keys_str(const std::vector<std::string>& keys);
}  // namespace store_detail

}  // namespace torch::distributed
