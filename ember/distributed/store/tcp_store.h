#pragma once
// TCPStore (torch.distributed.TCPStore): the master process runs the server
// (tcp_store_server.h) on a thread; every process, the master included, is a
// client over one TCP connection.
#include <mutex>
#include <optional>

#include "ember/distributed/store/socket.h"
#include "ember/distributed/store/store.h"
#include "ember/distributed/store/store_frame.h"

namespace torch::distributed {

namespace store_detail {
class TCPStoreServer;
}

class TCPStore : public Store {
 public:
  // port 0 on the master picks a free port (read it back with port()).
  // With world_size and wait_for_workers, the master's constructor returns
  // once world_size clients (itself included) have connected.
  TCPStore(std::string host_name, int64_t port, std::optional<int64_t> world_size = std::nullopt,
           bool is_master = false, std::chrono::milliseconds timeout = kDefaultTimeout, bool wait_for_workers = true,
           bool multi_tenant = false);
  ~TCPStore() override;

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

  std::shared_ptr<Store> clone() override;

  const std::string& host() const { return host_; }
  int64_t port() const { return port_; }
  // The local address of this client's connection: how the master is reached
  // from here, so the address other ranks can reach this process on.
  std::string local_address() const;

 private:
  // Sends one request and reads its reply payload; nullopt when the deadline
  // passed (the connection is then dropped and reopened on the next call).
  std::optional<std::vector<uint8_t>> roundtrip(const store_detail::StoreRequest& req,
                                                store_detail::Clock::time_point deadline, const char* op);
  void connect_locked(store_detail::Clock::time_point deadline);

  std::string host_;
  int64_t port_;
  std::unique_ptr<store_detail::TCPStoreServer> server_;
  std::mutex mu_;  // one request in flight per connection
  store_detail::Fd fd_;
};

}  // namespace torch::distributed
