// Ops that PyTorch differentiates must not hand back outputs that silently
// stop requiring grad: each call below takes float64 inputs that require grad
// and its (floating) output must require grad. Ember has no central dispatcher
// where a missing formula could be caught, so this list (public ops outside
// the OpInfo registry: composites, aliases, tuple-returning reductions) is the
// check; every op with its own formula is in the registry.
#include <gtest/gtest.h>

#include <functional>

#include "common/test_util.h"
#include "ember/ember.h"

using namespace ember;

namespace {

Tensor rg(IntArrayRef shape, uint64_t seed = 1) {
  manual_seed(seed);
  return (rand(shape, TensorOptions(kDouble)) + 0.5).requires_grad_();
}

struct Case {
  const char* name;
  std::function<Tensor()> fn;
};

}  // namespace

TEST(RequiresGradPropagation, PublicOpsOutsideTheRegistry) {
  const std::vector<Case> cases = {
      {"nan_to_num", [] { return nan_to_num(rg({3})); }},
      {"round", [] { return round(rg({3})); }},
      {"angle", [] { return angle(rg({3})); }},
      {"real", [] { return real(rg({3})); }},
      {"frobenius_norm",
       [] {
         return frobenius_norm(rg({2, 3}));
       }},
      {"nansum",
       [] {
         return nansum(rg({2, 3}));
       }},
      {"nanmean",
       [] {
         return nanmean(rg({2, 3}));
       }},
      {"var_mean[0]",
       [] {
         return std::get<0>(var_mean(rg({2, 3})));
       }},
      {"var_mean[1]",
       [] {
         return std::get<1>(var_mean(rg({2, 3})));
       }},
      {"std_mean[0]",
       [] {
         return std::get<0>(std_mean(rg({2, 3})));
       }},
      {"chain_matmul",
       [] {
         return chain_matmul({rg({2, 3}), rg({3, 2}, 2)});
       }},
      {"multi_dot",
       [] {
         return multi_dot({rg({2, 3}), rg({3, 2}, 2)});
       }},
      {"vdot", [] { return vdot(rg({3}), rg({3}, 2)); }},
      {"ger", [] { return ger(rg({3}), rg({2}, 2)); }},
      {"conv_transpose3d",
       [] {
         return conv_transpose3d(rg({1, 1, 2, 2, 2}), rg({1, 1, 2, 2, 2}, 2));
       }},
      {"pixel_unshuffle",
       [] {
         return pixel_unshuffle(rg({1, 1, 4, 4}), 2);
       }},
      {"upsample_nearest1d",
       [] {
         return upsample_nearest1d(rg({1, 1, 3}), {6});
       }},
      {"feature_alpha_dropout",
       [] {
         return feature_alpha_dropout(rg({2, 3, 4}), 0.5, true);
       }},
      {"adaptive_avg_pool3d",
       [] {
         return adaptive_avg_pool3d(rg({1, 1, 4, 4, 4}), {2, 2, 2});
       }},
      {"adaptive_max_pool1d",
       [] {
         return std::get<0>(adaptive_max_pool1d(rg({1, 1, 6}), {3}));
       }},
      {"max_pool1d_with_indices",
       [] {
         return std::get<0>(max_pool1d_with_indices(rg({1, 1, 6}), {2}));
       }},
      {"block_diag",
       [] {
         return block_diag({rg({2, 2}), rg({1, 3}, 2)});
       }},
      {"cartesian_prod",
       [] {
         return cartesian_prod({rg({2}), rg({3}, 2)});
       }},
      {"column_stack",
       [] {
         return column_stack({rg({2}), rg({2}, 2)});
       }},
      {"dstack",
       [] {
         return dstack({rg({2}), rg({2}, 2)});
       }},
      {"atleast_1d", [] { return atleast_1d(rg({})); }},
      {"fliplr",
       [] {
         return fliplr(rg({2, 2}));
       }},
      {"repeat_interleave", [] { return repeat_interleave(rg({3}), 2); }},
      {"meshgrid",
       [] {
         return meshgrid({rg({2}), rg({3}, 2)})[1];
       }},
      {"aminmax",
       [] {
         return std::get<1>(aminmax(rg({2, 3})));
       }},
  };
  for (const Case& c : cases) {
    Tensor out;
    try {
      out = c.fn();
    } catch (const std::exception& e) {
      ADD_FAILURE() << c.name << " threw: " << e.what();
      continue;
    }
    EXPECT_TRUE(out.requires_grad()) << c.name << " returned an output that does not require grad";
  }
}
