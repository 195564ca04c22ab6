#include "ember/distributed/ddp/comm_hooks.h"

namespace torch::distributed {

std::vector<Tensor> GradBucket::gradients() const {
  std::vector<Tensor> out;
  for (size_t i = 0; i < parameters_.size(); ++i)
    out.push_back(buffer_.narrow(0, offsets_[i], parameters_[i].numel()).view(parameters_[i].sizes()));
  return out;
}

namespace algorithms::ddp_comm_hooks::default_hooks {
namespace {

Future compressed(const ProcessGroupPtr& pg, GradBucket& bucket, ScalarType wire) {
  int64_t n = get_world_size(pg);
  Tensor c = bucket.buffer().div(Scalar(n)).to(wire);
  auto work = all_reduce(c, ReduceOp::SUM, pg, true);
  Tensor buffer = bucket.buffer();
  return Future(work, c).then([buffer](const Tensor& reduced) {
    buffer.copy_(reduced);
    return buffer;
  });
}

}  // namespace

Future allreduce_hook(const ProcessGroupPtr& process_group, GradBucket& bucket) {
  int64_t n = get_world_size(process_group);
  Tensor buffer = bucket.buffer();
  buffer.div_(Scalar(n));
  return Future(all_reduce(buffer, ReduceOp::SUM, process_group, true), buffer);
}

Future fp16_compress_hook(const ProcessGroupPtr& process_group, GradBucket& bucket) {
  return compressed(process_group, bucket, kHalf);
}

Future bf16_compress_hook(const ProcessGroupPtr& process_group, GradBucket& bucket) {
  return compressed(process_group, bucket, kBFloat16);
}

}  // namespace algorithms::ddp_comm_hooks::default_hooks
}  // namespace torch::distributed
