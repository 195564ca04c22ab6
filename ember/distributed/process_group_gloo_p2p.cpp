// ProcessGroupGloo's point-to-point ops and monitored_barrier: they do not go
// through the worker queue (a posted recv must not block the collectives
// behind it).
#include <gloo/common/error.h>
#include <gloo/context.h>
#include <gloo/transport/unbound_buffer.h>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/distributed/gloo/tensor_wire.h"
#include "ember/distributed/process_group_gloo.h"
#include "ember/distributed/store/socket.h"

namespace torch::distributed {
namespace {

// Below Gloo's collective slots, which carry their prefix in the top byte (c10d's layout).
constexpr uint64_t kSendRecvSlotPrefix = 0x09;
uint64_t p2p_slot(int64_t tag) { return (static_cast<uint64_t>(tag) << 8) | kSendRecvSlotPrefix; }

// A posted send or recv; waiting completes it (and copies a recv into a
// non-contiguous destination). Destroyed unwaited, it waits first: the
// transport may still be writing into its buffer.
class P2PWork : public Work {
 public:
  P2PWork(const char* op, bool is_send, gloo_detail::WireTensor wire,
          std::unique_ptr<::gloo::transport::UnboundBuffer> buffer, std::chrono::milliseconds timeout,
          std::string where)
      : Work(op, {wire.user}),
        is_send_(is_send),
        wire_(std::move(wire)),
        buffer_(std::move(buffer)),
        timeout_(timeout),
        where_(std::move(where)) {}
  ~P2PWork() override {
    try {
      complete(timeout_);
    } catch (...) {
    }
  }

  bool wait(std::chrono::milliseconds timeout) override {
    complete(timeout == kNoTimeout ? timeout_ : timeout);
    return Work::wait();
  }
  int64_t source_rank() override {
    std::lock_guard<std::mutex> lock(mu_);
    return source_;
  }

 private:
  void complete(std::chrono::milliseconds timeout) {
    std::lock_guard<std::mutex> once(wait_mu_);
    if (done_) return;
    done_ = true;
    std::exception_ptr error;
    try {
      int src = -1;
      bool ok = is_send_ ? buffer_->waitSend(&src, timeout) : buffer_->waitRecv(&src, timeout);
      EMBER_CHECK(ok, op(), ": aborted ", where_);
      if (!is_send_) {
        NoGradGuard no_grad;
        wire_.copy_back();
      }
      std::lock_guard<std::mutex> lock(mu_);
      source_ = src;
    } catch (const Error&) {
      error = std::current_exception();
    } catch (const std::exception& e) {
      std::string what = e.what();
      bool timed_out = what.find("imed out") != std::string::npos;
      try {
        EMBER_ERROR(op(), ": ", timed_out ? "timed out after " + std::to_string(timeout.count()) + " ms" : "failed",
                    " ", where_, " [", what, "]");
      } catch (...) {
        error = std::current_exception();
      }
    }
    finish(error);
  }

