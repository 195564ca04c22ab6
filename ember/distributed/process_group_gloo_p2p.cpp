// ProcessGroupGloo's point-to-point ops and monitored_barrier: they do not go
// through the worker queue (a posted recv must not block the collectives
// behind it).
#include <gloo/common/error.h>
#include <gloo/context.h>
#include <gloo/transport/unbound_buffer.h>

#include <optional>
#include <sstream>
#include <thread>
#include <tuple>

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

std::string p2p_size_key(int src, int dst, int64_t tag, int64_t seq) {
  return "p2p_size/" + std::to_string(src) + "/" + std::to_string(dst) + "/" + std::to_string(tag) + "/" +
         std::to_string(seq);
}

// Note [Point-to-point size check]
// Gloo aborts the receiving process when a message is larger than the posted
// buffer, so (with the collective checks on, EMBER_DISTRIBUTED_CHECK) the
// receive is posted only after the sizes are known to agree: a send publishes
// "<bytes>|<dtype> <shape>" under p2p_size/<src>/<dst>/<tag>/<n> in the store
// (n counts that pair's sends with that tag, matching Gloo's in-order slot
// matching) and posts its data at once; a receive waits for its key on a
// thread of its own and on a second store connection, so neither call blocks
// and batch_isend_irecv in any order cannot deadlock (a send never waits for
// anything, a receive only for the matching send's call). A mismatch fails the
// receive with both sizes and leaves the group unusable (the unread message
// stays in the pair).
//
// Note [Any-source receive size check]
// A receive from any source, checked, finds its sender through the same keys:
// it looks for the next unclaimed p2p_size key of every peer (the per-peer
// sequence numbers above), claims the first that exists, and then receives
// from that peer only, so a message larger than the buffer is an Error naming
// both sizes instead of Gloo's abort. The store has no wait-for-any, so the
// look-up repeats with a backoff from 1 to 16 ms until the group's timeout;
// only these receives wait this way, never a collective or a targeted recv.

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
    if (poster_.joinable()) poster_.join();
  }
  ::gloo::transport::UnboundBuffer& buffer() { return *buffer_; }
  // A mismatched message is still received, into memory of its own size, so
  // the pair stays in step and the group usable.
  void drain(::gloo::Context& context, size_t bytes, int peer, uint64_t slot) {
    scratch_mem_.resize(bytes);
    scratch_ = context.createUnboundBuffer(scratch_mem_.data(), bytes);
    scratch_->recv(peer, slot);
  }
  // The recv is posted by post() on its own thread (Note [Point-to-point size check]).
  void post_later(std::function<void()> post) {
    poster_ = std::thread([this, post = std::move(post)] {
      try {
        post();
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(mu_);
        post_error_ = e.what();
      }
    });
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
    if (poster_.joinable()) poster_.join();
    std::optional<std::string> post_error;
    {
      std::lock_guard<std::mutex> lock(mu_);
      post_error = post_error_;
    }
    if (post_error) {
      if (scratch_) {
        try {
          int src = -1;
          scratch_->waitRecv(&src, timeout);
        } catch (...) {
        }
      }
      try {
        EMBER_ERROR(*post_error);
      } catch (...) {
        finish(std::current_exception());
        return;
      }
    }
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
  std::thread poster_;
  std::optional<std::string> post_error_;
  std::vector<uint8_t> scratch_mem_;
  std::unique_ptr<::gloo::transport::UnboundBuffer> scratch_;
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
  const bool checked = check_collectives_ && peers.size() == 1;
  const size_t nbytes = gloo_detail::bytes_of(wire.buffer);
  std::ostringstream desc;
  desc << nbytes << "|" << dtype_name(t.scalar_type()) << " " << t.sizes();
  if (is_send) {
    if (checked) {
      auto [seq, unused] = next_p2p_seq(true, peers[0], tag);
      store_->set(p2p_size_key(static_cast<int>(rank_), peers[0], tag, seq), desc.str());
    }
    buffer->send(peers[0], p2p_slot(tag));
    return std::make_shared<P2PWork>(op, is_send, std::move(wire), std::move(buffer), options_.timeout, where);
  }
  // Note [Any-source receive size check]; a group not owned by a shared_ptr cannot outlive-check its poster.
  std::weak_ptr<ProcessGroup> self = weak_from_this();
  const bool any_checked = check_collectives_ && peers.size() > 1 && !self.expired();
  if (!checked && !any_checked) {
    if (peers.size() == 1)
      buffer->recv(peers[0], p2p_slot(tag));
    else
      buffer->recv(peers, p2p_slot(tag));
    return std::make_shared<P2PWork>(op, is_send, std::move(wire), std::move(buffer), options_.timeout, where);
  }
  std::shared_ptr<Store> store;
  std::string key;
  int peer = -1;
  if (any_checked) {
    store = next_p2p_seq(false, -1, tag).second;  // only makes the second connection
  } else {
    auto [seq, st] = next_p2p_seq(false, peers[0], tag);
    store = st;
    peer = peers[0];
    key = p2p_size_key(peer, static_cast<int>(rank_), tag, seq);
  }
  auto work = std::make_shared<P2PWork>(op, is_send, std::move(wire), std::move(buffer), options_.timeout, where);
  std::string mine = desc.str();
  auto timeout = options_.timeout;
  P2PWork* w = work.get();
  int me = static_cast<int>(rank_);
  w->post_later([w, self, any_checked, peers, me, store = store, context = context_, key, peer, tag, mine, nbytes,
                 timeout, where]() mutable {
    if (any_checked) {
      std::tie(peer, key) = claim_any_source(self, *store, peers, me, tag, timeout);
    } else {
      try {
        store->wait({key}, timeout);
      } catch (const Error&) {
        EMBER_ERROR("recv: timed out after ", timeout.count(), " ms waiting for the matching send ", where);
      }
    }
    auto v = store->get(key);
    store->delete_key(key);
    std::string theirs(v.begin(), v.end());
    auto bar = theirs.find('|');
    uint64_t their_bytes = 0;
    try {
      their_bytes = std::stoull(theirs.substr(0, bar));
    } catch (const std::exception&) {
      EMBER_ERROR("recv: the matching send ", where, " published a malformed size '", theirs, "'");
    }
    if (their_bytes != nbytes) {
      std::string msg = "recv: rank " + std::to_string(peer) + " sent " + theirs.substr(0, bar) + " bytes (" +
                        (bar == std::string::npos ? "?" : theirs.substr(bar + 1)) + ") with tag " +
                        std::to_string(tag) + ", but this recv " + where + " expects " + std::to_string(nbytes) +
                        " bytes (" + mine.substr(mine.find('|') + 1) + ")";
      if (their_bytes <= (uint64_t{1} << 31)) w->drain(*context, static_cast<size_t>(their_bytes), peer, p2p_slot(tag));
      EMBER_ERROR(msg);
    }
    w->buffer().recv(peer, p2p_slot(tag));
  });
  return work;
}

