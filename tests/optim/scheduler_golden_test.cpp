// LR schedulers against PyTorch's lr sequences (tools/golden/gen_optim.py):
// SGD (momentum 0.9) with two param groups at lr 0.1 and 0.05; the groups'
// rates (and momenta, where a scheduler cycles them) after construction and
// after each of 30 steps.
#include <cmath>
#include <functional>
#include <map>
#include <memory>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/optim.h"
#include "ember/optim/schedulers/momentum_access.h"

namespace torch {
namespace {

using namespace optim;

const testing::Golden& golden() {
  static const testing::Golden g("optim.golden");
  return g;
}

struct SchedOpt {
  Tensor p1 = zeros({1}, kDouble).requires_grad_();
  Tensor p2 = zeros({1}, kDouble).requires_grad_();
  std::unique_ptr<Optimizer> opt;

  explicit SchedOpt(bool adam = false) {
    std::vector<OptimizerParamGroup> groups;
    groups.emplace_back(std::vector<Tensor>{p1});
    if (adam) {
      groups.emplace_back(std::vector<Tensor>{p2}, std::make_unique<AdamOptions>(0.05));
      opt = std::make_unique<Adam>(std::move(groups), AdamOptions(0.1));
    } else {
      groups.emplace_back(std::vector<Tensor>{p2}, std::make_unique<SGDOptions>(SGDOptions(0.05).momentum(0.9)));
      opt = std::make_unique<SGD>(std::move(groups), SGDOptions(0.1).momentum(0.9));
    }
  }
  std::vector<double> lrs() const {
    std::vector<double> out;
    for (const auto& g : opt->param_groups()) out.push_back(g.options().get_lr());
    return out;
  }
  std::vector<double> momenta() const {
    std::vector<double> out;
    for (const auto& g : opt->param_groups()) out.push_back(optim::detail::get_momentum(g.options()));
    return out;
  }
};

using Stepper = std::function<void()>;
using Maker = std::function<Stepper(Optimizer&)>;

template <typename S>
Stepper hold(std::shared_ptr<S> s) {
  return [s] { s->step(); };
}

const std::map<std::string, Maker>& cases() {
  static const std::map<std::string, Maker> m = {
      {"step", [](Optimizer& o) { return hold(std::make_shared<StepLR>(o, 7, 0.5)); }},
      {"multistep",
       [](Optimizer& o) {
         return hold(std::make_shared<MultiStepLR>(o, std::vector<int64_t>{5, 12, 12, 20}, 0.5));
       }},
      {"exponential", [](Optimizer& o) { return hold(std::make_shared<ExponentialLR>(o, 0.9)); }},
      {"cosine", [](Optimizer& o) { return hold(std::make_shared<CosineAnnealingLR>(o, 10, 0.001)); }},
      {"warm_restarts",
       [](Optimizer& o) { return hold(std::make_shared<CosineAnnealingWarmRestarts>(o, 5, 2, 0.001)); }},
      {"warm_restarts_1", [](Optimizer& o) { return hold(std::make_shared<CosineAnnealingWarmRestarts>(o, 7)); }},
      {"onecycle",
       [](Optimizer& o) {
         return hold(std::make_shared<OneCycleLR>(o, std::vector<double>{1.0, 0.5}, 35));
       }},
      {"onecycle_linear3",
       [](Optimizer& o) {
         return hold(std::make_shared<OneCycleLR>(o, std::vector<double>{0.8}, std::nullopt, 4, 8, 0.25,
                                                  OneCycleLR::AnnealStrategy::linear, true, std::vector<double>{0.85},
                                                  std::vector<double>{0.95}, 25., 1e4, true));
       }},
      {"cyclic",
       [](Optimizer& o) {
         return hold(std::make_shared<CyclicLR>(o, std::vector<double>{0.01}, std::vector<double>{0.1}, 4, 6));
       }},
      {"cyclic_tri2",
       [](Optimizer& o) {
         return hold(std::make_shared<CyclicLR>(o, std::vector<double>{0.01, 0.02}, std::vector<double>{0.1}, 3,
                                                std::nullopt, CyclicLR::Mode::triangular2, 1.0, nullptr,
                                                CyclicLR::ScaleMode::cycle, false));
       }},
      {"cyclic_exp",
       [](Optimizer& o) {
         return hold(std::make_shared<CyclicLR>(o, std::vector<double>{0.01}, std::vector<double>{0.1}, 5, std::nullopt,
                                                CyclicLR::Mode::exp_range, 0.9));
       }},
      {"linear", [](Optimizer& o) { return hold(std::make_shared<LinearLR>(o, 0.25, 1.0, 8)); }},
      {"constant", [](Optimizer& o) { return hold(std::make_shared<ConstantLR>(o, 0.5, 6)); }},
      {"polynomial", [](Optimizer& o) { return hold(std::make_shared<PolynomialLR>(o, 10, 2.0)); }},
      {"lambda",
       [](Optimizer& o) {
         return hold(std::make_shared<LambdaLR>(
             o, std::vector<LrLambda>{[](int64_t e) { return std::pow(0.95, static_cast<double>(e)); },
                                      [](int64_t e) { return 1.0 / static_cast<double>(1 + e); }}));
       }},
      {"multiplicative",
       [](Optimizer& o) { return hold(std::make_shared<MultiplicativeLR>(o, [](int64_t) { return 0.9; })); }},
      {"sequential",
       [](Optimizer& o) {
         std::vector<std::shared_ptr<LRScheduler>> s{std::make_shared<LinearLR>(o, 0.1, 1.0, 5),
                                                     std::make_shared<ExponentialLR>(o, 0.9)};
         return hold(std::make_shared<SequentialLR>(o, s, std::vector<int64_t>{5}));
       }},
      {"sequential3",
       [](Optimizer& o) {
         std::vector<std::shared_ptr<LRScheduler>> s{std::make_shared<ConstantLR>(o, 0.5, 3),
                                                     std::make_shared<StepLR>(o, 4),
                                                     std::make_shared<CosineAnnealingLR>(o, 8)};
         return hold(std::make_shared<SequentialLR>(o, s, std::vector<int64_t>{6, 15}));
       }},
      {"sequential_lambda_warm",
       [](Optimizer& o) {
         std::vector<std::shared_ptr<LRScheduler>> s{
             std::make_shared<ExponentialLR>(o, 0.8),
             std::make_shared<LambdaLR>(o, [](int64_t e) { return 1.0 / static_cast<double>(1 + e); }),
             std::make_shared<CosineAnnealingWarmRestarts>(o, 4)};
         return hold(std::make_shared<SequentialLR>(o, s, std::vector<int64_t>{4, 10}));
       }},
      {"chained",
       [](Optimizer& o) {
         return hold(std::make_shared<ChainedScheduler>(std::vector<std::shared_ptr<LRScheduler>>{
             std::make_shared<ConstantLR>(o, 0.5, 4), std::make_shared<ExponentialLR>(o, 0.9)}));
       }},
      {"chained_step_cos",
       [](Optimizer& o) {
         return hold(std::make_shared<ChainedScheduler>(std::vector<std::shared_ptr<LRScheduler>>{
             std::make_shared<StepLR>(o, 5, 0.5), std::make_shared<CosineAnnealingLR>(o, 12)}));
       }},
  };
  return m;
}

void expect_row(const std::vector<double>& actual, const Tensor& expected, int64_t step, const char* what) {
  ASSERT_EQ(static_cast<int64_t>(actual.size()), expected.size(0));
  for (size_t g = 0; g < actual.size(); ++g) {
    const double e = expected[static_cast<int64_t>(g)].item<double>();
    EXPECT_NEAR(actual[g], e, 1e-12 + 1e-12 * std::abs(e)) << what << " of group " << g << " after step " << step;
  }
}

class SchedulerGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(SchedulerGolden, LrSequence) {
  const std::string name = GetParam();
  SchedOpt so(name == "onecycle_linear3");
  Stepper step = cases().at(name)(*so.opt);
  const Tensor lrs = golden()[name + ".lr"];
  const Tensor moms = golden()[name + ".momentum"];
  for (int64_t i = 0; i < lrs.size(0); ++i) {
    if (i > 0) {
      so.opt->step();
      step();
    }
    expect_row(so.lrs(), lrs[i], i, "lr");
    expect_row(so.momenta(), moms[i], i, "momentum");
  }
}

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  for (const auto& [name, f] : cases()) names.push_back(name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(All, SchedulerGolden, ::testing::ValuesIn(case_names()),
                         [](const auto& info) { return info.param; });

TEST(SchedulerGoldenWarmRestarts, FractionalEpochs) {
  SchedOpt so;
  CosineAnnealingWarmRestarts s(*so.opt, 3, 2, 0.01);
  const Tensor lrs = golden()["warm_restarts_frac.lr"];
  expect_row(so.lrs(), lrs[0], 0, "lr");
  for (int64_t i = 0; i + 1 < lrs.size(0); ++i) {
    s.step(static_cast<double>(i) * 0.7);
    expect_row(so.lrs(), lrs[i + 1], i + 1, "lr");
  }
}

TEST(SchedulerGoldenPlateau, MinRel) {
  SchedOpt so;
  ReduceLROnPlateauScheduler s(*so.opt, ReduceLROnPlateauScheduler::min, 0.5, 2, 0.01, ReduceLROnPlateauScheduler::rel,
                               1, {0.01});
  const Tensor metrics = golden()["plateau.metrics"];
  const Tensor lrs = golden()["plateau.lr"];
  expect_row(so.lrs(), lrs[0], 0, "lr");
  for (int64_t i = 0; i < metrics.size(0); ++i) {
    s.step(metrics[i].item<double>());
    expect_row(so.lrs(), lrs[i + 1], i + 1, "lr");
  }
}

TEST(SchedulerGoldenPlateau, MaxAbsPerGroupMinLr) {
  SchedOpt so;
  ReduceLROnPlateau s(*so.opt, ReduceLROnPlateau::max, 0.3, 1, 0.02, ReduceLROnPlateau::abs, 0, {0.0, 0.02});
  const Tensor metrics = golden()["plateau.metrics"];
  const Tensor lrs = golden()["plateau_max_abs.lr"];
  for (int64_t i = 0; i < metrics.size(0); ++i) {
    s.step(metrics[i].item<double>());
    expect_row(so.lrs(), lrs[i + 1], i + 1, "lr");
  }
}

}  // namespace
}  // namespace torch
