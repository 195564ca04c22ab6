// Optimizers against PyTorch trajectories (tools/golden/gen_optim.py): the
// same parameters, loss and options, 20 steps, parameters compared after each
// step; LBFGS with and without the strong-Wolfe line search.
#include <functional>
#include <map>
#include <memory>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/optim.h"

namespace torch {
namespace {

using optim::Optimizer;
using Factory = std::function<std::unique_ptr<Optimizer>(std::vector<Tensor>)>;

const testing::Golden& golden() {
  static const testing::Golden g("optim.golden");
  return g;
}

// The loss of gen_optim.py, with the data cast to the parameters' dtype.
Tensor loss_fn(const Tensor& x, const Tensor& y) {
  const auto dt = y.dtype();
  const Tensor A = golden()["A"].to(dt), b = golden()["b"].to(dt), c = golden()["c"].to(dt);
  Tensor r = A.matmul(y) - b;
  return (r * r).sum() + (x * x * x * x * 0.25 - c * x).sum() + (x[0] * y).sum();
}

struct Params {
  Tensor x, y, z;
};

Params make_params(ScalarType dtype = kDouble) {
  Params p;
  p.x = golden()["x0"].to(dtype).clone().requires_grad_();
  p.y = golden()["y0"].to(dtype).clone().requires_grad_();
  p.z = zeros({2}, kDouble).requires_grad_();  // never receives a gradient
  return p;
}

template <typename Opt, typename Options>
Factory make(Options options) {
  return [options](std::vector<Tensor> params) { return std::make_unique<Opt>(std::move(params), options); };
}

const std::map<std::string, Factory>& cases() {
  using namespace optim;
  static const std::map<std::string, Factory> m = {
      {"sgd", make<SGD>(SGDOptions(0.01))},
      {"sgd_momentum", make<SGD>(SGDOptions(0.01).momentum(0.9).dampening(0.1).weight_decay(0.05))},
      {"sgd_nesterov", make<SGD>(SGDOptions(0.01).momentum(0.9).nesterov(true).weight_decay(0.01))},
      {"adam", make<Adam>(AdamOptions(0.05))},
      {"adam_amsgrad", make<Adam>(AdamOptions(0.05).betas({0.8, 0.9}).eps(1e-6).weight_decay(0.1).amsgrad(true))},
      {"adamw", make<AdamW>(AdamWOptions(0.05))},
      {"adamw_amsgrad", make<AdamW>(AdamWOptions(0.05).weight_decay(0.1).amsgrad(true))},
      {"rmsprop", make<RMSprop>(RMSpropOptions(0.01))},
      {"rmsprop_centered",
       make<RMSprop>(RMSpropOptions(0.01).alpha(0.9).momentum(0.5).centered(true).weight_decay(0.1))},
      {"adagrad", make<Adagrad>(AdagradOptions(0.1))},
      {"adagrad_decay",
       make<Adagrad>(AdagradOptions(0.1).lr_decay(0.01).weight_decay(0.1).initial_accumulator_value(0.5))},
      {"adadelta", make<Adadelta>(AdadeltaOptions())},
      {"adadelta_wd", make<Adadelta>(AdadeltaOptions(0.5).rho(0.8).weight_decay(0.1))},
      {"adamax", make<Adamax>(AdamaxOptions(0.05))},
      {"adamax_wd", make<Adamax>(AdamaxOptions(0.05).betas(std::make_tuple(0.8, 0.9)).weight_decay(0.1))},
      {"nadam", make<NAdam>(NAdamOptions(0.05))},
      {"nadam_wd", make<NAdam>(NAdamOptions(0.05).weight_decay(0.1).momentum_decay(0.01))},
      {"radam", make<RAdam>(RAdamOptions(0.05))},
      {"radam_wd", make<RAdam>(RAdamOptions(0.05).betas({0.9, 0.99}).weight_decay(0.1))},
      {"sgd_groups",
       [](std::vector<Tensor> p) {
         std::vector<OptimizerParamGroup> groups;
         groups.emplace_back(std::vector<Tensor>{p[0], p[2]});
         groups.emplace_back(std::vector<Tensor>{p[1]}, std::make_unique<SGDOptions>(SGDOptions(0.05).momentum(0.5)));
         return std::make_unique<SGD>(std::move(groups), SGDOptions(0.01));
       }},
  };
  return m;
}

void run_case(const std::string& name, const Factory& factory, ScalarType dtype, double rtol, double atol) {
  SCOPED_TRACE(name);
  Params p = make_params(dtype);
  auto opt = factory({p.x, p.y, p.z});
  const Tensor expected = golden()[name + ".traj"];
  for (int64_t step = 0; step < expected.size(0); ++step) {
    opt->zero_grad();
    loss_fn(p.x, p.y).backward();
    opt->step();
    const Tensor row = cat({p.x.detach().reshape({-1}), p.y.detach()}).to(expected.dtype());
    EXPECT_TENSOR_CLOSE_TOL(row, expected[step], rtol, atol) << "step " << step + 1;
  }
  EXPECT_FALSE(p.z.grad().defined());
}

class OptimGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(OptimGolden, Float64Trajectory) { run_case(GetParam(), cases().at(GetParam()), kDouble, 1e-10, 1e-12); }

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  for (const auto& [name, f] : cases()) names.push_back(name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(All, OptimGolden, ::testing::ValuesIn(case_names()),
                         [](const auto& info) { return info.param; });

TEST(OptimGoldenFloat32, AdamAndSgdMomentum) {
  run_case("adam_f32", cases().at("adam"), kFloat, 1e-4, 1e-5);
  run_case("sgd_momentum_f32", cases().at("sgd_momentum"), kFloat, 1e-4, 1e-5);
}

class LBFGSGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(LBFGSGolden, Trajectory) {
  const std::string name = GetParam();
  Params p = make_params();
  optim::LBFGSOptions options;
  if (name != "lbfgs_wolfe_default") options.max_iter(5).history_size(3);
  if (name != "lbfgs") options.line_search_fn("strong_wolfe");
  optim::LBFGS opt({p.x, p.y}, options);
  auto closure = [&] {
    opt.zero_grad();
    Tensor l = loss_fn(p.x, p.y);
    l.backward();
    return l;
  };
  const Tensor traj = golden()[name + ".traj"];
  const Tensor losses = golden()[name + ".loss"];
  const Tensor evals = golden()[name + ".func_evals"];
  for (int64_t step = 0; step < traj.size(0); ++step) {
    SCOPED_TRACE("step " + std::to_string(step + 1));
    const double loss = opt.step(closure).item<double>();
    EXPECT_NEAR(loss, losses[step].item<double>(), 1e-9 * std::abs(losses[step].item<double>()));
    const Tensor row = cat({p.x.detach().reshape({-1}), p.y.detach()});
    EXPECT_TENSOR_CLOSE_TOL(row, traj[step], 1e-8, 1e-10);
    const auto& st = static_cast<const optim::LBFGSParamState&>(*opt.state().at(optim::param_key(p.x)));
    EXPECT_EQ(st.func_evals(), evals[step].item<int64_t>());
  }
}

INSTANTIATE_TEST_SUITE_P(All, LBFGSGolden, ::testing::Values("lbfgs", "lbfgs_wolfe", "lbfgs_wolfe_default"),
                         [](const auto& info) { return info.param; });

// NAdam keeps mu_product in the default dtype (Note [NAdam mu_product]). Five steps on
// sum(p^3) from p = [1, -2, 0.5], lr 0.05, in PyTorch 1.13:
//   default float64 -> [0.8114862892322494, -2.2076612198731578, 0.32540507398824264]
//   default float32 -> [0.8114862886775585, -2.2076612205052157, 0.3254050735088721]
TEST(NAdamGolden, MuProductFollowsTheDefaultDtype) {
  for (const ScalarType dd : {kDouble, kFloat}) {
    SCOPED_TRACE(dtype_name(dd));
    set_default_dtype(dd);
    Tensor p = tensor({1.0, -2.0, 0.5}, kDouble).requires_grad_();
    optim::NAdam opt({p}, optim::NAdamOptions(0.05));
    for (int i = 0; i < 5; ++i) {
      opt.zero_grad();
      (p * p * p).sum().backward();
      opt.step();
    }
    set_default_dtype(kFloat);
    const Tensor expected = dd == kDouble
                                ? tensor({0.8114862892322494, -2.2076612198731578, 0.32540507398824264}, kDouble)
                                : tensor({0.8114862886775585, -2.2076612205052157, 0.3254050735088721}, kDouble);
    EXPECT_TENSOR_CLOSE_TOL(p.detach(), expected, 1e-14, 1e-15);
  }
}

}  // namespace
}  // namespace torch
