#pragma once
// ProcessGroupGloo (torch.distributed.ProcessGroupGloo): collectives on Gloo
// over TCP. Collectives run in issue order on the group's worker thread
// (gloo/work_queue.h); point-to-point ops post to Gloo at once. Failures and
// timeouts come back as an ember::Error naming the op, the group and what the
// heartbeat (Note [Heartbeat]) knows of the ranks that did not take part.
#include <atomic>
#include <map>
#include <memory>
#include <mutex>

#include "ember/distributed/process_group.h"
#include "ember/distributed/store/store.h"

namespace gloo {
class Context;
}

namespace torch::distributed {

namespace gloo_detail {
class Heartbeat;
class WorkQueue;
}  // namespace gloo_detail

class ProcessGroupGloo : public ProcessGroup {
 public:
  struct Options {
    std::chrono::milliseconds timeout = default_pg_timeout;
    // The address other ranks reach this one on; empty: derived from the
    // store's connection (TCPStore), else GLOO_SOCKET_IFNAME, else loopback.
    std::string hostname;
    // Exchange each collective's dtype and shape first and raise on a
    // mismatch across ranks (Note [Collective header check]); default: on
    // unless EMBER_DISTRIBUTED_CHECK=0.
    std::optional<bool> check_collectives;
    std::string group_name = "default";
  };

  ProcessGroupGloo(const std::shared_ptr<Store>& store, int64_t rank, int64_t size, Options options);
  ProcessGroupGloo(const std::shared_ptr<Store>& store, int64_t rank, int64_t size)
      : ProcessGroupGloo(store, rank, size, Options()) {}
  ~ProcessGroupGloo() override;

  std::string getBackendName() const override { return "gloo"; }
  const std::string& group_name() const override { return options_.group_name; }
  std::chrono::milliseconds timeout() const { return options_.timeout; }
  const std::shared_ptr<Store>& store() const { return store_; }

  std::shared_ptr<Work> broadcast(std::vector<Tensor>& tensors, const BroadcastOptions& opts = {}) override;
  std::shared_ptr<Work> allreduce(std::vector<Tensor>& tensors, const AllreduceOptions& opts = {}) override;
  std::shared_ptr<Work> reduce(std::vector<Tensor>& tensors, const ReduceOptions& opts = {}) override;
  std::shared_ptr<Work> allgather(std::vector<std::vector<Tensor>>& outputs, std::vector<Tensor>& inputs,
                                  const AllgatherOptions& opts = {}) override;
  std::shared_ptr<Work> _allgather_base(Tensor& output, Tensor& input, const AllgatherOptions& opts = {}) override;
  std::shared_ptr<Work> gather(std::vector<std::vector<Tensor>>& outputs, std::vector<Tensor>& inputs,
                               const GatherOptions& opts = {}) override;
  std::shared_ptr<Work> scatter(std::vector<Tensor>& outputs, std::vector<std::vector<Tensor>>& inputs,
                                const ScatterOptions& opts = {}) override;
  std::shared_ptr<Work> reduce_scatter(std::vector<Tensor>& outputs, std::vector<std::vector<Tensor>>& inputs,
                                       const ReduceScatterOptions& opts = {}) override;
  std::shared_ptr<Work> alltoall_base(Tensor& output, Tensor& input, std::vector<int64_t>& outputSplitSizes,
                                      std::vector<int64_t>& inputSplitSizes, const AllToAllOptions& opts = {}) override;
  std::shared_ptr<Work> alltoall(std::vector<Tensor>& outputs, std::vector<Tensor>& inputs,
                                 const AllToAllOptions& opts = {}) override;
  std::shared_ptr<Work> barrier(const BarrierOptions& opts = {}) override;
  void monitored_barrier(const BarrierOptions& opts = {}, bool wait_all_ranks = false) override;
  std::shared_ptr<Work> send(std::vector<Tensor>& tensors, int64_t dstRank, int64_t tag) override;
  std::shared_ptr<Work> recv(std::vector<Tensor>& tensors, int64_t srcRank, int64_t tag) override;
  std::shared_ptr<Work> recvAnysource(std::vector<Tensor>& tensors, int64_t tag) override;

 private:
  // What a queued collective sees: the Gloo context, its tag and timeout.
  struct Call {
    std::shared_ptr<::gloo::Context> context;
    uint32_t tag;
    std::chrono::milliseconds timeout;
    uint32_t check_tag;  // for an op's own consistency exchange (all_to_all's split sizes)
    bool checks;         // whether consistency checks are on
  };
  // all_to_all: every rank's send sizes must match what its peers expect to receive.
  void check_splits(const char* op, const Call& call, const std::vector<int64_t>& in_bytes,
                    const std::vector<int64_t>& out_bytes);
  // Queues body on the worker; the Work finishes when it returns or raises.
  // The header (dtype, shape) is compared across ranks first when checks are on.
  std::shared_ptr<Work> enqueue(const char* op, std::chrono::milliseconds timeout, std::vector<Tensor> result,
                                const Tensor* checked, std::function<void(const Call&)> body);
  void check_header(const char* op, const Call& call, const Tensor& t);
  [[noreturn]] void fail(const char* op, int64_t seq, const std::exception& e);
  std::chrono::milliseconds effective(std::chrono::milliseconds t) const {
    return t == kNoTimeout ? options_.timeout : t;
  }
  void check_rank(int64_t r, const char* op, const char* what) const;
  std::shared_ptr<Work> post_p2p(bool is_send, std::vector<Tensor>& tensors, std::vector<int> peers, int64_t tag,
                                 const char* op);

  // Note [Point-to-point size check]: per (peer, tag) sequence numbers of
  // sends and receives, and a second store connection the receivers wait on.
  // (peer -1: only the second store connection.)
  std::pair<int64_t, std::shared_ptr<Store>> next_p2p_seq(bool is_send, int peer, int64_t tag);
  // Note [Any-source receive size check]: the peer whose next send to `me`
  // with `tag` was published first, and its size key, claimed for one receive.
  static std::pair<int, std::string> claim_any_source(const std::weak_ptr<ProcessGroup>& self, Store& store,
                                                      const std::vector<int>& peers, int me, int64_t tag,
                                                      std::chrono::milliseconds timeout);

  std::shared_ptr<Store> store_;
  Options options_;
  std::mutex p2p_mu_;
  std::map<std::pair<int, int64_t>, int64_t> send_seq_, recv_seq_;
  std::shared_ptr<Store> p2p_store_;
  bool check_collectives_ = false;
  std::shared_ptr<::gloo::Context> context_;
  std::unique_ptr<gloo_detail::Heartbeat> heartbeat_;
  std::atomic<uint32_t> next_tag_{1};
  std::atomic<int64_t> next_seq_{0};
  int64_t monitored_barriers_ = 0;
  // Set by the first Gloo failure: the context is unusable after it, so later
  // collectives fail at once with this message instead of each timing out.
  std::mutex broken_mu_;
  std::string broken_;
  std::shared_ptr<gloo_detail::WorkQueue> queue_;  // last: stops first, while the context still exists
};

}  // namespace torch::distributed
