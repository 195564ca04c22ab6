// OpInfo entries for the spatial-transformer and pooling compositions
// (ops/nn/grid_sample.cpp, ops/nn/max_unpool.cpp, pdist, channel_shuffle, and
// nn::functional's lp_pool): gradients reach the input and the grid through
// gather, arithmetic and where, and the walks check that they compose.
#include "ember/nn/functional.h"
#include "ember/ops/nn/distance.h"
#include "ember/ops/nn/grid_sample.h"
#include "ember/ops/nn/pool.h"
#include "ember/ops/nn/upsample.h"
#include "opinfo.h"

namespace torch::testing {
namespace {

using Shapes = std::vector<std::vector<int64_t>>;
namespace F = nn::functional;

OpInfo op(const char* name, std::function<Tensor(const variable_list&)> f, Shapes shapes, double lo = -1,
          double hi = 1) {
  return single_output_op(name, std::move(f), std::move(shapes), lo, hi, 419);
}

// The grid spills 20 % past [-1, 1], so the padding modes matter.
OpInfo grid_sampler_op(const char* name, int64_t mode, int64_t padding, bool align) {
  return op(name, [=](const variable_list& x) { return grid_sampler(x[0], x[1] * 1.2, mode, padding, align); },
            {{1, 2, 3, 4}, {1, 2, 3, 2}});
}

RegisterOps reg({
    grid_sampler_op("grid_sampler(bilinear, zeros)", 0, 0, false),
    grid_sampler_op("grid_sampler(bilinear, border, align_corners)", 0, 1, true),
    grid_sampler_op("grid_sampler(bilinear, reflection)", 0, 2, false),
    grid_sampler_op("grid_sampler(nearest, zeros)", 1, 0, false),
    op("grid_sampler(3-d, reflection, align_corners)",
       [](const variable_list& x) { return grid_sampler(x[0], x[1] * 1.2, 0, 2, true); },
       {{1, 1, 2, 3, 2}, {1, 2, 1, 2, 3}}),
    op("affine_grid_generator",
       [](const variable_list& x) {
         return affine_grid_generator(x[0], {2, 1, 3, 2}, false);
       },
       {{2, 2, 3}}),
    op("affine_grid_generator(3-d, align_corners)",
       [](const variable_list& x) {
         return affine_grid_generator(x[0], {1, 1, 2, 2, 3}, true);
       },
       {{1, 3, 4}}),
    op("pdist", [](const variable_list& x) { return pdist(x[0]); }, {{4, 3}}),
    op("pdist(p=1.5)", [](const variable_list& x) { return pdist(x[0], 1.5); }, {{3, 2}}),
    op("channel_shuffle", [](const variable_list& x) { return channel_shuffle(x[0], 2); }, {{2, 4, 3}}),
    // unique indices per (n, c) plane, as a max pool gives
    op("max_unpool2d",
       [](const variable_list& x) {
         return max_unpool2d(x[0], tensor({0, 3, 9, 15, 1, 2, 12, 14}, kLong).view({1, 2, 2, 2}), {4, 4});
       },
       {{1, 2, 2, 2}}),
    op("lp_pool2d", [](const variable_list& x) { return F::lp_pool2d(x[0], F::LPPool2dFuncOptions(2, 2).stride(1)); },
       {{1, 2, 3, 3}}),
});

}  // namespace
}  // namespace torch::testing
