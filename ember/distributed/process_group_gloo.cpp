#include "ember/distributed/process_group_gloo.h"

#include <gloo/allgather.h>
#include <gloo/allreduce.h>
#include <gloo/alltoall.h>
#include <gloo/alltoallv.h>
#include <gloo/barrier.h>
#include <gloo/broadcast.h>
#include <gloo/common/error.h>
#include <gloo/common/logging.h>
#include <gloo/gather.h>
#include <gloo/reduce.h>
#include <gloo/rendezvous/context.h>
#include <gloo/scatter.h>
#include <gloo/transport/tcp/device.h>

#include <cstdlib>
#include <thread>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/distributed/gloo/gloo_store.h"
#include "ember/distributed/gloo/heartbeat.h"
#include "ember/distributed/gloo/reduce_fn.h"
#include "ember/distributed/gloo/rendezvous.h"
#include "ember/distributed/gloo/tensor_wire.h"
#include "ember/distributed/gloo/trusted_shapes.h"
#include "ember/distributed/gloo/work_queue.h"
#include "ember/distributed/store/prefix_store.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/shape_ops.h"

namespace torch::distributed {

using gloo_detail::bytes_of;
using gloo_detail::single_tensor;
using gloo_detail::to_wire;
using gloo_detail::WireTensor;

namespace {

// Note [Collective header check] says why the check is on unless switched off.
bool checks_from_env() {
  const char* debug = std::getenv("TORCH_DISTRIBUTED_DEBUG");
  if (debug && std::string(debug) == "DETAIL") return true;
  const char* v = std::getenv("EMBER_DISTRIBUTED_CHECK");
  return !(v && std::string(v) == "0");
}

std::chrono::milliseconds heartbeat_interval(std::chrono::milliseconds timeout) {
  auto i = timeout / 10;
  return std::clamp(i, std::chrono::milliseconds(50), std::chrono::milliseconds(1000));
}

template <typename T>
T* ptr(const Tensor& t) {
  return static_cast<T*>(t.data_ptr());
}

// A queued collective's Work: waiting for it runs it on the waiting thread
// when it is next (Note [Running a waited-for job inline]).
class QueuedWork : public Work {
 public:
  QueuedWork(const char* op, std::vector<Tensor> result, std::weak_ptr<gloo_detail::WorkQueue> queue)
      : Work(op, std::move(result)), queue_(std::move(queue)) {}
  void set_id(uint64_t id) { id_ = id; }
  bool wait(std::chrono::milliseconds timeout) override {
    // Only an unbounded wait may run the op here: a bounded one must return in time.
    if (timeout == kNoTimeout)
      if (auto q = queue_.lock(); q && !is_completed()) q->run_if_next(id_);
    return Work::wait(timeout);
  }

