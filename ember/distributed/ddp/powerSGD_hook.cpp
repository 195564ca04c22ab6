#include "ember/distributed/ddp/powerSGD_hook.h"

#include <cmath>
#include <map>
#include <vector>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/distributed/ddp/comm_hooks.h"
#include "ember/linalg/spectral.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/factory/random.h"
#include "ember/ops/matmul/matmul.h"
#include "ember/ops/reduce/reduce.h"
#include "ember/ops/shape/shape_ops.h"

namespace torch::distributed::algorithms::ddp_comm_hooks::powerSGD_hook {

PowerSGDState::PowerSGDState(ProcessGroupPtr process_group_, int64_t matrix_approximation_rank_,
                             int64_t start_powerSGD_iter_, double min_compression_rate_, bool use_error_feedback_,
                             bool warm_start_, double orthogonalization_epsilon_, uint32_t random_seed,
                             bool batch_tensors_with_same_shape_)
    : process_group(std::move(process_group_)),
      matrix_approximation_rank(matrix_approximation_rank_),
      start_powerSGD_iter(start_powerSGD_iter_),
      min_compression_rate(min_compression_rate_),
      use_error_feedback(use_error_feedback_),
      warm_start(warm_start_),
      orthogonalization_epsilon(orthogonalization_epsilon_),
      batch_tensors_with_same_shape(batch_tensors_with_same_shape_),
      rng(random_seed) {
  EMBER_CHECK(matrix_approximation_rank >= 1, "PowerSGDState: matrix_approximation_rank must be >= 1, got ",
              matrix_approximation_rank);
  EMBER_CHECK(!((use_error_feedback || warm_start) && start_powerSGD_iter <= 1),
              "PowerSGDState: Expect `start_powerSGD_iter` > 1 if `use_error_feedback` or `warm_start` is enabled, "
              "because PowerSGD can only be applied after the first two iterations in DDP; got start_powerSGD_iter = ",
              start_powerSGD_iter);
}

void PowerSGDState::maybe_increase_iter(const GradBucket& bucket) {
  if (bucket.is_last()) ++iter;
}

std::tuple<double, int64_t, int64_t> PowerSGDState::compression_stats() const {
  double rate = total_numel_after_compression > 0
                    ? static_cast<double>(total_numel_before_compression) / total_numel_after_compression
                    : 0.0;
  return {rate, total_numel_before_compression, total_numel_after_compression};
}

namespace detail {

int64_t numpy_randint(std::mt19937& rng, int64_t high) {
  EMBER_CHECK(high > 0 && high <= (int64_t(1) << 32), "numpy_randint: high must be in (0, 2^32], got ", high);
  auto max = static_cast<uint32_t>(high - 1);
  uint32_t mask = max;
  for (int s = 1; s < 32; s <<= 1) mask |= mask >> s;
  uint32_t v = 0;
  do {
    v = static_cast<uint32_t>(rng()) & mask;
  } while (v > max);
  return v;
}

void orthogonalize(const Tensor& matrices, double epsilon) {
  EMBER_CHECK(matrices.dim() == 3 && matrices.size(2) <= matrices.size(1),
              "PowerSGD orthogonalize: expected a [B, n, r] batch with r <= n, got ", matrices.sizes());
  NoGradGuard no_grad;
  int64_t r = matrices.size(2);
  ScalarType dt = matrices.scalar_type();
  if (r > 2 && dt != kHalf && dt != kBFloat16) {
    auto [q, unused] = linalg::qr(matrices);
    matrices.copy_(q);
    return;
  }
  for (int64_t i = 0; i < r; ++i) {
    Tensor col = matrices.narrow(2, i, 1);
    Tensor norm_ = norm(col, Scalar(2), {1}, true);
    // epsilon 0 and a zero column: NaN, as torch (its ZeroDivisionError branch never fires on tensors).
    col.div_(epsilon == 0 ? norm_ : norm_.add(Scalar(epsilon)));
    if (i + 1 < r) {
      Tensor rest = matrices.narrow(2, i + 1, r - i - 1);
      rest.sub_(sum(col.mul(rest), {1}, true).mul(col));
    }
  }
}

}  // namespace detail

namespace {

Future plain_allreduce(PowerSGDState& state, GradBucket& bucket) {
  state.maybe_increase_iter(bucket);
  return default_hooks::allreduce_hook(state.process_group, bucket);
}

// Q's random start: one seed per bucket and iteration from the state's numpy
// stream, then torch.randn draws from a generator seeded with it.
Generator q_generator(PowerSGDState& state) {
  return make_generator(static_cast<uint64_t>(detail::numpy_randint(state.rng, 1'000'000'000)));
}

}  // namespace

Future powerSGD_hook(PowerSGDState& state, GradBucket& bucket) {
  const ProcessGroupPtr& pg = state.process_group;
  if (state.iter < state.start_powerSGD_iter) return plain_allreduce(state, bucket);
  NoGradGuard no_grad;
  int64_t world = get_world_size(pg);
  Tensor input = bucket.buffer();
  ScalarType dtype = input.scalar_type();
  size_t index = bucket.index();
  Tensor input_copy;
  if (state.use_error_feedback) {
    auto it = state.error_dict.find(index);
    if (it != state.error_dict.end())
      input.add_(it->second);
    else
      state.error_dict[index] = zeros({input.size(0)}, TensorOptions().dtype(dtype));
    input_copy = input.clone();
  }
  // Which gradients to compress: those whose factors are min_compression_rate times smaller.
  std::vector<Tensor> to_compress, uncompressed;
  int64_t ps_size = 0, qs_size = 0;
  for (const Tensor& g : bucket.gradients()) {
    Tensor matrix = g.dim() == 0 ? g.view({1, 1}) : g.view({g.size(0), -1});
    int64_t n = matrix.size(0), m = matrix.size(1);
    int64_t r = std::min({n, m, state.matrix_approximation_rank});
    int64_t full = n * m, compressed = (n + m) * r;
    state.total_numel_before_compression += full;
    if (static_cast<double>(compressed) * state.min_compression_rate < static_cast<double>(full)) {
      to_compress.push_back(matrix);
      ps_size += n * r;
      qs_size += m * r;
      state.total_numel_after_compression += compressed;
    } else {
      uncompressed.push_back(g);
      state.total_numel_after_compression += full;
    }
  }
  std::vector<Tensor> flat_uncompressed;
  for (const Tensor& t : uncompressed) flat_uncompressed.push_back(t.reshape({-1}));
  Tensor uncompressed_memory =
      flat_uncompressed.empty() ? empty({0}, TensorOptions().dtype(dtype)) : cat(flat_uncompressed, 0);
  bool randomize_qs = !state.warm_start || !state.p_memory_dict.count(index);
  if (randomize_qs) {
    state.p_memory_dict[index] = empty({ps_size}, TensorOptions().dtype(dtype));
    state.q_memory_dict[index] = empty({qs_size}, TensorOptions().dtype(dtype));
  }
  // Grouped by shape in order of first appearance (torch's defaultdict); with
  // batch_tensors_with_same_shape each group is one stacked batch.
  std::vector<std::vector<Tensor>> groups;
  std::map<std::vector<int64_t>, size_t> group_of;
  for (const Tensor& t : to_compress) {
    auto key = t.sizes().vec();
    auto [it, fresh] = group_of.emplace(key, groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(t);
  }
  struct Item {
    Tensor matrices;                // [B, n, m]
    std::vector<Tensor> originals;  // the bucket views a stacked batch goes back to
    Tensor p, q;
  };
  std::vector<Item> items;
  for (auto& group : groups) {
    if (state.batch_tensors_with_same_shape && group.size() > 1)
      items.push_back({stack(group, 0), group, {}, {}});
    else
      for (auto& t : group) items.push_back({t.unsqueeze(0), {}, {}, {}});
  }
  Tensor p_memory = state.p_memory_dict[index], q_memory = state.q_memory_dict[index];
  int64_t p_at = 0, q_at = 0;
  for (auto& it : items) {
    int64_t b = it.matrices.size(0), n = it.matrices.size(1), m = it.matrices.size(2);
    int64_t r = std::min({n, m, state.matrix_approximation_rank});
    it.p = p_memory.narrow(0, p_at, b * n * r).view({b, n, r});
    it.q = q_memory.narrow(0, q_at, b * m * r).view({b, m, r});
    p_at += b * n * r;
    q_at += b * m * r;
  }
  if (!randomize_qs) {
    for (auto& it : items) detail::orthogonalize(it.q, state.orthogonalization_epsilon);
  } else {
    Generator gen = q_generator(state);
    for (auto& it : items) {
      it.q.copy_(randn(it.q.sizes(), gen, TensorOptions().dtype(dtype)));
      detail::orthogonalize(it.q, state.orthogonalization_epsilon);
    }
  }
  for (auto& it : items) it.p.copy_(bmm(it.matrices, it.q));

  auto work = all_reduce(uncompressed_memory, ReduceOp::SUM, pg, true);
  PowerSGDState* s = &state;  // the state outlives the iteration (DDP holds it)
  bool last = bucket.is_last();
  return Future(work, uncompressed_memory).then([=](const Tensor& reduced) {
    NoGradGuard guard;
    reduced.div_(Scalar(world));
    int64_t at = 0;
    for (const Tensor& t : uncompressed) {
      t.copy_(reduced.narrow(0, at, t.numel()).view(t.sizes()));
      at += t.numel();
    }
    all_reduce(p_memory, ReduceOp::SUM, pg);
    for (const auto& it : items) detail::orthogonalize(it.p, s->orthogonalization_epsilon);
    for (const auto& it : items) it.q.copy_(bmm(it.matrices.transpose(1, 2), it.p));
    all_reduce(q_memory, ReduceOp::SUM, pg);
    q_memory.div_(Scalar(world));
    for (const auto& it : items) {
      Tensor approx = bmm(it.p, it.q.transpose(1, 2));
      if (it.originals.empty())
        it.matrices.copy_(approx);
      else
        for (size_t k = 0; k < it.originals.size(); ++k) it.originals[k].copy_(approx.select(0, int64_t(k)));
    }
    if (s->use_error_feedback) s->error_dict[index] = input_copy.sub(input);
    if (!s->warm_start) {
      s->p_memory_dict.clear();
      s->q_memory_dict.clear();
    }
    if (last) ++s->iter;
    return input;
  });
}

Future batched_powerSGD_hook(PowerSGDState& state, GradBucket& bucket) {
  const ProcessGroupPtr& pg = state.process_group;
  if (state.iter < state.start_powerSGD_iter) return plain_allreduce(state, bucket);
  NoGradGuard no_grad;
  int64_t world = get_world_size(pg);
  Tensor input = bucket.buffer();
  ScalarType dtype = input.scalar_type();
  int64_t length = input.size(0);
  auto side = static_cast<int64_t>(std::ceil(std::sqrt(static_cast<double>(length))));
  while (side * side < length) ++side;  // sqrt's rounding
  int64_t r = state.matrix_approximation_rank;
  EMBER_CHECK(r <= side, "batched_powerSGD_hook: matrix_approximation_rank ", r,
              " exceeds the side of the bucket's square matrix, ", side);
  state.total_numel_before_compression += length;
  state.total_numel_after_compression += side * r * 2;
  // The bucket padded with zeros to side^2 (torch resizes the bucket itself).
  Tensor padded = zeros({side * side}, TensorOptions().dtype(dtype));
  padded.narrow(0, 0, length).copy_(input);
  size_t index = bucket.index();
  Tensor padded_copy;
  if (state.use_error_feedback) {
    auto it = state.error_dict.find(index);
    if (it != state.error_dict.end())
      padded.add_(it->second);
    else
      state.error_dict[index] = zeros({side * side}, TensorOptions().dtype(dtype));
    padded_copy = padded.clone();
  }
  Tensor matrix = padded.view({side, side});
  if (!state.warm_start || !state.p_memory_dict.count(index)) {
    state.p_memory_dict[index] = empty({side, r}, TensorOptions().dtype(dtype));
    state.q_memory_dict[index] = randn({side, r}, q_generator(state), TensorOptions().dtype(dtype));
  }
  Tensor p = state.p_memory_dict[index], q = state.q_memory_dict[index];
  detail::orthogonalize(q.unsqueeze(0));
  p.copy_(matmul(matrix, q));
  auto work = all_reduce(p, ReduceOp::SUM, pg, true);
  PowerSGDState* s = &state;
  bool last = bucket.is_last();
  return Future(work, p).then([=](const Tensor&) {
    NoGradGuard guard;
    detail::orthogonalize(p.unsqueeze(0));
    q.copy_(matmul(matrix.t(), p));
    all_reduce(q, ReduceOp::SUM, pg);
    q.div_(Scalar(world));
    matrix.copy_(matmul(p, q.t()));
    if (s->use_error_feedback) s->error_dict[index] = padded_copy.sub(padded);
    if (!s->warm_start) {
      s->p_memory_dict.clear();
      s->q_memory_dict.clear();
    }
    if (last) ++s->iter;
    return padded.narrow(0, 0, length);
  });
}

}  // namespace torch::distributed::algorithms::ddp_comm_hooks::powerSGD_hook