  bool is_send_;
  gloo_detail::WireTensor wire_;
  std::unique_ptr<::gloo::transport::UnboundBuffer> buffer_;
  std::chrono::milliseconds timeout_;
  std::string where_;
  std::mutex wait_mu_;
  bool done_ = false;
  int64_t source_ = -1;
};

}  // namespace

std::shared_ptr<Work> ProcessGroupGloo::post_p2p(bool is_send, std::vector<Tensor>& tensors, std::vector<int> peers,
                                                 int64_t tag, const char* op) {
  Tensor t = gloo_detail::single_tensor(tensors, op);
  EMBER_CHECK(tag >= 0 && tag <= 0xffffffffLL, op, ": tag ", tag, " is out of range [0, 2^32)");
  auto wire = gloo_detail::to_wire(t, /*read=*/is_send);
  auto buffer = context_->createUnboundBuffer(wire.buffer.data_ptr(), gloo_detail::bytes_of(wire.buffer));
  std::string where = std::string(is_send ? "to" : "from") + " rank " +
                      (peers.size() == 1 ? std::to_string(peers[0]) : std::string("any")) + " in process group '" +
                      options_.group_name + "' (rank " + std::to_string(rank_) + ")";
  if (is_send)
    buffer->send(peers[0], p2p_slot(tag));
  else if (peers.size() == 1)
    buffer->recv(peers[0], p2p_slot(tag));
  else
    buffer->recv(peers, p2p_slot(tag));
  return std::make_shared<P2PWork>(op, is_send, std::move(wire), std::move(buffer), options_.timeout, where);
}

std::shared_ptr<Work> ProcessGroupGloo::send(std::vector<Tensor>& tensors, int64_t dstRank, int64_t tag) {
  check_rank(dstRank, "send", "dst");
  EMBER_CHECK(dstRank != rank_, "send: rank ", rank_, " cannot send to itself");
  return post_p2p(true, tensors, {static_cast<int>(dstRank)}, tag, "send");
}

std::shared_ptr<Work> ProcessGroupGloo::recv(std::vector<Tensor>& tensors, int64_t srcRank, int64_t tag) {
  check_rank(srcRank, "recv", "src");
  EMBER_CHECK(srcRank != rank_, "recv: rank ", rank_, " cannot receive from itself");
  return post_p2p(false, tensors, {static_cast<int>(srcRank)}, tag, "recv");
}

std::shared_ptr<Work> ProcessGroupGloo::recvAnysource(std::vector<Tensor>& tensors, int64_t tag) {
  std::vector<int> peers;
  for (int64_t r = 0; r < size_; ++r)
    if (r != rank_) peers.push_back(static_cast<int>(r));
  EMBER_CHECK(!peers.empty(), "recv: a group of one rank has no one to receive from");
  return post_p2p(false, tensors, peers, tag, "recv");
}

// Note [monitored_barrier through the store]
// Every rank but 0 reports its arrival under a key and waits for rank 0's
// release; rank 0 waits for each report with what is left of the timeout, so
// it can name the ranks that did not come (the first one, or all of them with
// wait_all_ranks). Going through the store, not Gloo, keeps that possible when
// a rank is dead.
void ProcessGroupGloo::monitored_barrier(const BarrierOptions& opts, bool wait_all_ranks) {
  auto timeout = effective(opts.timeout);
  std::string base = "monitored_barrier/" + std::to_string(++monitored_barriers_) + "/";
  if (rank_ != 0) {
    store_->set(base + "arrived/" + std::to_string(rank_), std::string("1"));
    try {
      store_->wait({base + "done"}, timeout);
    } catch (const Error&) {
      EMBER_ERROR("monitored_barrier: rank ", rank_, " of process group '", options_.group_name, "' timed out after ",
                  timeout.count(), " ms waiting for rank 0 to release the barrier");
    }
    return;
  }
  auto deadline = store_detail::Clock::now() + timeout;
  std::vector<int64_t> missing;
  for (int64_t r = 1; r < size_; ++r) {
    std::string key = base + "arrived/" + std::to_string(r);
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - store_detail::Clock::now());
    bool arrived = false;
    if (left.count() > 0) {
      try {
        store_->wait({key}, left);
        arrived = true;
      } catch (const Error&) {
      }
    } else {
      arrived = store_->check({key});
    }
    if (!arrived) {
      missing.push_back(r);
      if (!wait_all_ranks) break;
    }
  }
  if (missing.empty()) {
    store_->set(base + "done", std::string("1"));
    return;
  }
  std::string list;
  for (size_t i = 0; i < missing.size(); ++i) list += (i ? ", " : "") + std::to_string(missing[i]);
  EMBER_ERROR("monitored_barrier: ", missing.size() == 1 ? "rank " : "ranks ", list, " of process group '",
              options_.group_name, "' failed to pass monitoredBarrier in ", timeout.count(), " ms");
}

}  // namespace torch::distributed
