#pragma once
// Note [Heartbeat]
// Each rank of a Gloo process group publishes "<beat> <collectives entered>"
// under heartbeat/<rank> in the group's store a few times a second, on its own
// thread and its own store connection, and reads the others'. When a
// collective fails or times out, the failing rank reads that snapshot (never
// the store, which may be gone with a dead rank 0) to name the ranks that did
// not reach the collective and those that stopped beating (dead or hung).
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "ember/distributed/store/socket.h"
#include "ember/distributed/store/store.h"

namespace torch::distributed::gloo_detail {

class Heartbeat {
 public:
  Heartbeat(std::shared_ptr<Store> store, int64_t rank, int64_t size, std::chrono::milliseconds interval);
  ~Heartbeat();
  Heartbeat(const Heartbeat&) = delete;
  Heartbeat& operator=(const Heartbeat&) = delete;

  // Called as each collective starts, with its 1-based sequence number.
  void entered(int64_t seq) { seq_.store(seq, std::memory_order_relaxed); }
  // This rank's heartbeat rounds so far (each publishes and reads every rank).
  int64_t round();
  // Blocks until `rounds` more rounds have run (or 2 x rounds intervals passed).
  void wait_rounds(int64_t rounds);
  // Which ranks are behind collective `seq`, and which have not beaten since
  // round `since` (dead or hung), in words ("" when none is known).
  std::string diagnose(int64_t seq, int64_t since);

 private:
  struct Peer {
    std::string last;       // the last value read
    int64_t advanced = -1;  // the round in which its beat last moved
    int64_t seq = 0;
    bool seen = false;
  };
  void run();

  std::shared_ptr<Store> store_;
  int64_t rank_, size_;
  std::chrono::milliseconds interval_;
  std::atomic<int64_t> seq_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool store_lost_ = false;
  std::vector<Peer> peers_;
  int64_t rounds_ = 0;
  std::thread thread_;
};

}  // namespace torch::distributed::gloo_detail
