#pragma once
// Note [The reduction engine]
// Every reduction (sum, prod, amax, argmax, var, norm, any, ...) is an Ops
// struct with four members and one call to reduce_kernel:
//   using acc_t;                          the running state
//   acc_t identity() const;               the state before any element
//   acc_t reduce(acc_t a, T x, int64_t i) const;  fold element x (at reduced index i)
//   acc_t combine(acc_t a, acc_t b) const;        merge two partial states
// and a `write(o, acc)` callback that projects the final state into output
// element o (the row-major index over the kept dims, i.e. the offset in a
// contiguous output).
//
// make_reduce_plan splits the input's dims into kept dims (logical order) and
// reduced dims (innermost first, coalesced). Unless the op needs indices in
// logical order (`keep_order`, arg reductions), reduced dims are sorted by
// stride so memory is walked as contiguously as the layout allows.
//
// Paths:
//  - inner: the reduced range of one output is folded into kLanes
//    independent accumulators (so float sums vectorise and the dependency
//    chain is short), in blocks of kBlock elements whose partials are merged
//    by a pairwise tree (cascade summation, accuracy comparable to PyTorch's).
//    Short or strided single runs use one accumulator (lanes would cost more
//    than they save). Many outputs run in parallel over outputs; few outputs
//    run their blocks in parallel.
//  - outer: when a kept dim is the stride-1 one (reducing dim 0 of a
//    contiguous [N, M]), rows are accumulated into a strip of up to kCols
//    accumulators, which vectorises across columns; rows are folded in blocks
//    of kRowBlock whose partials merge through a binary-counter cascade.
//    Strips run in parallel.
// Determinism: every merge tree depends only on the sizes, never on the
// thread count, so results are bitwise identical for any set_num_threads.
#include <algorithm>
#include <memory>
#include <vector>

#include "ember/core/parallel.h"
#include "ember/core/tensor.h"

