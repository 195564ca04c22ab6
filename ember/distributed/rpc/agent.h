#pragma once
// The RPC agent (Note [RPC design] in api.h): one per process between
// init_rpc and shutdown. It owns the listening socket, a connection per peer
// it calls, the connections peers opened to it, the pool that runs incoming
// calls, the table of RRefs this worker owns, and the replies it waits for.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "ember/distributed/rpc/api.h"
#include "ember/distributed/rpc/frame.h"
#include "ember/distributed/store/socket.h"
#include "ember/distributed/store/store.h"

namespace torch::distributed::rpc::detail {

struct RRefState {
  int64_t id = 0;
  WorkerInfo owner;
  bool is_owner = false;
  Future created;  // completes (with None) when the owner holds the value
  ~RRefState();
};

class Agent : public std::enable_shared_from_this<Agent> {
 public:
  Agent(std::string name, int64_t rank, int64_t world_size, TensorPipeRpcBackendOptions options);
  ~Agent();
  // Publishes this worker's address and learns everyone's (a collective on the store).
  void start(std::shared_ptr<Store> store);
  // Waits for outstanding work, then (graceful) for every worker, and stops.
  void stop(bool graceful);

  // The running agent; raises when RPC is not initialized.
  static std::shared_ptr<Agent> get();
  static std::shared_ptr<Agent> get_if_running();
  static void set(std::shared_ptr<Agent> agent);

  int64_t rank() const { return rank_; }
  const WorkerInfo& info(int64_t rank) const;
  const std::vector<WorkerInfo>& infos() const { return infos_; }
  int64_t resolve(const WorkerRef& to) const;
  std::chrono::milliseconds timeout(std::chrono::milliseconds t) const;

  // Sends one request; the future completes with the reply's payload.
  Future send(int64_t to, MessageType type, Object payload, std::chrono::milliseconds timeout);
  // A unique id across the group (this worker's rank in the high bits).
  int64_t next_id() { return (rank_ << 48) | counter_.fetch_add(1); }

  // Owner side of RRefs.
  Object owner_value(int64_t rref_id);
  size_t num_owned_rrefs();

 private:
  struct Conn {
    store_detail::Fd fd;
    std::mutex write_mu;
    std::thread reader;
    std::atomic<bool> dead{false};
  };
  struct Owned {
    Future value;
    int64_t users = 0;
  };
  void write_frame(Conn& c, MessageType type, uint64_t id, const Object& payload);
  std::shared_ptr<Conn> connection(int64_t to);
  void reply_loop(std::shared_ptr<Conn> c, int64_t peer);
  void accept_loop();
  void serve_loop(std::shared_ptr<Conn> c);
  void handle(const std::shared_ptr<Conn>& c, MessageType type, uint64_t id, Object payload);
  void register_owned(const Object& payload);
  Object call_function(const Object::List& fields, int64_t from);
  void fail_pending(int64_t peer, const std::string& why);
  void submit(std::function<void()> task);
  void pool_loop();
  void wait_idle(std::chrono::milliseconds limit);

  std::string name_;
  int64_t rank_, world_size_;
  TensorPipeRpcBackendOptions options_;
  std::shared_ptr<Store> store_;
  std::vector<WorkerInfo> infos_;
  std::vector<std::pair<std::string, uint16_t>> addrs_;
  store_detail::Fd listener_;
  std::atomic<bool> stopping_{false};
  std::atomic<int64_t> counter_{1};
  std::thread acceptor_;
  std::mutex mu_;  // connections, pending replies, owned RRefs, served connections
  std::condition_variable idle_cv_;
  std::map<int64_t, std::shared_ptr<Conn>> out_;
  std::vector<std::shared_ptr<Conn>> in_;
  std::unordered_map<uint64_t, std::pair<int64_t, Future>> pending_;  // id -> (peer, reply)
  std::unordered_map<int64_t, Owned> owned_;
  // The pool.
  std::mutex pool_mu_;
  std::condition_variable pool_cv_;
  std::deque<std::function<void()>> tasks_;
  std::vector<std::thread> pool_;
  int64_t busy_ = 0;
};

}  // namespace torch::distributed::rpc::detail
