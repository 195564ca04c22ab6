#pragma once
// Included by every compatibility header: Ember itself, plus what a LibTorch program
// gets from <torch/torch.h> beyond Ember's own headers.
#if __cplusplus < 202002L
#error \
    "Ember needs C++20: compile with -std=c++20 (in CMake, linking Ember::torch_compat or Ember::ember requires cxx_std_20)"
#endif
#include <ember/torch.h>

// Standard headers LibTorch's <torch/torch.h> brings in and programs rely on
// (std::setprecision, std::set, std::list, assert without their own includes).
#include <cassert>
#include <iomanip>
#include <list>
#include <set>

// c10's assertion macro, used by LibTorch's own examples: AT_ASSERT(!std::isnan(x)).
#ifndef AT_ASSERT
#define AT_ASSERT(...) TORCH_CHECK(__VA_ARGS__)
#endif