 private:
  std::weak_ptr<gloo_detail::WorkQueue> queue_;
  uint64_t id_ = 0;
};

}  // namespace

ProcessGroupGloo::ProcessGroupGloo(const std::shared_ptr<Store>& store, int64_t rank, int64_t size, Options options)
    : ProcessGroup(rank, size), store_(store), options_(std::move(options)) {
  EMBER_CHECK(store_ != nullptr, "ProcessGroupGloo: the store is null");
  EMBER_CHECK(size >= 1, "ProcessGroupGloo: world_size must be positive, got ", size);
  EMBER_CHECK(rank >= 0 && rank < size, "ProcessGroupGloo: rank ", rank, " is out of range for world_size ", size);
  EMBER_CHECK(options_.timeout.count() > 0, "ProcessGroupGloo: the timeout must be positive, got ",
              options_.timeout.count(), " ms");
  check_collectives_ = options_.check_collectives.value_or(checks_from_env());
  gloo_detail::join_group(*store_, rank, size, options_.timeout, options_.group_name);

  ::gloo::transport::tcp::attr attr;
  if (!options_.hostname.empty()) {
    attr.hostname = options_.hostname;
  } else if (const char* iface = std::getenv("GLOO_SOCKET_IFNAME"); iface && *iface) {
    attr.iface = iface;
  } else {
    attr.hostname = gloo_detail::reachable_hostname(*store_);
  }
  try {
    auto device = ::gloo::transport::tcp::CreateDevice(attr);
    auto context = std::make_shared<::gloo::rendezvous::Context>(static_cast<int>(rank), static_cast<int>(size));
    context->setTimeout(options_.timeout);
    gloo_detail::GlooStore gloo_store(std::make_shared<PrefixStore>("gloo", store_));
    context->connectFullMesh(gloo_store, device);
    context_ = std::move(context);
  } catch (const Error& e) {
    EMBER_ERROR("ProcessGroupGloo: rank ", rank, " of process group '", options_.group_name,
                "' could not connect to its peers: ", e.what());
  } catch (const std::exception& e) {
    EMBER_ERROR("ProcessGroupGloo: rank ", rank, " of process group '", options_.group_name,
                "' could not connect to its peers on ", attr.hostname.empty() ? attr.iface : attr.hostname, ": ",
                e.what());
  }
  heartbeat_ =
      std::make_unique<gloo_detail::Heartbeat>(store_->clone(), rank, size, heartbeat_interval(options_.timeout));
  queue_ = std::make_shared<gloo_detail::WorkQueue>();
}

ProcessGroupGloo::~ProcessGroupGloo() {
  queue_.reset();  // finishes queued collectives first
  heartbeat_.reset();
}

void ProcessGroupGloo::check_rank(int64_t r, const char* op, const char* what) const {
  EMBER_CHECK(r >= 0 && r < size_, op, ": ", what, " ", r, " is out of range for process group '", options_.group_name,
              "' of size ", size_);
}

void ProcessGroupGloo::fail(const char* op, int64_t seq, const std::exception& e) {
  std::string what = e.what();
  bool timed_out = what.find("imed out") != std::string::npos;
  // A timeout has given a dead peer time to fall silent; a broken connection
  // has not, so wait until live peers must have beaten since the failure.
  constexpr int64_t kRounds = 4;  // a live peer beats in every round
  int64_t since = heartbeat_->round() - kRounds;
  if (!timed_out) {
    since = heartbeat_->round();
    heartbeat_->wait_rounds(kRounds);
  }
  std::string diag = heartbeat_->diagnose(seq, since);
  std::string msg = str(op, ": ", timed_out ? "timed out" : "failed", " in process group '", options_.group_name,
                        "' (rank ", rank_, " of ", size_, ", collective #", seq, ", timeout ", options_.timeout.count(),
                        " ms)", diag.empty() ? "" : ": ", diag, " [", what, "]");
  {
    std::lock_guard<std::mutex> lock(broken_mu_);
    if (broken_.empty()) broken_ = msg;
  }
  EMBER_ERROR(msg);
}

std::shared_ptr<Work> ProcessGroupGloo::enqueue(const char* op, std::chrono::milliseconds timeout,
                                                std::vector<Tensor> result, const Tensor* checked,
                                                std::function<void(const Call&)> body) {
  auto work = std::make_shared<QueuedWork>(op, std::move(result), queue_);
  // Two tags per collective: the optional header exchange, then the op itself.
  // Three tags per collective: the header exchange, the op, and the op's own check.
  uint32_t tag = next_tag_.fetch_add(3);
  const bool checks = check_collectives_ && !gloo_detail::TrustedShapes::active();  // Note [Trusted shapes]
  Call call{context_, tag + 1, effective(timeout), tag + 2, checks};
  Call header_call{context_, tag, call.timeout, tag + 2, checks};
  int64_t seq = ++next_seq_;
  Tensor header_tensor = checked ? *checked : Tensor();
  // The job finishes its Work; the Work holds the queue only weakly (it may outlive the group).
  uint64_t id = queue_->push([this, op, work, call, header_call, seq, header_tensor, body = std::move(body)] {
    try {
      heartbeat_->entered(seq);
      NoGradGuard no_grad;  // the wire writes into parameters and gradients
      {
        std::lock_guard<std::mutex> lock(broken_mu_);
        EMBER_CHECK(broken_.empty(), op, ": process group '", options_.group_name,
                    "' is unusable after an earlier failure: ", broken_);
      }
      try {
        if (header_call.checks) check_header(op, header_call, header_tensor);
        body(call);
      } catch (const Error&) {
        throw;  // already names the op
      } catch (const std::exception& e) {
        fail(op, seq, e);
      }
      work->finish();
    } catch (...) {
      work->finish(std::current_exception());
    }
  });
  work->set_id(id);
  return work;
}

// Note [Collective header check]
// Every collective first all-gathers a fixed 8-word header (op, dtype, numel,
// ndim, first four sizes) and raises on every rank when the ranks disagree.
// Gloo itself does not report a size mismatch: its transport thread fails an
// enforce and the process aborts. So the check is on by default (unlike
// c10d's TORCH_DISTRIBUTED_DEBUG=DETAIL); it costs one 64-byte all-gather per
// collective, and EMBER_DISTRIBUTED_CHECK=0 or Options::check_collectives =
// false turns it off for programs that trust their shapes.
void ProcessGroupGloo::check_header(const char* op, const Call& call, const Tensor& t) {
  constexpr int kWords = 8;
  auto op_id = static_cast<int64_t>(std::hash<std::string>{}(op)&0x7fffffff);
  std::vector<int64_t> mine(kWords, -1);
  mine[0] = op_id;
  if (t.defined()) {
    mine[1] = static_cast<int64_t>(t.scalar_type());
    mine[2] = t.numel();
    mine[3] = t.dim();
    for (int64_t d = 0; d < std::min<int64_t>(t.dim(), 4); ++d) mine[4 + d] = t.size(d);
  }
  std::vector<int64_t> all(kWords * size_);
  ::gloo::AllgatherOptions o(call.context);
  o.setInput<int64_t>(mine.data(), kWords);
  o.setOutput<int64_t>(all.data(), all.size());
  o.setTag(call.tag);
  o.setTimeout(call.timeout);
  ::gloo::allgather(o);
  auto describe = [&](int64_t r) {
    const int64_t* h = &all[r * kWords];
    if (h[0] != op_id) return std::string("another collective");
    if (h[1] < 0) return std::string("no tensor");
    std::string s = std::string(dtype_name(static_cast<ScalarType>(h[1]))) + " [";
    for (int64_t d = 0; d < std::min<int64_t>(h[3], 4); ++d) s += (d ? ", " : "") + std::to_string(h[4 + d]);
    if (h[3] > 4) s += ", ...";
    return s + "] (" + std::to_string(h[2]) + " elements)";
  };
  for (int64_t r = 0; r < size_; ++r) {
    if (!std::equal(mine.begin(), mine.end(), all.begin() + r * kWords)) {
      EMBER_ERROR(op, ": the ranks of process group '", options_.group_name, "' passed different tensors: rank ", rank_,
                  " has ", describe(rank_), ", rank ", r, " has ", describe(r));
    }
  }
}

// Every rank gathers every rank's send and receive sizes, so all of them see
// the same mismatch and raise together (none is left waiting in Gloo).
void ProcessGroupGloo::check_splits(const char* op, const Call& call, const std::vector<int64_t>& in_bytes,
                                    const std::vector<int64_t>& out_bytes) {
  const auto n = static_cast<size_t>(size_);
  std::vector<int64_t> mine(in_bytes);
  mine.insert(mine.end(), out_bytes.begin(), out_bytes.end());
  std::vector<int64_t> all(2 * n * n);
  ::gloo::AllgatherOptions o(call.context);
  o.setInput<int64_t>(mine.data(), mine.size());
  o.setOutput<int64_t>(all.data(), all.size());
  o.setTag(call.check_tag);
  o.setTimeout(call.timeout);
  ::gloo::allgather(o);
  // Rank j's row: what it sends to each rank, then what it expects from each.
  for (size_t j = 0; j < n; ++j) {
    for (size_t i = 0; i < n; ++i) {
      int64_t sent = all[j * 2 * n + i], expected = all[i * 2 * n + n + j];
      EMBER_CHECK(sent == expected, op, ": rank ", j, " of process group '", options_.group_name, "' sends ", sent,
                  " bytes to rank ", i, ", which expects ", expected,
                  " bytes from it (split sizes or tensor sizes differ)");
    }
  }
}

std::shared_ptr<Work> ProcessGroupGloo::allreduce(std::vector<Tensor>& tensors, const AllreduceOptions& opts) {
  Tensor t = single_tensor(tensors, "all_reduce");
  auto fn = gloo_detail::reduce_function(t.scalar_type(), opts.reduceOp, "all_reduce");
  WireTensor wire = to_wire(t);
  ReduceOp rop = opts.reduceOp;
  int64_t n = size_;
  return enqueue("all_reduce", opts.timeout, {t}, &t, [wire, fn, rop, n](const Call& c) {
    const Tensor& b = wire.buffer;
    if (b.numel() > 0) {
      ::gloo::AllreduceOptions o(c.context);
      auto dt = b.scalar_type();
      gloo_detail::with_wire_type(dt, [&](auto z) {
        using T = decltype(z);
        o.setOutput<T>(ptr<T>(b), gloo_detail::wire_elements(dt, static_cast<size_t>(b.numel())));
      });
      o.setReduceFunction(fn);
      o.setTag(c.tag);
      o.setTimeout(c.timeout);
      ::gloo::allreduce(o);
      if (rop == ReduceOp::AVG) b.div_(Scalar(n));
    }
    wire.copy_back();
  });
}

std::shared_ptr<Work> ProcessGroupGloo::broadcast(std::vector<Tensor>& tensors, const BroadcastOptions& opts) {
  Tensor t = single_tensor(tensors, "broadcast");
  check_rank(opts.rootRank, "broadcast", "src");
  WireTensor wire = to_wire(t);
  int root = static_cast<int>(opts.rootRank);
  return enqueue("broadcast", opts.timeout, {t}, &t, [wire, root](const Call& c) {
    if (wire.buffer.numel() == 0) return;
    ::gloo::BroadcastOptions o(c.context);
    o.setOutput<uint8_t>(ptr<uint8_t>(wire.buffer), bytes_of(wire.buffer));
    o.setRoot(root);
    o.setTag(c.tag);
    o.setTimeout(c.timeout);
    ::gloo::broadcast(o);
    wire.copy_back();
  });
}

std::shared_ptr<Work> ProcessGroupGloo::reduce(std::vector<Tensor>& tensors, const ReduceOptions& opts) {
  Tensor t = single_tensor(tensors, "reduce");
  check_rank(opts.rootRank, "reduce", "dst");
  auto fn = gloo_detail::reduce_function(t.scalar_type(), opts.reduceOp, "reduce");
  WireTensor wire = to_wire(t);
  int root = static_cast<int>(opts.rootRank);
  bool avg = opts.reduceOp == ReduceOp::AVG && rank_ == root;
  int64_t n = size_;
  return enqueue("reduce", opts.timeout, {t}, &t, [wire, fn, root, avg, n](const Call& c) {
    const Tensor& b = wire.buffer;
    if (b.numel() == 0) return;
    ::gloo::ReduceOptions o(c.context);
    auto dt = b.scalar_type();
    gloo_detail::with_wire_type(dt, [&](auto z) {
      using T = decltype(z);
      o.setOutput<T>(ptr<T>(b), gloo_detail::wire_elements(dt, static_cast<size_t>(b.numel())));
    });
    o.setRoot(root);
    o.setReduceFunction(fn);
    o.setTag(c.tag);
    o.setTimeout(c.timeout);
    ::gloo::reduce(o);
    if (avg) b.div_(Scalar(n));
    wire.copy_back();
  });
}

std::shared_ptr<Work> ProcessGroupGloo::_allgather_base(Tensor& output, Tensor& input, const AllgatherOptions& opts) {
  gloo_detail::check_tensor(input, "all_gather_into_tensor");
  gloo_detail::check_tensor(output, "all_gather_into_tensor");
  EMBER_CHECK(output.scalar_type() == input.scalar_type(), "all_gather_into_tensor: the output's dtype ",
              dtype_name(output.scalar_type()), " differs from the input's ", dtype_name(input.scalar_type()));
  EMBER_CHECK(output.numel() == input.numel() * size_, "all_gather_into_tensor: the output has ", output.numel(),
              " elements but world_size (", size_, ") x the input's ", input.numel(), " are needed");
  Tensor in = input.contiguous();
  WireTensor out = to_wire(output, /*read=*/false);
  return enqueue("all_gather_into_tensor", opts.timeout, {output}, &input, [in, out](const Call& c) {
    if (in.numel() == 0) return;
    ::gloo::AllgatherOptions o(c.context);
    o.setInput<uint8_t>(ptr<uint8_t>(in), bytes_of(in));
    o.setOutput<uint8_t>(ptr<uint8_t>(out.buffer), bytes_of(out.buffer));
    o.setTag(c.tag);
    o.setTimeout(c.timeout);
    ::gloo::allgather(o);
    out.copy_back();
  });
}

std::shared_ptr<Work> ProcessGroupGloo::allgather(std::vector<std::vector<Tensor>>& outputs,
                                                  std::vector<Tensor>& inputs, const AllgatherOptions& opts) {
  Tensor in = single_tensor(inputs, "all_gather").contiguous();
  EMBER_CHECK(outputs.size() == 1, "all_gather: expected one output list, got ", outputs.size());
  const auto& list = outputs[0];
  gloo_detail::check_list(list, in, size_, "all_gather", "tensor_list");
  Tensor flat = empty({size_ * in.numel()}, TensorOptions().dtype(in.scalar_type()));
  return enqueue("all_gather", opts.timeout, list, &in, [in, flat, list](const Call& c) {
    if (in.numel() > 0) {
      ::gloo::AllgatherOptions o(c.context);
      o.setInput<uint8_t>(ptr<uint8_t>(in), bytes_of(in));
      o.setOutput<uint8_t>(ptr<uint8_t>(flat), bytes_of(flat));
      o.setTag(c.tag);
      o.setTimeout(c.timeout);
      ::gloo::allgather(o);
    }
    gloo_detail::unflatten_into(flat, list);
  });
}

std::shared_ptr<Work> ProcessGroupGloo::gather(std::vector<std::vector<Tensor>>& outputs, std::vector<Tensor>& inputs,
                                               const GatherOptions& opts) {
  Tensor in = single_tensor(inputs, "gather").contiguous();
  check_rank(opts.rootRank, "gather", "dst");
  int root = static_cast<int>(opts.rootRank);
  std::vector<Tensor> list;
  Tensor flat;
  if (rank_ == root) {
    EMBER_CHECK(outputs.size() == 1, "gather: the destination rank needs gather_list");
    list = outputs[0];
    gloo_detail::check_list(list, in, size_, "gather", "gather_list");
    flat = empty({size_ * in.numel()}, TensorOptions().dtype(in.scalar_type()));
  } else {
    EMBER_CHECK(outputs.empty() || outputs[0].empty(), "gather: gather_list must be empty on non-destination rank ",
                rank_);
  }
  return enqueue("gather", opts.timeout, list, &in, [in, flat, list, root](const Call& c) {
    if (in.numel() == 0) return;
    ::gloo::GatherOptions o(c.context);
    o.setInput<uint8_t>(ptr<uint8_t>(in), bytes_of(in));
    if (flat.defined()) o.setOutput<uint8_t>(ptr<uint8_t>(flat), bytes_of(flat));
    o.setRoot(root);
    o.setTag(c.tag);
    o.setTimeout(c.timeout);
    ::gloo::gather(o);
    if (flat.defined()) gloo_detail::unflatten_into(flat, list);
  });
}

std::shared_ptr<Work> ProcessGroupGloo::scatter(std::vector<Tensor>& outputs, std::vector<std::vector<Tensor>>& inputs,
                                                const ScatterOptions& opts) {
  Tensor out = single_tensor(outputs, "scatter");
  check_rank(opts.rootRank, "scatter", "src");
  int root = static_cast<int>(opts.rootRank);
  std::vector<Tensor> list;
  if (rank_ == root) {
    EMBER_CHECK(inputs.size() == 1, "scatter: the source rank needs scatter_list");
    gloo_detail::check_list(inputs[0], out, size_, "scatter", "scatter_list");
    for (const auto& t : inputs[0]) list.push_back(t.contiguous());
  } else {
    EMBER_CHECK(inputs.empty() || inputs[0].empty(), "scatter: scatter_list must be empty on non-source rank ", rank_);
  }
  WireTensor wire = to_wire(out, /*read=*/false);
  return enqueue("scatter", opts.timeout, {out}, &out, [wire, list, root](const Call& c) {
    if (wire.buffer.numel() == 0) return;
    ::gloo::ScatterOptions o(c.context);
    if (!list.empty()) {
      std::vector<uint8_t*> ptrs;
      for (const auto& t : list) ptrs.push_back(ptr<uint8_t>(t));
      o.setInputs<uint8_t>(ptrs, bytes_of(wire.buffer));
    }
    o.setOutput<uint8_t>(ptr<uint8_t>(wire.buffer), bytes_of(wire.buffer));
    o.setRoot(root);
    o.setTag(c.tag);
    o.setTimeout(c.timeout);
    ::gloo::scatter(o);
    wire.copy_back();
  });
}

// Gloo's new-style API has no reduce-scatter: reduce the concatenation and keep
// this rank's part (twice the traffic of a ring reduce-scatter; documented).
std::shared_ptr<Work> ProcessGroupGloo::reduce_scatter(std::vector<Tensor>& outputs,
                                                       std::vector<std::vector<Tensor>>& inputs,
                                                       const ReduceScatterOptions& opts) {
  Tensor out = single_tensor(outputs, "reduce_scatter");
  EMBER_CHECK(inputs.size() == 1, "reduce_scatter: expected one input list, got ", inputs.size());
  gloo_detail::check_list(inputs[0], out, size_, "reduce_scatter", "input_list");
  auto fn = gloo_detail::reduce_function(out.scalar_type(), opts.reduceOp, "reduce_scatter");
  std::vector<Tensor> flat_parts;
  for (const auto& t : inputs[0]) flat_parts.push_back(t.reshape({-1}));
  Tensor flat = cat(flat_parts, 0);
  ReduceOp rop = opts.reduceOp;
  int64_t n = size_, r = rank_;
  return enqueue("reduce_scatter", opts.timeout, {out}, &out, [flat, out, fn, rop, n, r](const Call& c) {
    if (flat.numel() == 0) return;
    ::gloo::AllreduceOptions o(c.context);
    auto dt = flat.scalar_type();
    gloo_detail::with_wire_type(dt, [&](auto z) {
      using T = decltype(z);
      o.setOutput<T>(ptr<T>(flat), gloo_detail::wire_elements(dt, static_cast<size_t>(flat.numel())));
    });
    o.setReduceFunction(fn);
    o.setTag(c.tag);
    o.setTimeout(c.timeout);
    ::gloo::allreduce(o);
    Tensor mine = flat.narrow(0, r * out.numel(), out.numel()).view(out.sizes());
    if (rop == ReduceOp::AVG) mine.div_(Scalar(n));
    out.copy_(mine);
  });
}

std::shared_ptr<Work> ProcessGroupGloo::alltoall_base(Tensor& output, Tensor& input,
                                                      std::vector<int64_t>& outputSplitSizes,
                                                      std::vector<int64_t>& inputSplitSizes,
                                                      const AllToAllOptions& opts) {
  const char* op = "all_to_all_single";
  gloo_detail::check_tensor(input, op);
  gloo_detail::check_tensor(output, op);
  EMBER_CHECK(output.scalar_type() == input.scalar_type(), op, ": the output's dtype ",
              dtype_name(output.scalar_type()), " differs from the input's ", dtype_name(input.scalar_type()));
  EMBER_CHECK(input.dim() >= 1 && output.dim() >= 1, op, ": input and output need at least one dimension");
  auto in_bytes = gloo_detail::split_bytes(input, inputSplitSizes, size_, op, "input");
  auto out_bytes = gloo_detail::split_bytes(output, outputSplitSizes, size_, op, "output");
  Tensor in = input.contiguous();
  WireTensor out = to_wire(output, /*read=*/false);
  return enqueue(op, opts.timeout, {output}, nullptr, [this, op, in, out, in_bytes, out_bytes](const Call& c) {
    if (c.checks) check_splits(op, c, in_bytes, out_bytes);
    ::gloo::AlltoallvOptions o(c.context);
    o.setInput<uint8_t>(ptr<uint8_t>(in), in_bytes);
    o.setOutput<uint8_t>(ptr<uint8_t>(out.buffer), out_bytes);
    o.setTag(c.tag);
    o.setTimeout(c.timeout);
    ::gloo::alltoallv(o);
    out.copy_back();
  });
}

std::shared_ptr<Work> ProcessGroupGloo::alltoall(std::vector<Tensor>& outputs, std::vector<Tensor>& inputs,
                                                 const AllToAllOptions& opts) {
  const char* op = "all_to_all";
  EMBER_CHECK(static_cast<int64_t>(inputs.size()) == size_ && static_cast<int64_t>(outputs.size()) == size_, op,
              ": expected ", size_, " input and output tensors, got ", inputs.size(), " and ", outputs.size());
  std::vector<int64_t> in_bytes, out_bytes;
  std::vector<Tensor> in_parts;
  for (int64_t i = 0; i < size_; ++i) {
    gloo_detail::check_tensor(inputs[i], op);
    gloo_detail::check_tensor(outputs[i], op);
    EMBER_CHECK(
        inputs[i].scalar_type() == inputs[0].scalar_type() && outputs[i].scalar_type() == inputs[0].scalar_type(), op,
        ": every tensor must have the dtype ", dtype_name(inputs[0].scalar_type()));
    in_bytes.push_back(static_cast<int64_t>(bytes_of(inputs[i])));
    out_bytes.push_back(static_cast<int64_t>(bytes_of(outputs[i])));
    in_parts.push_back(inputs[i].reshape({-1}));
  }
  Tensor in = cat(in_parts, 0);
  int64_t out_numel = 0;
  for (const auto& t : outputs) out_numel += t.numel();
  Tensor flat = empty({out_numel}, TensorOptions().dtype(inputs[0].scalar_type()));
  std::vector<Tensor> list = outputs;
  return enqueue(op, opts.timeout, list, nullptr, [this, op, in, flat, list, in_bytes, out_bytes](const Call& c) {
    if (c.checks) check_splits(op, c, in_bytes, out_bytes);
    ::gloo::AlltoallvOptions o(c.context);
    o.setInput<uint8_t>(ptr<uint8_t>(in), in_bytes);
    o.setOutput<uint8_t>(ptr<uint8_t>(flat), out_bytes);
    o.setTag(c.tag);
    o.setTimeout(c.timeout);
    ::gloo::alltoallv(o);
    gloo_detail::unflatten_into(flat, list);
  });
}

std::shared_ptr<Work> ProcessGroupGloo::barrier(const BarrierOptions& opts) {
  return enqueue("barrier", opts.timeout, {}, nullptr, [](const Call& c) {
    ::gloo::BarrierOptions o(c.context);
    o.setTag(c.tag);
    o.setTimeout(c.timeout);
    ::gloo::barrier(o);
  });
}

}  // namespace torch::distributed
