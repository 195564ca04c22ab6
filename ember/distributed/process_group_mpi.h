#pragma once
// ProcessGroupMPI (torch.distributed's "mpi" backend): collectives and
// point-to-point ops on the MPI library the job was started with (Debian's
// Open MPI; rank and size come from MPI, not from a store). As c10d's, every
// MPI call of the process runs under one lock (MPI_THREAD_SERIALIZED):
// collectives run in issue order on the group's worker thread, send/recv post
// at once and complete in wait(). Built only when CMake finds MPI;
// is_mpi_available() says whether it was.
#include <memory>
#include <string>
#include <vector>

#include "ember/distributed/process_group.h"

namespace torch::distributed {

class ProcessGroupMPI : public ProcessGroup {
 public:
  // The group of `ranks` of MPI_COMM_WORLD (all of them when empty); every
  // process of the job must call it. Processes outside `ranks` get nullptr,
  // as c10d's createProcessGroupMPI. Initializes MPI on first use.
  static std::shared_ptr<ProcessGroupMPI> createProcessGroupMPI(std::vector<int64_t> ranks = {});
  ~ProcessGroupMPI() override;

  std::string getBackendName() const override { return "mpi"; }
  const std::string& group_name() const override { return name_; }

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
  // c10d: only the gloo backend has it; raises.
  void monitored_barrier(const BarrierOptions& opts = {}, bool wait_all_ranks = false) override;
  std::shared_ptr<Work> send(std::vector<Tensor>& tensors, int64_t dstRank, int64_t tag) override;
  std::shared_ptr<Work> recv(std::vector<Tensor>& tensors, int64_t srcRank, int64_t tag) override;
  std::shared_ptr<Work> recvAnysource(std::vector<Tensor>& tensors, int64_t tag) override;

  struct Impl;  // the communicator and the worker (MPI types stay out of this header)

 private:
  ProcessGroupMPI(std::unique_ptr<Impl> impl, int64_t rank, int64_t size);
  std::unique_ptr<Impl> impl_;
  std::string name_ = "mpi";
};

}  // namespace torch::distributed
