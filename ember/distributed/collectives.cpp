// The collective and point-to-point free functions of distributed_c10d.h.
#include "ember/core/error.h"
#include "ember/distributed/distributed_c10d.h"
#include "ember/distributed/gloo/work_queue.h"
#include "ember/distributed/world.h"

namespace torch::distributed {

using c10d_detail::group_rank_of;
using c10d_detail::is_non_member;
using c10d_detail::resolve;

namespace {

// A blocking call queues its op without waking the group's worker and runs
// it on this thread in wait() (Note [Running a waited-for job inline]):
// under load every thread hand-off can cost a scheduler time slice.
template <typename Issue>
WorkPtr finish(bool async_op, Issue&& issue) {
  WorkPtr work;
  {
    gloo_detail::CallerWaits scope(!async_op);
    work = issue();
  }
  if (async_op) return work;
  if (work) work->wait();
  return nullptr;
}

}  // namespace

WorkPtr all_reduce(const Tensor& tensor, ReduceOp op, const ProcessGroupPtr& group, bool async_op) {
  if (is_non_member(group)) return nullptr;
  auto pg = resolve(group, "all_reduce");
  std::vector<Tensor> tensors{tensor};
  return finish(async_op, [&] { return pg->allreduce(tensors, {op}); });
}

WorkPtr broadcast(const Tensor& tensor, int64_t src, const ProcessGroupPtr& group, bool async_op) {
  if (is_non_member(group)) return nullptr;
  auto pg = resolve(group, "broadcast");
  std::vector<Tensor> tensors{tensor};
  BroadcastOptions opts;
  opts.rootRank = group_rank_of(pg, src, "broadcast");
  return finish(async_op, [&] { return pg->broadcast(tensors, opts); });
}

WorkPtr reduce(const Tensor& tensor, int64_t dst, ReduceOp op, const ProcessGroupPtr& group, bool async_op) {
  if (is_non_member(group)) return nullptr;
  auto pg = resolve(group, "reduce");
  std::vector<Tensor> tensors{tensor};
  ReduceOptions opts;
  opts.reduceOp = op;
  opts.rootRank = group_rank_of(pg, dst, "reduce");
  return finish(async_op, [&] { return pg->reduce(tensors, opts); });
}

WorkPtr all_gather(const std::vector<Tensor>& tensor_list, const Tensor& tensor, const ProcessGroupPtr& group,
                   bool async_op) {
  if (is_non_member(group)) return nullptr;
  auto pg = resolve(group, "all_gather");
  std::vector<std::vector<Tensor>> outputs{tensor_list};
  std::vector<Tensor> inputs{tensor};
  return finish(async_op, [&] { return pg->allgather(outputs, inputs); });
}

WorkPtr all_gather_into_tensor(const Tensor& output_tensor, const Tensor& input_tensor, const ProcessGroupPtr& group,
                               bool async_op) {
  if (is_non_member(group)) return nullptr;
  auto pg = resolve(group, "all_gather_into_tensor");
  Tensor out = output_tensor, in = input_tensor;
  return finish(async_op, [&] { return pg->_allgather_base(out, in); });
}

WorkPtr gather(const Tensor& tensor, std::optional<std::vector<Tensor>> gather_list, int64_t dst,
               const ProcessGroupPtr& group, bool async_op) {
  if (is_non_member(group)) return nullptr;
  auto pg = resolve(group, "gather");
  GatherOptions opts;
  opts.rootRank = group_rank_of(pg, dst, "gather");
  std::vector<std::vector<Tensor>> outputs;
  if (pg->rank() == opts.rootRank) {
    EMBER_CHECK(gather_list.has_value(), "gather: Argument ``gather_list`` must be specified on destination rank.");
    outputs.push_back(*gather_list);
  } else {
    EMBER_CHECK(!gather_list || gather_list->empty(),
                "gather: Argument ``gather_list`` must NOT be specified on non-destination ranks.");
  }
  std::vector<Tensor> inputs{tensor};
  return finish(async_op, [&] { return pg->gather(outputs, inputs, opts); });
}

WorkPtr scatter(const Tensor& tensor, std::optional<std::vector<Tensor>> scatter_list, int64_t src,
                const ProcessGroupPtr& group, bool async_op) {
  if (is_non_member(group)) return nullptr;
  auto pg = resolve(group, "scatter");
  ScatterOptions opts;
  opts.rootRank = group_rank_of(pg, src, "scatter");
  std::vector<std::vector<Tensor>> inputs;
  if (pg->rank() == opts.rootRank) {
    EMBER_CHECK(scatter_list.has_value(), "scatter: Argument ``scatter_list`` must be specified on source rank.");
    inputs.push_back(*scatter_list);
  } else {
    EMBER_CHECK(!scatter_list || scatter_list->empty(),
                "scatter: Argument ``scatter_list`` must NOT be specified on non-source ranks.");
  }
  std::vector<Tensor> outputs{tensor};
  return finish(async_op, [&] { return pg->scatter(outputs, inputs, opts); });
}

WorkPtr reduce_scatter(const Tensor& output, const std::vector<Tensor>& input_list, ReduceOp op,
                       const ProcessGroupPtr& group, bool async_op) {
  if (is_non_member(group)) return nullptr;
  auto pg = resolve(group, "reduce_scatter");
  std::vector<Tensor> outputs{output};
  std::vector<std::vector<Tensor>> inputs{input_list};
  return finish(async_op, [&] { return pg->reduce_scatter(outputs, inputs, {op}); });
}

WorkPtr all_to_all(const std::vector<Tensor>& output_tensor_list, const std::vector<Tensor>& input_tensor_list,
                   const ProcessGroupPtr& group, bool async_op) {
  if (is_non_member(group)) return nullptr;
  auto pg = resolve(group, "all_to_all");
  std::vector<Tensor> outputs = output_tensor_list, inputs = input_tensor_list;
  return finish(async_op, [&] { return pg->alltoall(outputs, inputs); });
}

WorkPtr all_to_all_single(const Tensor& output, const Tensor& input,
                          std::optional<std::vector<int64_t>> output_split_sizes,
                          std::optional<std::vector<int64_t>> input_split_sizes, const ProcessGroupPtr& group,
                          bool async_op) {
  if (is_non_member(group)) return nullptr;
  auto pg = resolve(group, "all_to_all_single");
  Tensor out = output, in = input;
  std::vector<int64_t> out_splits = output_split_sizes.value_or(std::vector<int64_t>{});
  std::vector<int64_t> in_splits = input_split_sizes.value_or(std::vector<int64_t>{});
  return finish(async_op, [&] { return pg->alltoall_base(out, in, out_splits, in_splits); });
}

WorkPtr barrier(const ProcessGroupPtr& group, bool async_op) {
  if (is_non_member(group)) return nullptr;
  auto pg = resolve(group, "barrier");
  return finish(async_op, [&] { return pg->barrier(); });
}

void monitored_barrier(const ProcessGroupPtr& group, std::optional<std::chrono::milliseconds> timeout,
                       bool wait_all_ranks) {
  if (is_non_member(group)) return;
  BarrierOptions opts;
  opts.timeout = timeout.value_or(kNoTimeout);
  resolve(group, "monitored_barrier")->monitored_barrier(opts, wait_all_ranks);
}

WorkPtr isend(const Tensor& tensor, int64_t dst, const ProcessGroupPtr& group, int64_t tag) {
  if (is_non_member(group)) return nullptr;
  auto pg = resolve(group, "isend");
  std::vector<Tensor> tensors{tensor};
  return pg->send(tensors, group_rank_of(pg, dst, "isend"), tag);
}

WorkPtr irecv(const Tensor& tensor, std::optional<int64_t> src, const ProcessGroupPtr& group, int64_t tag) {
  if (is_non_member(group)) return nullptr;
  auto pg = resolve(group, "irecv");
  std::vector<Tensor> tensors{tensor};
  if (!src) return pg->recvAnysource(tensors, tag);
  return pg->recv(tensors, group_rank_of(pg, *src, "irecv"), tag);
}

void send(const Tensor& tensor, int64_t dst, const ProcessGroupPtr& group, int64_t tag) {
  if (auto w = isend(tensor, dst, group, tag)) w->wait();
}

int64_t recv(const Tensor& tensor, std::optional<int64_t> src, const ProcessGroupPtr& group, int64_t tag) {
  auto w = irecv(tensor, src, group, tag);
  if (!w) return -1;
  w->wait();
  auto pg = resolve(group, "recv");
  return c10d_detail::global_rank_of(pg, src ? group_rank_of(pg, *src, "recv") : w->source_rank());
}

P2POp::P2POp(IsendFn op, Tensor tensor, int64_t peer, ProcessGroupPtr group, int64_t tag)
    : is_send_(true), tensor_(std::move(tensor)), peer_(peer), group_(std::move(group)), tag_(tag) {
  EMBER_CHECK(op == &isend, "P2POp: op must be isend or irecv");
}

P2POp::P2POp(IrecvFn op, Tensor tensor, int64_t peer, ProcessGroupPtr group, int64_t tag)
    : is_send_(false), tensor_(std::move(tensor)), peer_(peer), group_(std::move(group)), tag_(tag) {
  EMBER_CHECK(op == &irecv, "P2POp: op must be isend or irecv");
}

std::vector<WorkPtr> batch_isend_irecv(const std::vector<P2POp>& p2p_op_list) {
  EMBER_CHECK(!p2p_op_list.empty(), "batch_isend_irecv: expects a non-empty list of P2POp");
  auto first = resolve(p2p_op_list[0].group(), "batch_isend_irecv");
  std::vector<WorkPtr> works;
  for (const auto& p : p2p_op_list) {
    EMBER_CHECK(resolve(p.group(), "batch_isend_irecv") == first,
                "batch_isend_irecv: All ops need to use the same group.");
    works.push_back(p.is_send() ? isend(p.tensor(), p.peer(), p.group(), p.tag())
                                : irecv(p.tensor(), p.peer(), p.group(), p.tag()));
  }
  return works;
}

}  // namespace torch::distributed