namespace torch::kernels {

struct ReducePlan {
  int64_t num_outputs = 1;
  int64_t reduce_numel = 1;
  DimVector kept_sizes, kept_strides;  // logical order (slowest first), element strides, size-1 dims dropped
  DimVector red_sizes, red_strides;    // innermost first, coalesced; never empty
};

// `mask` has bit d set for every reduced dim d of `in`.
ReducePlan make_reduce_plan(const Tensor& in, uint64_t mask, bool keep_order);

namespace detail {
constexpr int kLanes = 16;
constexpr int64_t kBlock = 16384;
constexpr int64_t kCols = 1024;
constexpr int64_t kRowBlock = 256;

// Walks reduced positions in order, keeping the element offset current.
struct RedWalker {
  const ReducePlan& p;
  DimVector counter;
  int64_t offset = 0;
  RedWalker(const ReducePlan& plan, int64_t pos) : p(plan), counter(plan.red_sizes.size(), 0) {
    for (size_t d = 0; d < counter.size(); ++d) {
      counter[d] = pos % p.red_sizes[d];
      pos /= p.red_sizes[d];
      offset += counter[d] * p.red_strides[d];
    }
  }
  // Moves to the start of the next innermost row (counter[0] must be 0 on entry of the carry).
  void next_row() {
    offset -= counter[0] * p.red_strides[0];
    counter[0] = 0;
    for (size_t d = 1; d < counter.size(); ++d) {
      ++counter[d];
      offset += p.red_strides[d];
      if (counter[d] < p.red_sizes[d]) return;
      offset -= counter[d] * p.red_strides[d];
      counter[d] = 0;
    }
  }
  void next() {
    ++counter[0];
    offset += p.red_strides[0];
    if (counter[0] == p.red_sizes[0]) next_row();
  }
};

// Folds reduced positions [begin, end) of the output whose first element is `base`.
template <typename T, typename Ops>
typename Ops::acc_t reduce_range(const Ops& ops, const T* base, const ReducePlan& p, int64_t begin, int64_t end) {
  using Acc = typename Ops::acc_t;
  if (p.red_sizes.size() == 1 && (p.red_strides[0] != 1 || end - begin < 2 * kLanes)) {
    // One strided run, or too short for lanes to pay off: a single chain.
    const int64_t s0 = p.red_strides[0];
    const T* ptr = base + begin * s0;
    Acc acc = ops.identity();
    for (int64_t i = 0; i < end - begin; ++i) acc = ops.reduce(acc, ptr[i * s0], begin + i);
    return acc;
  }
  Acc lanes[kLanes];
  for (auto& l : lanes) l = ops.identity();
  RedWalker w(p, begin);
  const int64_t inner = p.red_sizes[0];
  const int64_t s0 = p.red_strides[0];
  int64_t pos = begin;
  while (pos < end) {
    const int64_t n = std::min(inner - w.counter[0], end - pos);
    const T* ptr = base + w.offset;
    if (s0 == 1) {
      int64_t i = 0;
      for (; i + kLanes <= n; i += kLanes)
        for (int k = 0; k < kLanes; ++k) lanes[k] = ops.reduce(lanes[k], ptr[i + k], pos + i + k);
      for (; i < n; ++i) lanes[0] = ops.reduce(lanes[0], ptr[i], pos + i);
    } else {
      for (int64_t i = 0; i < n; ++i) lanes[0] = ops.reduce(lanes[0], ptr[i * s0], pos + i);
    }
    pos += n;
    if (pos >= end) break;
    w.counter[0] += n;
    w.offset += n * s0;
    w.next_row();
  }
  for (int width = kLanes / 2; width > 0; width /= 2)
    for (int k = 0; k < width; ++k) lanes[k] = ops.combine(lanes[k], lanes[k + width]);
  return lanes[0];
}

// Pairwise merge of partials[lo, hi): the fixed tree behind Note [The reduction engine].
template <typename Ops>
typename Ops::acc_t combine_tree(const Ops& ops, const typename Ops::acc_t* partials, size_t lo, size_t hi) {
  if (hi - lo == 1) return partials[lo];
  size_t mid = lo + (hi - lo) / 2;
  return ops.combine(combine_tree(ops, partials, lo, mid), combine_tree(ops, partials, mid, hi));
}

template <typename T, typename Ops>
typename Ops::acc_t reduce_output(const Ops& ops, const T* base, const ReducePlan& p, bool parallel) {
  const int64_t n = p.reduce_numel;
  if (n <= kBlock) return reduce_range(ops, base, p, 0, n);
  const int64_t nblocks = (n + kBlock - 1) / kBlock;
  // Not std::vector: for bool accumulators (any, all) it packs the partials
  // into shared words, and blocks written by different threads would race.
  std::unique_ptr<typename Ops::acc_t[]> partials(new typename Ops::acc_t[nblocks]);
  auto run = [&](int64_t b, int64_t e) {
    for (int64_t k = b; k < e; ++k) partials[k] = reduce_range(ops, base, p, k * kBlock, std::min(n, (k + 1) * kBlock));
  };
  if (parallel) {
    parallel_for(0, nblocks, 1, run);
  } else {
    run(0, nblocks);
  }
  return combine_tree(ops, partials.get(), 0, static_cast<size_t>(nblocks));
}

// Element offset of the input for output index o (kept dims, logical order).
inline int64_t kept_offset(const ReducePlan& p, int64_t o) {
  int64_t off = 0;
  for (int64_t d = static_cast<int64_t>(p.kept_sizes.size()) - 1; d >= 0; --d) {
    off += (o % p.kept_sizes[d]) * p.kept_strides[d];
    o /= p.kept_sizes[d];
  }
  return off;
}

// Walks output indices in order, keeping the input offset of the kept dims current.
struct KeptWalker {
  const ReducePlan& p;
  DimVector counter;
  int64_t offset = 0;
  KeptWalker(const ReducePlan& plan, int64_t o) : p(plan), counter(plan.kept_sizes.size(), 0) {
    for (int64_t d = static_cast<int64_t>(counter.size()) - 1; d >= 0; --d) {
      counter[d] = o % p.kept_sizes[d];
      o /= p.kept_sizes[d];
      offset += counter[d] * p.kept_strides[d];
    }
  }
  void next() {
    for (int64_t d = static_cast<int64_t>(counter.size()) - 1; d >= 0; --d) {
      ++counter[d];
      offset += p.kept_strides[d];
      if (counter[d] < p.kept_sizes[d]) return;
      offset -= counter[d] * p.kept_strides[d];
      counter[d] = 0;
    }
  }
};

template <typename T, typename Ops, typename Write>
void reduce_outer(const Ops& ops, const T* in, const ReducePlan& p, int64_t col_dim, const Write& write) {
  using Acc = typename Ops::acc_t;
  const int64_t m = p.kept_sizes[col_dim];
  int64_t out_col_stride = 1;
  for (size_t d = col_dim + 1; d < p.kept_sizes.size(); ++d) out_col_stride *= p.kept_sizes[d];
  const int64_t nstrips = (m + kCols - 1) / kCols;
  const int64_t nrest = p.num_outputs / m;
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, kCols * p.reduce_numel));
  parallel_for(0, nrest * nstrips, grain, [&](int64_t b, int64_t e) {
    // levels[l] holds the merge of 2^l row blocks when bit l of `filled` is set:
    // a binary-counter cascade, so row-block partials merge pairwise.
    // (unique_ptr arrays rather than std::vector, which packs bool accumulators.)
    const int64_t nblocks = (p.reduce_numel + kRowBlock - 1) / kRowBlock;
    const int nlevels = 64 - __builtin_clzll(static_cast<uint64_t>(std::max<int64_t>(nblocks, 1)));
    std::unique_ptr<Acc[]> tmp(new Acc[kCols]), levels(new Acc[nlevels * kCols]);
    for (int64_t task = b; task < e; ++task) {
      const int64_t rest = task / nstrips, strip = task % nstrips;
      // Output index of (rest, column 0): insert column 0 into rest's digits.
      const int64_t o0 = (rest / out_col_stride) * (out_col_stride * m) + rest % out_col_stride;
      const int64_t c0 = strip * kCols;
      const int64_t w = std::min(kCols, m - c0);
      const T* base = in + kept_offset(p, o0) + c0;  // column stride is 1
      uint64_t filled = 0;
      RedWalker walker(p, 0);
      for (int64_t r0 = 0; r0 < p.reduce_numel; r0 += kRowBlock) {
        const int64_t r1 = std::min(p.reduce_numel, r0 + kRowBlock);
        for (int64_t j = 0; j < w; ++j) tmp[j] = ops.identity();
        for (int64_t r = r0; r < r1; ++r, walker.next()) {
          const T* row = base + walker.offset;
          for (int64_t j = 0; j < w; ++j) tmp[j] = ops.reduce(tmp[j], row[j], r);
        }
        int l = 0;
        for (; filled & (uint64_t(1) << l); ++l) {
          Acc* lv = &levels[l * kCols];
          for (int64_t j = 0; j < w; ++j) tmp[j] = ops.combine(lv[j], tmp[j]);
        }
        filled = ((filled >> l) << l) | (uint64_t(1) << l);  // carry: bits below l cleared
        std::copy(tmp.get(), tmp.get() + w, levels.get() + l * kCols);
      }
      // Merge the remaining levels, lowest (latest rows) into higher ones.
      bool have = false;
      for (int l = 0; l < nlevels; ++l) {
        if (!(filled & (uint64_t(1) << l))) continue;
        Acc* lv = &levels[l * kCols];
        for (int64_t j = 0; j < w; ++j) tmp[j] = have ? ops.combine(lv[j], tmp[j]) : lv[j];
        have = true;
      }
      for (int64_t j = 0; j < w; ++j) write(o0 + (c0 + j) * out_col_stride, have ? tmp[j] : ops.identity());
    }
  });
}
}  // namespace detail

