#pragma once
// torch.distributed's free functions (distributed_c10d.py): the default
// process group, subgroups, and the collectives on them. group = nullptr is
// the default group (Python's None); src/dst are global ranks, as in Python.
// A call with async_op = true returns its Work; otherwise it blocks and
// returns nullptr (Python's None).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ember/distributed/process_group.h"
#include "ember/distributed/store/store.h"

namespace torch::distributed {

using ProcessGroupPtr = std::shared_ptr<ProcessGroup>;
using WorkPtr = std::shared_ptr<Work>;

// What new_group returns to ranks outside the new group (GroupMember.NON_GROUP_MEMBER).
struct GroupMember {
  static const ProcessGroupPtr& NON_GROUP_MEMBER();
};

// init_method: "env://" (the default: RANK, WORLD_SIZE, MASTER_ADDR,
// MASTER_PORT), "tcp://host:port" or "file:///path"; or pass a store with
// world_size and rank.
void init_process_group(const std::string& backend = "gloo", std::optional<std::string> init_method = std::nullopt,
                        std::chrono::milliseconds timeout = default_pg_timeout, int64_t world_size = -1,
                        int64_t rank = -1, std::shared_ptr<Store> store = nullptr, const std::string& group_name = "");
bool is_initialized();
bool is_available();
bool is_gloo_available();
bool is_mpi_available();
bool is_nccl_available();
void destroy_process_group(const ProcessGroupPtr& group = nullptr);
// Every rank calls new_group, members or not; ranks empty: all ranks.
ProcessGroupPtr new_group(std::vector<int64_t> ranks = {}, std::chrono::milliseconds timeout = default_pg_timeout,
                          std::optional<std::string> backend = std::nullopt);
int64_t get_rank(const ProcessGroupPtr& group = nullptr);
int64_t get_world_size(const ProcessGroupPtr& group = nullptr);
std::string get_backend(const ProcessGroupPtr& group = nullptr);
// The global rank of group rank `group_rank` and back.
int64_t get_global_rank(const ProcessGroupPtr& group, int64_t group_rank);
int64_t get_group_rank(const ProcessGroupPtr& group, int64_t global_rank);
// The default group itself (GroupMember.WORLD).
ProcessGroupPtr get_default_group();

WorkPtr all_reduce(const Tensor& tensor, ReduceOp op = ReduceOp::SUM, const ProcessGroupPtr& group = nullptr,
                   bool async_op = false);
WorkPtr broadcast(const Tensor& tensor, int64_t src, const ProcessGroupPtr& group = nullptr, bool async_op = false);
WorkPtr reduce(const Tensor& tensor, int64_t dst, ReduceOp op = ReduceOp::SUM, const ProcessGroupPtr& group = nullptr,
               bool async_op = false);
WorkPtr all_gather(const std::vector<Tensor>& tensor_list, const Tensor& tensor, const ProcessGroupPtr& group = nullptr,
                   bool async_op = false);
WorkPtr all_gather_into_tensor(const Tensor& output_tensor, const Tensor& input_tensor,
                               const ProcessGroupPtr& group = nullptr, bool async_op = false);
WorkPtr gather(const Tensor& tensor, std::optional<std::vector<Tensor>> gather_list = std::nullopt, int64_t dst = 0,
               const ProcessGroupPtr& group = nullptr, bool async_op = false);
WorkPtr scatter(const Tensor& tensor, std::optional<std::vector<Tensor>> scatter_list = std::nullopt, int64_t src = 0,
                const ProcessGroupPtr& group = nullptr, bool async_op = false);
WorkPtr reduce_scatter(const Tensor& output, const std::vector<Tensor>& input_list, ReduceOp op = ReduceOp::SUM,
                       const ProcessGroupPtr& group = nullptr, bool async_op = false);
WorkPtr all_to_all(const std::vector<Tensor>& output_tensor_list, const std::vector<Tensor>& input_tensor_list,
                   const ProcessGroupPtr& group = nullptr, bool async_op = false);
WorkPtr all_to_all_single(const Tensor& output, const Tensor& input,
                          std::optional<std::vector<int64_t>> output_split_sizes = std::nullopt,
                          std::optional<std::vector<int64_t>> input_split_sizes = std::nullopt,
                          const ProcessGroupPtr& group = nullptr, bool async_op = false);
WorkPtr barrier(const ProcessGroupPtr& group = nullptr, bool async_op = false);
// timeout nullopt: the group's timeout.
void monitored_barrier(const ProcessGroupPtr& group = nullptr,
                       std::optional<std::chrono::milliseconds> timeout = std::nullopt, bool wait_all_ranks = false);

void send(const Tensor& tensor, int64_t dst, const ProcessGroupPtr& group = nullptr, int64_t tag = 0);
// Returns the sender's global rank (src nullopt: any sender).
int64_t recv(const Tensor& tensor, std::optional<int64_t> src = std::nullopt, const ProcessGroupPtr& group = nullptr,
             int64_t tag = 0);
WorkPtr isend(const Tensor& tensor, int64_t dst, const ProcessGroupPtr& group = nullptr, int64_t tag = 0);
WorkPtr irecv(const Tensor& tensor, std::optional<int64_t> src = std::nullopt, const ProcessGroupPtr& group = nullptr,
              int64_t tag = 0);

// torch.distributed.P2POp: isend or irecv to post later with batch_isend_irecv.
class P2POp {
 public:
  using IsendFn = WorkPtr (*)(const Tensor&, int64_t, const ProcessGroupPtr&, int64_t);
  using IrecvFn = WorkPtr (*)(const Tensor&, std::optional<int64_t>, const ProcessGroupPtr&, int64_t);
  P2POp(IsendFn op, Tensor tensor, int64_t peer, ProcessGroupPtr group = nullptr, int64_t tag = 0);
  P2POp(IrecvFn op, Tensor tensor, int64_t peer, ProcessGroupPtr group = nullptr, int64_t tag = 0);
  bool is_send() const { return is_send_; }
  const Tensor& tensor() const { return tensor_; }
  int64_t peer() const { return peer_; }
  const ProcessGroupPtr& group() const { return group_; }
  int64_t tag() const { return tag_; }

 private:
  bool is_send_;
  Tensor tensor_;
  int64_t peer_;
  ProcessGroupPtr group_;
  int64_t tag_;
};
std::vector<WorkPtr> batch_isend_irecv(const std::vector<P2POp>& p2p_op_list);

}  // namespace torch::distributed