std::pair<int64_t, std::shared_ptr<Store>> ProcessGroupGloo::next_p2p_seq(bool is_send, int peer, int64_t tag) {
  std::lock_guard<std::mutex> lock(p2p_mu_);
  if (!is_send && !p2p_store_) p2p_store_ = store_->clone();
  if (peer < 0) return {-1, p2p_store_};
  auto& seqs = is_send ? send_seq_ : recv_seq_;
  return {seqs[{peer, tag}]++, p2p_store_};
}

std::pair<int, std::string> ProcessGroupGloo::claim_any_source(const std::weak_ptr<ProcessGroup>& self, Store& store,
                                                               const std::vector<int>& peers, int me, int64_t tag,
                                                               std::chrono::milliseconds timeout) {
  auto deadline = store_detail::Clock::now() + timeout;
  auto pause = std::chrono::milliseconds(1);
  for (;;) {
    for (int p : peers) {
      int64_t seq;
      {
        auto group = self.lock();
        EMBER_CHECK(group != nullptr, "recv: the process group was destroyed while a receive from any source waited");
        auto& g = static_cast<ProcessGroupGloo&>(*group);
        std::lock_guard<std::mutex> lock(g.p2p_mu_);
        seq = g.recv_seq_[{p, tag}];
      }
      std::string key = p2p_size_key(p, me, tag, seq);
      if (!store.check({key})) continue;
      auto group = self.lock();
      EMBER_CHECK(group != nullptr, "recv: the process group was destroyed while a receive from any source waited");
      auto& g = static_cast<ProcessGroupGloo&>(*group);
      std::lock_guard<std::mutex> lock(g.p2p_mu_);
      int64_t& next = g.recv_seq_[{p, tag}];
      if (next != seq) continue;  // a targeted recv or another any-source recv took it meanwhile
      ++next;
      return {p, key};
    }
    EMBER_CHECK(store_detail::Clock::now() < deadline, "recv: timed out after ", timeout.count(),
                " ms waiting for a message with tag ", tag, " from any rank (rank ", me, ")");
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(16));
  }
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
