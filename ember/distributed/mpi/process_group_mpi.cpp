#include "ember/distributed/process_group_mpi.h"

#include <algorithm>
#include <climits>
#include <set>
#include <thread>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/distributed/gloo/reduce_fn.h"
#include "ember/distributed/gloo/tensor_wire.h"
#include "ember/distributed/gloo/work_queue.h"
#include "ember/distributed/mpi/mpi_runtime.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/shape_ops.h"

namespace torch::distributed {

using gloo_detail::bytes_of;
using gloo_detail::single_tensor;
using gloo_detail::to_wire;
using gloo_detail::WireTensor;
using mpi_detail::check;
using mpi_detail::mpi_mutex;
using mpi_detail::to_count;

struct ProcessGroupMPI::Impl {
  MPI_Comm comm = MPI_COMM_NULL;
  int tag_ub = 32767;  // MPI guarantees at least this
  std::shared_ptr<gloo_detail::WorkQueue> queue = std::make_shared<gloo_detail::WorkQueue>();

  ~Impl() {
    queue.reset();  // runs what is queued first
    std::lock_guard<std::mutex> lock(mpi_mutex());
    if (comm != MPI_COMM_NULL && !mpi_detail::finalized()) MPI_Comm_free(&comm);
  }

  // Queues body on the worker; it runs holding the MPI lock.
  std::shared_ptr<Work> enqueue(const char* op, std::vector<Tensor> result, std::function<void()> body);
};

namespace {

void* ptr(const Tensor& t) { return t.data_ptr(); }

// A queued collective: waiting for it runs it here when it is next
// (Note [Running a waited-for job inline]).
class MpiWork : public Work {
 public:
  MpiWork(const char* op, std::vector<Tensor> result, std::weak_ptr<gloo_detail::WorkQueue> queue)
      : Work(op, std::move(result)), queue_(std::move(queue)) {}
  void set_id(uint64_t id) { id_ = id; }
  bool wait(std::chrono::milliseconds timeout) override {
    if (timeout == kNoTimeout)
      if (auto q = queue_.lock(); q && !is_completed()) q->run_if_next(id_);
    return Work::wait(timeout);
  }

 private:
  std::weak_ptr<gloo_detail::WorkQueue> queue_;
  uint64_t id_ = 0;
};

// A posted MPI_Isend / MPI_Irecv. wait() completes it with MPI_Wait under the
// MPI lock (c10d's AsyncWork); a recv then checks the message filled the
// buffer exactly and copies into a non-contiguous destination. Destroyed
// unwaited, it waits first: MPI may still be using the buffer.
class MpiP2PWork : public Work {
 public:
  MpiP2PWork(const char* op, bool is_send, WireTensor wire, MPI_Request request, std::string where)
      : Work(op, {wire.user}), is_send_(is_send), wire_(std::move(wire)), request_(request), where_(std::move(where)) {}
  ~MpiP2PWork() override {
    try {
      complete(kNoTimeout);
    } catch (...) {
    }
  }
  bool is_completed() override {
    {
      std::lock_guard<std::mutex> once(wait_mu_);
      if (!done_) {
        std::lock_guard<std::mutex> lock(mpi_mutex());
        int flag = 1;  // finalized or failed: complete() reports it
        if (!mpi_detail::finalized() && MPI_Test(&request_, &flag, &status_) == MPI_SUCCESS && flag) tested_ = true;
        if (!flag) return false;
      }
    }
    complete(kNoTimeout);
    return true;
  }
  bool wait(std::chrono::milliseconds timeout) override {
    complete(timeout);
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
    std::exception_ptr error;
    try {
      if (!tested_) {
        if (timeout == kNoTimeout) {
          std::lock_guard<std::mutex> lock(mpi_mutex());
          EMBER_CHECK(!mpi_detail::finalized(), op(), ": MPI was finalized before the op completed");
          int rc = MPI_Wait(&request_, &status_);
          EMBER_CHECK(rc == MPI_SUCCESS, op(), ": ", where_, " failed: ", mpi_detail::error_string(rc), " (",
                      bytes_of(wire_.buffer), "-byte buffer)");
        } else {
          // MPI has no timed wait: test until the deadline, releasing the lock between tests.
          auto deadline = std::chrono::steady_clock::now() + timeout;
          for (;;) {
            int flag = 0;
            {
              std::lock_guard<std::mutex> lock(mpi_mutex());
              int rc = MPI_Test(&request_, &flag, &status_);
              EMBER_CHECK(rc == MPI_SUCCESS, op(), ": ", where_, " failed: ", mpi_detail::error_string(rc), " (",
                          bytes_of(wire_.buffer), "-byte buffer)");
            }
            if (flag) break;
            EMBER_CHECK(std::chrono::steady_clock::now() < deadline, op(), ": timed out after ", timeout.count(),
                        " ms ", where_);
            std::this_thread::yield();
          }
        }
      }
      done_ = true;
      if (!is_send_) {
        int count = 0;
        MPI_Get_count(&status_, MPI_BYTE, &count);
        size_t expected = bytes_of(wire_.buffer);
        EMBER_CHECK(static_cast<size_t>(count) == expected, op(), ": rank ", status_.MPI_SOURCE, " sent ", count,
                    " bytes, but this recv ", where_, " expects ", expected, " bytes (",
                    dtype_name(wire_.user.scalar_type()), " ", wire_.user.sizes(), ")");
        NoGradGuard no_grad;
        wire_.copy_back();
        std::lock_guard<std::mutex> lock(mu_);
        source_ = status_.MPI_SOURCE;
      }
    } catch (...) {
      done_ = true;
      error = std::current_exception();
    }
    finish(error);
  }

