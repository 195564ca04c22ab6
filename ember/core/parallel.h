#pragma once
// The intra-op thread pool is OpenMP's, shared with oneDNN and OpenBLAS so
// two pools never fight over the cores. parallel_for splits [begin, end)
// into contiguous chunks and runs serially below `grain` elements, so tiny
// tensors never pay for a thread dispatch.
#include <cstdint>
#include <functional>

#include "ember/core/namespace.h"

namespace torch {

constexpr int64_t kGrainSize = 32768;

void set_num_threads(int n);
int get_num_threads();
int get_thread_num();
bool in_parallel_region();

void parallel_for_impl(int64_t begin, int64_t end, int64_t grain, const std::function<void(int64_t, int64_t)>& f);

template <typename F>
inline void parallel_for(int64_t begin, int64_t end, int64_t grain, const F& f) {
  if (end <= begin) return;
  if (end - begin <= grain || get_num_threads() == 1 || in_parallel_region()) {
    f(begin, end);
    return;
  }
  parallel_for_impl(begin, end, grain, f);
}

}  // namespace torch
