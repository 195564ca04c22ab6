#pragma once
// PowerSGD gradient compression (torch.distributed.algorithms.ddp_comm_hooks.
// powerSGD_hook): each bucket's matrices M are replaced by a rank-r
// approximation P Q^T whose factors are all-reduced instead of M (Vogels et
// al., 2019), with error feedback and warm-started Q as torch's.
#include <cstdint>
#include <map>
#include <random>
#include <tuple>

#include "ember/distributed/ddp/future.h"
#include "ember/distributed/ddp/grad_bucket.h"
#include "ember/distributed/distributed_c10d.h"

namespace torch::distributed::algorithms::ddp_comm_hooks::powerSGD_hook {

// The hyperparameters and the state the hooks keep between iterations, per
// bucket index (so, as torch says, start_powerSGD_iter must come after DDP's
// bucket rebuild at iteration 1 when error feedback or warm start is on).
class PowerSGDState {
 public:
  explicit PowerSGDState(ProcessGroupPtr process_group, int64_t matrix_approximation_rank = 1,
                         int64_t start_powerSGD_iter = 1000, double min_compression_rate = 2,
                         bool use_error_feedback = true, bool warm_start = true, double orthogonalization_epsilon = 0,
                         uint32_t random_seed = 0, bool batch_tensors_with_same_shape = false);

  // Counts iterations: the last bucket of an iteration ends it.
  void maybe_increase_iter(const GradBucket& bucket);
  // (effective compression rate, elements before, elements after compression).
  std::tuple<double, int64_t, int64_t> compression_stats() const;

  ProcessGroupPtr process_group;
  int64_t matrix_approximation_rank;
  int64_t start_powerSGD_iter;
  double min_compression_rate;
  bool use_error_feedback;
  bool warm_start;
  double orthogonalization_epsilon;
  bool batch_tensors_with_same_shape;
  // numpy.random.RandomState(random_seed): the source of the seeds for the random Qs.
  std::mt19937 rng;
  std::map<size_t, Tensor> error_dict, p_memory_dict, q_memory_dict;
  int64_t iter = 0;
  int64_t total_numel_before_compression = 0;
  int64_t total_numel_after_compression = 0;
};

// Compresses each parameter's gradient that is worth it (see
// min_compression_rate) and all-reduces the rest uncompressed; plain
// all-reduce until start_powerSGD_iter.
Future powerSGD_hook(PowerSGDState& state, GradBucket& bucket);
// Compresses the whole bucket viewed as one zero-padded square matrix: less
// computation, usually lower accuracy unless the rank is 1.
Future batched_powerSGD_hook(PowerSGDState& state, GradBucket& bucket);

namespace detail {
// numpy's RandomState.randint(high) for 0 < high <= 2^32: masked rejection
// sampling on 32-bit draws (the legacy stream torch's PowerSGD seeds from).
int64_t numpy_randint(std::mt19937& rng, int64_t high);
// Orthonormalizes the columns of each matrix of a [B, n, r] batch in place:
// Gram–Schmidt for r <= 2 or half precision, QR otherwise (torch's choice).
void orthogonalize(const Tensor& matrices, double epsilon = 0);
}  // namespace detail

}  // namespace torch::distributed::algorithms::ddp_comm_hooks::powerSGD_hook