  bool is_send_;
  WireTensor wire_;
  MPI_Request request_;
  MPI_Status status_{};
  std::string where_;
  std::mutex wait_mu_;
  bool done_ = false;
  bool tested_ = false;
  int64_t source_ = -1;
};

// The MPI view of a reduction's buffer: its wire elements and datatype.
struct ReduceArgs {
  int count;
  MPI_Datatype type;
  MPI_Op op;
};

ReduceArgs reduce_args(const Tensor& t, ReduceOp op, const char* name) {
  gloo_detail::reduce_function(t.scalar_type(), op, name);  // raises for an unsupported pair
  return {to_count(gloo_detail::wire_elements(t.scalar_type(), static_cast<size_t>(t.numel())), name),
          mpi_detail::reduce_type(t.scalar_type()), mpi_detail::reduce_op(op)};
}

void check_rank_in(int64_t r, int64_t size, const char* op, const char* what) {
  EMBER_CHECK(r >= 0 && r < size, op, ": ", what, " ", r, " is out of range for the mpi process group of size ", size);
}

}  // namespace

std::shared_ptr<Work> ProcessGroupMPI::Impl::enqueue(const char* op, std::vector<Tensor> result,
                                                     std::function<void()> body) {
  auto work = std::make_shared<MpiWork>(op, std::move(result), queue);
  uint64_t id = queue->push([work, op, body = std::move(body)] {
    try {
      NoGradGuard no_grad;  // the wire writes into parameters and gradients
      {
        std::lock_guard<std::mutex> lock(mpi_mutex());
        EMBER_CHECK(!mpi_detail::finalized(), op, ": MPI was finalized before the op ran");
        body();
      }
      work->finish();
    } catch (...) {
      work->finish(std::current_exception());
    }
  });
  work->set_id(id);
  return work;
}

ProcessGroupMPI::ProcessGroupMPI(std::unique_ptr<Impl> impl, int64_t rank, int64_t size)
    : ProcessGroup(rank, size), impl_(std::move(impl)) {}

ProcessGroupMPI::~ProcessGroupMPI() = default;

bool is_mpi_available() { return true; }

std::shared_ptr<ProcessGroupMPI> ProcessGroupMPI::createProcessGroupMPI(std::vector<int64_t> ranks) {
  mpi_detail::init_once();
  auto impl = std::make_unique<Impl>();
  int rank = -1, size = 0;
  {
    std::lock_guard<std::mutex> lock(mpi_mutex());
    const char* op = "createProcessGroupMPI";
    int world = 0;
    check(MPI_Comm_size(MPI_COMM_WORLD, &world), op, "MPI_Comm_size");
    if (ranks.empty()) {
      check(MPI_Comm_dup(MPI_COMM_WORLD, &impl->comm), op, "MPI_Comm_dup");
    } else {
      std::set<int64_t> seen;
      std::vector<int> members;
      for (int64_t r : ranks) {
        EMBER_CHECK(r >= 0 && r < world, op, ": rank ", r, " is out of range for the MPI world of size ", world);
        EMBER_CHECK(seen.insert(r).second, op, ": rank ", r, " is listed twice");
        members.push_back(static_cast<int>(r));
      }
      MPI_Group world_group, group;
      check(MPI_Comm_group(MPI_COMM_WORLD, &world_group), op, "MPI_Comm_group");
      int rc = MPI_Group_incl(world_group, static_cast<int>(members.size()), members.data(), &group);
      MPI_Group_free(&world_group);
      check(rc, op, "MPI_Group_incl");
      rc = MPI_Comm_create(MPI_COMM_WORLD, group, &impl->comm);
      MPI_Group_free(&group);
      check(rc, op, "MPI_Comm_create");
      if (impl->comm == MPI_COMM_NULL) return nullptr;  // this process is not a member
    }
    check(MPI_Comm_set_errhandler(impl->comm, MPI_ERRORS_RETURN), op, "MPI_Comm_set_errhandler");
    check(MPI_Comm_rank(impl->comm, &rank), op, "MPI_Comm_rank");
    check(MPI_Comm_size(impl->comm, &size), op, "MPI_Comm_size");
    void* ub = nullptr;
    int found = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &found);
    if (found && ub) impl->tag_ub = *static_cast<int*>(ub);
  }
  return std::shared_ptr<ProcessGroupMPI>(new ProcessGroupMPI(std::move(impl), rank, size));
}

