#pragma once
// The TCP store's server: one thread in the master's process that owns the
// key-value map and serves every client over the frames of Note [Store frames].
#include <map>
#include <memory>
#include <thread>

#include "ember/distributed/store/socket.h"
#include "ember/distributed/store/store_frame.h"

namespace torch::distributed::store_detail {

class TCPStoreServer {
 public:
  // Binds (port 0 picks a free one) before returning, so a port in use raises here.
  explicit TCPStoreServer(uint16_t port);
  ~TCPStoreServer();
  TCPStoreServer(const TCPStoreServer&) = delete;
  TCPStoreServer& operator=(const TCPStoreServer&) = delete;
  uint16_t port() const { return port_; }

 private:
  struct Conn;
  void run();
  // Handles every complete request in c's input; false when c must be dropped.
  bool serve(Conn& c);
  void handle(Conn& c, const StoreRequest& req);
  void wake_waiters();

  Fd listener_;
  Fd wake_read_, wake_write_;
  uint16_t port_ = 0;
  std::map<std::string, std::vector<uint8_t>> map_;  // touched only by the server thread
  std::map<int, std::unique_ptr<Conn>> conns_;
  std::thread thread_;
};

}  // namespace torch::distributed::store_detail
