#pragma once
// ProcessGroup: a set of processes that run collectives together
// (torch.distributed.ProcessGroup; c10d's option structs and method names).
// The free functions of distributed_c10d.h are the usual way in; these
// methods take tensor lists as c10d's do, one CPU tensor per list here.
#include <memory>
#include <string>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/distributed/types.h"
#include "ember/distributed/work.h"

namespace torch::distributed {

struct AllreduceOptions {
  ReduceOp reduceOp = ReduceOp::SUM;
  std::chrono::milliseconds timeout = kNoTimeout;
};
struct BroadcastOptions {
  int64_t rootRank = 0;
  int64_t rootTensor = 0;
  std::chrono::milliseconds timeout = kNoTimeout;
};
struct ReduceOptions {
  ReduceOp reduceOp = ReduceOp::SUM;
  int64_t rootRank = 0;
  int64_t rootTensor = 0;
  std::chrono::milliseconds timeout = kNoTimeout;
};
struct AllgatherOptions {
  std::chrono::milliseconds timeout = kNoTimeout;
};
struct GatherOptions {
  int64_t rootRank = 0;
  std::chrono::milliseconds timeout = kNoTimeout;
};
struct ScatterOptions {
  int64_t rootRank = 0;
  std::chrono::milliseconds timeout = kNoTimeout;
};
struct ReduceScatterOptions {
  ReduceOp reduceOp = ReduceOp::SUM;
  std::chrono::milliseconds timeout = kNoTimeout;
};
struct AllToAllOptions {
  std::chrono::milliseconds timeout = kNoTimeout;
};
struct BarrierOptions {
  std::chrono::milliseconds timeout = kNoTimeout;
};

class ProcessGroup : public std::enable_shared_from_this<ProcessGroup> {
 public:
  ProcessGroup(int64_t rank, int64_t size) : rank_(rank), size_(size) {}
  virtual ~ProcessGroup() = default;
  ProcessGroup(const ProcessGroup&) = delete;
  ProcessGroup& operator=(const ProcessGroup&) = delete;

  int64_t rank() const { return rank_; }
  int64_t size() const { return size_; }
  int64_t getRank() const { return rank_; }
  int64_t getSize() const { return size_; }
  virtual std::string getBackendName() const = 0;
  virtual const std::string& group_name() const = 0;

  virtual std::shared_ptr<Work> broadcast(std::vector<Tensor>& tensors, const BroadcastOptions& opts = {}) = 0;
  virtual std::shared_ptr<Work> allreduce(std::vector<Tensor>& tensors, const AllreduceOptions& opts = {}) = 0;
  virtual std::shared_ptr<Work> reduce(std::vector<Tensor>& tensors, const ReduceOptions& opts = {}) = 0;
  virtual std::shared_ptr<Work> allgather(std::vector<std::vector<Tensor>>& outputs, std::vector<Tensor>& inputs,
                                          const AllgatherOptions& opts = {}) = 0;
  // all_gather_into_tensor: output is size() inputs back to back.
  virtual std::shared_ptr<Work> _allgather_base(Tensor& output, Tensor& input, const AllgatherOptions& opts = {}) = 0;
  virtual std::shared_ptr<Work> gather(std::vector<std::vector<Tensor>>& outputs, std::vector<Tensor>& inputs,
                                       const GatherOptions& opts = {}) = 0;
  virtual std::shared_ptr<Work> scatter(std::vector<Tensor>& outputs, std::vector<std::vector<Tensor>>& inputs,
                                        const ScatterOptions& opts = {}) = 0;
  virtual std::shared_ptr<Work> reduce_scatter(std::vector<Tensor>& outputs, std::vector<std::vector<Tensor>>& inputs,
                                               const ReduceScatterOptions& opts = {}) = 0;
  // Empty split sizes split dim 0 evenly.
  virtual std::shared_ptr<Work> alltoall_base(Tensor& output, Tensor& input, std::vector<int64_t>& outputSplitSizes,
                                              std::vector<int64_t>& inputSplitSizes,
                                              const AllToAllOptions& opts = {}) = 0;
  virtual std::shared_ptr<Work> alltoall(std::vector<Tensor>& outputs, std::vector<Tensor>& inputs,
                                         const AllToAllOptions& opts = {}) = 0;
  virtual std::shared_ptr<Work> barrier(const BarrierOptions& opts = {}) = 0;
  virtual void monitored_barrier(const BarrierOptions& opts = {}, bool wait_all_ranks = false) = 0;
  virtual std::shared_ptr<Work> send(std::vector<Tensor>& tensors, int64_t dstRank, int64_t tag) = 0;
  virtual std::shared_ptr<Work> recv(std::vector<Tensor>& tensors, int64_t srcRank, int64_t tag) = 0;
  virtual std::shared_ptr<Work> recvAnysource(std::vector<Tensor>& tensors, int64_t tag) = 0;

 protected:
  int64_t rank_;
  int64_t size_;
};

}  // namespace torch::distributed