std::shared_ptr<Work> ProcessGroupMPI::broadcast(std::vector<Tensor>& tensors, const BroadcastOptions& opts) {
  const char* op = "broadcast";
  Tensor t = single_tensor(tensors, op);
  check_rank_in(opts.rootRank, size_, op, "src");
  WireTensor wire = to_wire(t);
  int count = to_count(bytes_of(wire.buffer), op);
  int root = static_cast<int>(opts.rootRank);
  MPI_Comm comm = impl_->comm;
  return impl_->enqueue(op, {t}, [=] {
    check(MPI_Bcast(ptr(wire.buffer), count, MPI_BYTE, root, comm), op, "MPI_Bcast");
    wire.copy_back();
  });
}

std::shared_ptr<Work> ProcessGroupMPI::allreduce(std::vector<Tensor>& tensors, const AllreduceOptions& opts) {
  const char* op = "all_reduce";
  Tensor t = single_tensor(tensors, op);
  ReduceArgs a = reduce_args(t, opts.reduceOp, op);
  WireTensor wire = to_wire(t);
  bool avg = opts.reduceOp == ReduceOp::AVG;
  int64_t n = size_;
  MPI_Comm comm = impl_->comm;
  return impl_->enqueue(op, {t}, [=] {
    check(MPI_Allreduce(MPI_IN_PLACE, ptr(wire.buffer), a.count, a.type, a.op, comm), op, "MPI_Allreduce");
    if (avg) wire.buffer.div_(Scalar(n));
    wire.copy_back();
  });
}

std::shared_ptr<Work> ProcessGroupMPI::reduce(std::vector<Tensor>& tensors, const ReduceOptions& opts) {
  const char* op = "reduce";
  Tensor t = single_tensor(tensors, op);
  check_rank_in(opts.rootRank, size_, op, "dst");
  ReduceArgs a = reduce_args(t, opts.reduceOp, op);
  WireTensor wire = to_wire(t);
  int root = static_cast<int>(opts.rootRank);
  bool is_root = rank_ == root;
  bool avg = opts.reduceOp == ReduceOp::AVG && is_root;
  int64_t n = size_;
  MPI_Comm comm = impl_->comm;
  return impl_->enqueue(op, {t}, [=] {
    void* buf = ptr(wire.buffer);
    check(MPI_Reduce(is_root ? MPI_IN_PLACE : buf, is_root ? buf : nullptr, a.count, a.type, a.op, root, comm), op,
          "MPI_Reduce");
    if (!is_root) return;
    if (avg) wire.buffer.div_(Scalar(n));
    wire.copy_back();
  });
}

std::shared_ptr<Work> ProcessGroupMPI::_allgather_base(Tensor& output, Tensor& input, const AllgatherOptions&) {
  const char* op = "all_gather_into_tensor";
  gloo_detail::check_tensor(input, op);
  gloo_detail::check_tensor(output, op);
  EMBER_CHECK(output.scalar_type() == input.scalar_type(), op, ": the output's dtype ",
              dtype_name(output.scalar_type()), " differs from the input's ", dtype_name(input.scalar_type()));
  EMBER_CHECK(output.numel() == input.numel() * size_, op, ": the output has ", output.numel(),
              " elements but world_size (", size_, ") x the input's ", input.numel(), " are needed");
  Tensor in = input.contiguous();
  WireTensor out = to_wire(output, /*read=*/false);
  int count = to_count(bytes_of(in), op);
  to_count(bytes_of(out.buffer), op);
  MPI_Comm comm = impl_->comm;
  return impl_->enqueue(op, {output}, [=] {
    check(MPI_Allgather(ptr(in), count, MPI_BYTE, ptr(out.buffer), count, MPI_BYTE, comm), op, "MPI_Allgather");
    out.copy_back();
  });
}