// Reduces `in` (element type T) over the dims of `p`, calling write(o, acc) once per output.
template <typename T, typename Ops, typename Write>
void reduce_kernel(const T* in, const ReducePlan& p, const Ops& ops, const Write& write) {
  if (p.num_outputs == 0) return;
  if (p.reduce_numel == 0) {
    parallel_for(0, p.num_outputs, kGrainSize, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) write(o, ops.identity());
    });
    return;
  }
  // Outer path: a kept dim is the stride-1 one and the reduced dims are not.
  if (p.red_strides[0] != 1 && p.reduce_numel > 1) {
    for (size_t d = 0; d < p.kept_sizes.size(); ++d) {
      if (p.kept_strides[d] == 1) {
        detail::reduce_outer(ops, in, p, static_cast<int64_t>(d), write);
        return;
      }
    }
  }
  // Many short rows ([M, n] over its last dim with small n): one tight loop,
  // the same single-chain fold reduce_range uses for short runs.
  if (p.red_sizes.size() == 1 && p.kept_sizes.size() <= 1 && p.reduce_numel < 2 * detail::kLanes) {
    const int64_t n = p.reduce_numel, s0 = p.red_strides[0];
    const int64_t ks = p.kept_strides.empty() ? 0 : p.kept_strides[0];
    parallel_for(0, p.num_outputs, std::max<int64_t>(1, kGrainSize / n), [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        const T* row = in + o * ks;
        typename Ops::acc_t acc = ops.identity();
        for (int64_t i = 0; i < n; ++i) acc = ops.reduce(acc, row[i * s0], i);
        write(o, acc);
      }
    });
    return;
  }
  const int nthreads = get_num_threads();
  if (p.num_outputs >= 2 * nthreads || p.reduce_numel <= detail::kBlock) {
    const int64_t grain = std::max<int64_t>(1, kGrainSize / p.reduce_numel);
    parallel_for(0, p.num_outputs, grain, [&](int64_t b, int64_t e) {
      detail::KeptWalker kw(p, b);
      for (int64_t o = b; o < e; ++o, kw.next()) write(o, detail::reduce_output(ops, in + kw.offset, p, false));
    });
  } else {
    for (int64_t o = 0; o < p.num_outputs; ++o)
      write(o, detail::reduce_output(ops, in + detail::kept_offset(p, o), p, /*parallel=*/true));
  }
}

}  // namespace torch::kernels