std::shared_ptr<Work> ProcessGroupMPI::allgather(std::vector<std::vector<Tensor>>& outputs, std::vector<Tensor>& inputs,
                                                 const AllgatherOptions&) {
  const char* op = "all_gather";
  Tensor in = single_tensor(inputs, op).contiguous();
  EMBER_CHECK(outputs.size() == 1, op, ": expected one output list, got ", outputs.size());
  const auto list = outputs[0];
  gloo_detail::check_list(list, in, size_, op, "tensor_list");
  Tensor flat = empty({size_ * in.numel()}, TensorOptions().dtype(in.scalar_type()));
  int count = to_count(bytes_of(in), op);
  to_count(bytes_of(flat), op);
  MPI_Comm comm = impl_->comm;
  return impl_->enqueue(op, list, [=] {
    check(MPI_Allgather(ptr(in), count, MPI_BYTE, ptr(flat), count, MPI_BYTE, comm), op, "MPI_Allgather");
    gloo_detail::unflatten_into(flat, list);
  });
}

std::shared_ptr<Work> ProcessGroupMPI::gather(std::vector<std::vector<Tensor>>& outputs, std::vector<Tensor>& inputs,
                                              const GatherOptions& opts) {
  const char* op = "gather";
  Tensor in = single_tensor(inputs, op).contiguous();
  check_rank_in(opts.rootRank, size_, op, "dst");
  int root = static_cast<int>(opts.rootRank);
  std::vector<Tensor> list;
  Tensor flat;
  if (rank_ == root) {
    EMBER_CHECK(outputs.size() == 1, op, ": the destination rank needs gather_list");
    list = outputs[0];
    gloo_detail::check_list(list, in, size_, op, "gather_list");
    flat = empty({size_ * in.numel()}, TensorOptions().dtype(in.scalar_type()));
    to_count(bytes_of(flat), op);
  } else {
    EMBER_CHECK(outputs.empty() || outputs[0].empty(), op, ": gather_list must be empty on non-destination rank ",
                rank_);
  }
  int count = to_count(bytes_of(in), op);
  MPI_Comm comm = impl_->comm;
  return impl_->enqueue(op, list, [=] {
    void* out = flat.defined() ? ptr(flat) : nullptr;
    check(MPI_Gather(ptr(in), count, MPI_BYTE, out, count, MPI_BYTE, root, comm), op, "MPI_Gather");
    if (flat.defined()) gloo_detail::unflatten_into(flat, list);
  });
}

std::shared_ptr<Work> ProcessGroupMPI::scatter(std::vector<Tensor>& outputs, std::vector<std::vector<Tensor>>& inputs,
                                               const ScatterOptions& opts) {
  const char* op = "scatter";
  Tensor out = single_tensor(outputs, op);
  check_rank_in(opts.rootRank, size_, op, "src");
  int root = static_cast<int>(opts.rootRank);
  Tensor flat;
  if (rank_ == root) {
    EMBER_CHECK(inputs.size() == 1, op, ": the source rank needs scatter_list");
    gloo_detail::check_list(inputs[0], out, size_, op, "scatter_list");
    std::vector<Tensor> parts;
    for (const auto& t : inputs[0]) parts.push_back(t.reshape({-1}));
    flat = cat(parts, 0);
    to_count(bytes_of(flat), op);
  } else {
    EMBER_CHECK(inputs.empty() || inputs[0].empty(), op, ": scatter_list must be empty on non-source rank ", rank_);
  }
  WireTensor wire = to_wire(out, /*read=*/false);
  int count = to_count(bytes_of(wire.buffer), op);
  MPI_Comm comm = impl_->comm;
  return impl_->enqueue(op, {out}, [=] {
    void* in = flat.defined() ? ptr(flat) : nullptr;
    check(MPI_Scatter(in, count, MPI_BYTE, ptr(wire.buffer), count, MPI_BYTE, root, comm), op, "MPI_Scatter");
    wire.copy_back();
  });
}

std::shared_ptr<Work> ProcessGroupMPI::reduce_scatter(std::vector<Tensor>& outputs,
                                                      std::vector<std::vector<Tensor>>& inputs,
                                                      const ReduceScatterOptions& opts) {
  const char* op = "reduce_scatter";
  Tensor out = single_tensor(outputs, op);
  EMBER_CHECK(inputs.size() == 1, op, ": expected one input list, got ", inputs.size());
  gloo_detail::check_list(inputs[0], out, size_, op, "input_list");
  ReduceArgs a = reduce_args(out, opts.reduceOp, op);
  std::vector<Tensor> parts;
  for (const auto& t : inputs[0]) parts.push_back(t.reshape({-1}));
  Tensor flat = cat(parts, 0);
  WireTensor wire = to_wire(out, /*read=*/false);
  bool avg = opts.reduceOp == ReduceOp::AVG;
  int64_t n = size_;
  MPI_Comm comm = impl_->comm;
  return impl_->enqueue(op, {out}, [=] {
    check(MPI_Reduce_scatter_block(ptr(flat), ptr(wire.buffer), a.count, a.type, a.op, comm), op,
          "MPI_Reduce_scatter_block");
    if (avg) wire.buffer.div_(Scalar(n));
    wire.copy_back();
  });
}

namespace {

// MPI_Alltoallv's int counts and displacements of per-rank byte sizes.
void counts_and_displs(const std::vector<int64_t>& bytes, std::vector<int>& counts, std::vector<int>& displs,
                       const char* op) {
  size_t at = 0;
  for (int64_t b : bytes) {
    counts.push_back(to_count(static_cast<size_t>(b), op));
    displs.push_back(to_count(at, op));
    at += static_cast<size_t>(b);
  }
}

}  // namespace

std::shared_ptr<Work> ProcessGroupMPI::alltoall_base(Tensor& output, Tensor& input,
                                                     std::vector<int64_t>& outputSplitSizes,
                                                     std::vector<int64_t>& inputSplitSizes, const AllToAllOptions&) {
  const char* op = "all_to_all_single";
  gloo_detail::check_tensor(input, op);
  gloo_detail::check_tensor(output, op);
  EMBER_CHECK(output.scalar_type() == input.scalar_type(), op, ": the output's dtype ",
              dtype_name(output.scalar_type()), " differs from the input's ", dtype_name(input.scalar_type()));
  EMBER_CHECK(input.dim() >= 1 && output.dim() >= 1, op, ": input and output need at least one dimension");
  std::vector<int> sc, sd, rc, rd;
  counts_and_displs(gloo_detail::split_bytes(input, inputSplitSizes, size_, op, "input"), sc, sd, op);
  counts_and_displs(gloo_detail::split_bytes(output, outputSplitSizes, size_, op, "output"), rc, rd, op);
  Tensor in = input.contiguous();
  WireTensor out = to_wire(output, /*read=*/false);
  MPI_Comm comm = impl_->comm;
  return impl_->enqueue(op, {output}, [=] {
    check(MPI_Alltoallv(ptr(in), sc.data(), sd.data(), MPI_BYTE, ptr(out.buffer), rc.data(), rd.data(), MPI_BYTE, comm),
          op, "MPI_Alltoallv");
    out.copy_back();
  });
}

std::shared_ptr<Work> ProcessGroupMPI::alltoall(std::vector<Tensor>& outputs, std::vector<Tensor>& inputs,
                                                const AllToAllOptions&) {
  const char* op = "all_to_all";
  EMBER_CHECK(static_cast<int64_t>(inputs.size()) == size_ && static_cast<int64_t>(outputs.size()) == size_, op,
              ": expected ", size_, " input and output tensors, got ", inputs.size(), " and ", outputs.size());
  std::vector<int64_t> in_bytes, out_bytes;
  std::vector<Tensor> in_parts;
  int64_t out_numel = 0;
  for (int64_t i = 0; i < size_; ++i) {
    gloo_detail::check_tensor(inputs[i], op);
    gloo_detail::check_tensor(outputs[i], op);
    EMBER_CHECK(
        inputs[i].scalar_type() == inputs[0].scalar_type() && outputs[i].scalar_type() == inputs[0].scalar_type(), op,
        ": every tensor must have the dtype ", dtype_name(inputs[0].scalar_type()));
    in_bytes.push_back(static_cast<int64_t>(bytes_of(inputs[i])));
    out_bytes.push_back(static_cast<int64_t>(bytes_of(outputs[i])));
    in_parts.push_back(inputs[i].reshape({-1}));
    out_numel += outputs[i].numel();
  }
  std::vector<int> sc, sd, rc, rd;
  counts_and_displs(in_bytes, sc, sd, op);
  counts_and_displs(out_bytes, rc, rd, op);
  Tensor in = cat(in_parts, 0);
  Tensor flat = empty({out_numel}, TensorOptions().dtype(inputs[0].scalar_type()));
  std::vector<Tensor> list = outputs;
  MPI_Comm comm = impl_->comm;
  return impl_->enqueue(op, list, [=] {
    check(MPI_Alltoallv(ptr(in), sc.data(), sd.data(), MPI_BYTE, ptr(flat), rc.data(), rd.data(), MPI_BYTE, comm), op,
          "MPI_Alltoallv");
    gloo_detail::unflatten_into(flat, list);
  });
}

std::shared_ptr<Work> ProcessGroupMPI::barrier(const BarrierOptions&) {
  MPI_Comm comm = impl_->comm;
  return impl_->enqueue("barrier", {}, [comm] { check(MPI_Barrier(comm), "barrier", "MPI_Barrier"); });
}

void ProcessGroupMPI::monitored_barrier(const BarrierOptions&, bool) {
  EMBER_ERROR(
      "monitored_barrier: ProcessGroup mpi does not support monitoredBarrier, only GLOO supports monitored "
      "barrier.");
}

namespace {

std::shared_ptr<Work> post_p2p(ProcessGroupMPI::Impl& impl, bool is_send, std::vector<Tensor>& tensors, int peer,
                               int64_t tag, const char* op, int64_t rank) {
  Tensor t = single_tensor(tensors, op);
  EMBER_CHECK(tag >= 0 && tag <= impl.tag_ub, op, ": tag ", tag, " is out of MPI's range [0, ", impl.tag_ub, "]");
  WireTensor wire = to_wire(t, /*read=*/is_send);
  int count = to_count(bytes_of(wire.buffer), op);
  std::string where = std::string(is_send ? "to" : "from") + " rank " +
                      (peer == MPI_ANY_SOURCE ? std::string("any") : std::to_string(peer)) +
                      " in the mpi process group (rank " + std::to_string(rank) + ", tag " + std::to_string(tag) + ")";
  MPI_Request request = MPI_REQUEST_NULL;
  {
    std::lock_guard<std::mutex> lock(mpi_mutex());
    EMBER_CHECK(!mpi_detail::finalized(), op, ": MPI was finalized");
    if (is_send)
      check(MPI_Isend(ptr(wire.buffer), count, MPI_BYTE, peer, static_cast<int>(tag), impl.comm, &request), op,
            "MPI_Isend");
    else
      check(MPI_Irecv(ptr(wire.buffer), count, MPI_BYTE, peer, static_cast<int>(tag), impl.comm, &request), op,
            "MPI_Irecv");
  }
  return std::make_shared<MpiP2PWork>(op, is_send, std::move(wire), request, std::move(where));
}

}  // namespace

std::shared_ptr<Work> ProcessGroupMPI::send(std::vector<Tensor>& tensors, int64_t dstRank, int64_t tag) {
  check_rank_in(dstRank, size_, "send", "dst");
  EMBER_CHECK(dstRank != rank_, "send: rank ", rank_, " cannot send to itself");
  return post_p2p(*impl_, true, tensors, static_cast<int>(dstRank), tag, "send", rank_);
}

std::shared_ptr<Work> ProcessGroupMPI::recv(std::vector<Tensor>& tensors, int64_t srcRank, int64_t tag) {
  check_rank_in(srcRank, size_, "recv", "src");
  EMBER_CHECK(srcRank != rank_, "recv: rank ", rank_, " cannot receive from itself");
  return post_p2p(*impl_, false, tensors, static_cast<int>(srcRank), tag, "recv", rank_);
}

std::shared_ptr<Work> ProcessGroupMPI::recvAnysource(std::vector<Tensor>& tensors, int64_t tag) {
  EMBER_CHECK(size_ > 1, "recv: a group of one rank has no one to receive from");
  return post_p2p(*impl_, false, tensors, MPI_ANY_SOURCE, tag, "recv", rank_);
}

}  // namespace torch::distributed
