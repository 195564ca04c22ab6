// The LibTorch-shaped API of ember::optim: spellings real programs use,
// param groups and options, state keys, zero_grad, closures, user-defined
// optimizers and schedulers, state visiting, and the error cases.
#include <map>
#include <typeinfo>

#include "common/test_util.h"
#include "ember/autograd/grad_mode.h"
#include "ember/torch.h"

namespace torch {
namespace {

std::vector<Tensor> two_params() {
  return {ones({2, 2}, kDouble).requires_grad_(), ones({3}, kDouble).requires_grad_()};
}

void backward_sum(const std::vector<Tensor>& ps) {
  Tensor loss = zeros({}, kDouble);
  for (const auto& p : ps) loss = loss + (p * p).sum();
  loss.backward();
}

TEST(OptimApi, LibTorchSpellings) {
  auto params = two_params();
  torch::optim::SGD sgd(params, torch::optim::SGDOptions(0.1).momentum(0.9).nesterov(true));
  torch::optim::Adam adam(params, torch::optim::AdamOptions(1e-3).betas({0.5, 0.5}));
  torch::optim::Adam adam2(params, torch::optim::AdamOptions(2e-3).betas(std::make_tuple(0.9, 0.99)).amsgrad(true));
  torch::optim::AdamW adamw(params);
  torch::optim::RMSprop rms(params, torch::optim::RMSpropOptions(0.01).centered(true));
  torch::optim::Adagrad adagrad(params, torch::optim::AdagradOptions(0.1).lr_decay(0.01));
  torch::optim::LBFGS lbfgs(params, torch::optim::LBFGSOptions(1).max_iter(10).line_search_fn("strong_wolfe"));
  EXPECT_EQ(std::get<0>(static_cast<torch::optim::AdamOptions&>(adam.param_groups()[0].options()).betas()), 0.5);
  EXPECT_DOUBLE_EQ(static_cast<torch::optim::AdamWOptions&>(adamw.defaults()).weight_decay(), 1e-2);
  // LBFGS fills in max_eval = max_iter * 5 / 4.
  EXPECT_EQ(static_cast<torch::optim::LBFGSOptions&>(lbfgs.param_groups()[0].options()).max_eval(), 12);

  // Changing the learning rate as LR-scheduling programs do.
  for (auto& group : sgd.param_groups()) static_cast<torch::optim::SGDOptions&>(group.options()).lr(0.01);
  EXPECT_DOUBLE_EQ(sgd.param_groups()[0].options().get_lr(), 0.01);
  sgd.param_groups()[0].options().set_lr(0.5);
  EXPECT_DOUBLE_EQ(dynamic_cast<torch::optim::SGDOptions&>(sgd.param_groups()[0].options()).lr(), 0.5);
  EXPECT_DOUBLE_EQ(static_cast<torch::optim::SGDOptions&>(sgd.defaults()).lr(), 0.1);  // groups own copies
  EXPECT_THROW((void)dynamic_cast<torch::optim::AdamOptions&>(sgd.param_groups()[0].options()), std::bad_cast);
  torch::optim::SGD sgd_plain(params, /*lr=*/0.01);  // a bare double converts to the options
  torch::optim::Adam adam_plain(params, 2e-4);
  EXPECT_DOUBLE_EQ(sgd_plain.defaults().get_lr(), 0.01);
  for (auto& group : adam_plain.param_groups()) {
    if (group.has_options()) {
      auto& options = static_cast<torch::optim::AdamOptions&>(group.options());
      options.lr(options.lr() * 0.5);
    }
  }
  EXPECT_DOUBLE_EQ(adam_plain.param_groups()[0].options().get_lr(), 1e-4);
  torch::optim::Optimizer& base = adam;
  EXPECT_EQ(base.size(), 2u);
}

TEST(OptimApi, DefaultsMatchLibTorch) {
  optim::AdamOptions adam;
  EXPECT_EQ(adam.lr(), 1e-3);
  EXPECT_EQ(adam.betas(), std::make_tuple(0.9, 0.999));
  EXPECT_EQ(adam.eps(), 1e-8);
  EXPECT_EQ(adam.weight_decay(), 0);
  EXPECT_FALSE(adam.amsgrad());
  optim::RMSpropOptions rms;
  EXPECT_EQ(rms.lr(), 1e-2);
  EXPECT_EQ(rms.alpha(), 0.99);
  EXPECT_EQ(rms.eps(), 1e-8);
  optim::AdagradOptions ada;
  EXPECT_EQ(ada.eps(), 1e-10);
  optim::LBFGSOptions lb;
  EXPECT_EQ(lb.lr(), 1);
  EXPECT_EQ(lb.max_iter(), 20);
  EXPECT_FALSE(lb.max_eval().has_value());
  EXPECT_EQ(lb.tolerance_grad(), 1e-7);
  EXPECT_EQ(lb.tolerance_change(), 1e-9);
  EXPECT_EQ(lb.history_size(), 100);
  EXPECT_EQ(optim::AdadeltaOptions().lr(), 1.0);
  EXPECT_EQ(optim::AdamaxOptions().lr(), 2e-3);
  EXPECT_EQ(optim::NAdamOptions().momentum_decay(), 4e-3);
}

TEST(OptimApi, ZeroGradFillsWithZeros) {
  auto params = two_params();
  optim::SGD opt(params, optim::SGDOptions(0.1));
  opt.zero_grad();  // no gradients yet: nothing to do
  EXPECT_FALSE(params[0].grad().defined());
  backward_sum(params);
  opt.zero_grad();
  ASSERT_TRUE(params[0].grad().defined());  // LibTorch 1.13 keeps the tensors
  EXPECT_TENSOR_EQ(params[0].grad(), zeros({2, 2}, kDouble));
  EXPECT_TENSOR_EQ(params[1].grad(), zeros({3}, kDouble));
}

TEST(OptimApi, StepRunsClosureWithGradAndReturnsLoss) {
  auto params = two_params();
  optim::SGD opt(params, optim::SGDOptions(0.1));
  EXPECT_FALSE(opt.step().defined());  // no closure, no gradients: nothing changes
  EXPECT_TENSOR_EQ(params[0], ones({2, 2}, kDouble));
  bool grad_was_on = false;
  Tensor loss = opt.step([&] {
    grad_was_on = GradMode::is_enabled();
    opt.zero_grad();
    Tensor l = (params[0] * params[0]).sum();
    l.backward();
    return l;
  });
  EXPECT_TRUE(grad_was_on);
  EXPECT_DOUBLE_EQ(loss.item<double>(), 4.0);
  EXPECT_TENSOR_CLOSE(params[0], full({2, 2}, 0.8, kDouble));  // 1 - 0.1 * 2
  EXPECT_TRUE(GradMode::is_enabled());                         // restored after step
  EXPECT_TRUE(params[0].requires_grad());
  EXPECT_TRUE(params[0].is_leaf());
}

TEST(OptimApi, StateKeyedByTensorImpl) {
  auto params = two_params();
  optim::Adam opt(params);
  EXPECT_TRUE(opt.state().empty());  // created lazily, as LibTorch
  backward_sum(params);
  opt.step();
  ASSERT_EQ(opt.state().size(), 2u);
  const auto& st = static_cast<const optim::AdamParamState&>(*opt.state().at(optim::param_key(params[1])));
  EXPECT_EQ(st.step(), 1);
  EXPECT_EQ(st.exp_avg().sizes(), params[1].sizes());
  EXPECT_FALSE(st.max_exp_avg_sq().defined());
  // Adagrad's accumulators exist from construction on (PyTorch and LibTorch).
  optim::Adagrad adagrad(params, optim::AdagradOptions().initial_accumulator_value(0.25));
  ASSERT_EQ(adagrad.state().size(), 2u);
  const auto& ast = static_cast<const optim::AdagradParamState&>(*adagrad.state().at(optim::param_key(params[0])));
  EXPECT_TENSOR_EQ(ast.sum(), full({2, 2}, 0.25, kDouble));
  EXPECT_NE(dynamic_cast<optim::AdagradParamState*>(adagrad.make_param_state().get()), nullptr);
}

TEST(OptimApi, ParamGroups) {
  auto params = two_params();
  Tensor extra = ones({1}, kDouble).requires_grad_();
  optim::SGD opt(std::vector<optim::OptimizerParamGroup>{optim::OptimizerParamGroup({params[0]})},
                 optim::SGDOptions(0.1));
  opt.add_param_group(optim::OptimizerParamGroup({params[1]}, std::make_unique<optim::SGDOptions>(0.5)));
  ASSERT_EQ(opt.param_groups().size(), 2u);
  EXPECT_EQ(opt.size(), 2u);
  EXPECT_DOUBLE_EQ(opt.param_groups()[1].options().get_lr(), 0.5);
  EXPECT_EQ(opt.parameters().size(), 1u);
  opt.add_parameters({extra});
  EXPECT_EQ(opt.parameters().size(), 2u);
  EXPECT_EMBER_ERROR(opt.add_param_group(optim::OptimizerParamGroup({params[1]})),
                     "some parameters appear in more than one parameter group");
  Tensor non_leaf = params[0] * 2;
  EXPECT_EMBER_ERROR(opt.add_param_group(optim::OptimizerParamGroup({non_leaf})), "non-leaf");
  // Copying a group deep-copies its options.
  optim::OptimizerParamGroup copy(opt.param_groups()[1]);
  copy.options().set_lr(7);
  EXPECT_DOUBLE_EQ(opt.param_groups()[1].options().get_lr(), 0.5);
}

TEST(OptimApi, Errors) {
  auto params = two_params();
  EXPECT_EMBER_ERROR(optim::SGD(params, optim::SGDOptions(-1)), "SGD: Invalid learning rate: -1");
  EXPECT_EMBER_ERROR(optim::SGD(params, optim::SGDOptions(0.1).nesterov(true)),
                     "Nesterov momentum requires a momentum and zero dampening");
  EXPECT_EMBER_ERROR(optim::Adam(params, optim::AdamOptions().betas({1.0, 0.9})),
                     "Adam: Invalid beta parameter at index 0: 1");
  EXPECT_EMBER_ERROR(optim::AdamW(params, optim::AdamWOptions().eps(-1)), "AdamW: Invalid epsilon value");
  EXPECT_EMBER_ERROR(optim::RMSprop(params, optim::RMSpropOptions().momentum(-1)), "RMSprop: Invalid momentum");
  EXPECT_EMBER_ERROR(optim::Adagrad(params, optim::AdagradOptions().lr_decay(-1)), "Adagrad: Invalid lr_decay");
  EXPECT_EMBER_ERROR(optim::Adadelta(params, optim::AdadeltaOptions().rho(2)), "Adadelta: Invalid rho value");
  EXPECT_EMBER_ERROR(optim::NAdam(params, optim::NAdamOptions().momentum_decay(-1)), "NAdam: Invalid momentum_decay");
  EXPECT_EMBER_ERROR(optim::LBFGS(params, optim::LBFGSOptions().line_search_fn("backtracking")),
                     "LBFGS: only 'strong_wolfe' is supported");
  std::vector<optim::OptimizerParamGroup> groups{optim::OptimizerParamGroup({params[0]}),
                                                 optim::OptimizerParamGroup({params[1]})};
  EXPECT_EMBER_ERROR(optim::LBFGS(groups, optim::LBFGSOptions()), "LBFGS doesn't support per-parameter options");
  optim::LBFGS lbfgs(params);
  EXPECT_EMBER_ERROR(lbfgs.step(nullptr), "LBFGS: step() requires a closure");
  optim::OptimizerOptions bare;
  EXPECT_EMBER_ERROR(bare.get_lr(), "OptimizerOptions: get_lr() is not implemented");
}

// A user-defined optimizer written against LibTorch's extension API.
struct MySGDOptions : public optim::OptimizerCloneableOptions<MySGDOptions> {
  explicit MySGDOptions(double lr) : lr_(lr) {}
  double get_lr() const override { return lr_; }
  void set_lr(double lr) override { lr_ = lr; }
  double lr_;
};

class MySGD : public optim::Optimizer {
 public:
  MySGD(std::vector<Tensor> params, MySGDOptions o) : Optimizer(std::move(params), std::make_unique<MySGDOptions>(o)) {}
  Tensor step(LossClosure closure = nullptr) override {
    NoGradGuard no_grad;
    for (auto& group : param_groups())
      for (auto& p : group.params())
        if (p.grad().defined()) p.add_(p.grad(), -group.options().get_lr());
    return {};
  }
};

// A user scheduler written for LibTorch: get_lrs() sees step_count_, the number
// of completed step() calls.
class HalveEveryOther : public optim::LRScheduler {
 public:
  explicit HalveEveryOther(optim::Optimizer& o) : LRScheduler(o) {}

 private:
  std::vector<double> get_lrs() override {
    auto lrs = get_current_lrs();
    if (step_count_ % 2 == 1)
      for (double& lr : lrs) lr /= 2;
    return lrs;
  }
};

TEST(OptimApi, UserDefinedOptimizerAndScheduler) {
  auto params = two_params();
  MySGD opt(params, MySGDOptions(0.25));
  backward_sum(params);
  opt.step();
  EXPECT_TENSOR_CLOSE(params[1], full({3}, 0.5, kDouble));
  HalveEveryOther sched(opt);
  std::vector<double> seen;
  for (int i = 0; i < 4; ++i) {
    sched.step();
    seen.push_back(opt.param_groups()[0].options().get_lr());
  }
  EXPECT_EQ(seen, (std::vector<double>{0.25, 0.125, 0.125, 0.0625}));
}

// Records what a visitor sees (Note [Optimizer state as named values]).
struct Recorder : optim::StateVisitor {
  std::map<std::string, std::string> seen;
  void tensor(std::string_view n, Tensor& v) override { seen[std::string(n)] = v.defined() ? "tensor" : "absent"; }
  void tensors(std::string_view n, std::deque<Tensor>& v) override {
    seen[std::string(n)] = "list" + std::to_string(v.size());
  }
  void integer(std::string_view n, int64_t& v) override { seen[std::string(n)] = std::to_string(v); }
  void real(std::string_view n, double& v) override { seen[std::string(n)] = "real"; }
  void flag(std::string_view n, bool& v) override { seen[std::string(n)] = v ? "true" : "false"; }
  void text(std::string_view n, std::string& v) override { seen[std::string(n)] = v; }
};

TEST(OptimApi, StateVisitor) {
  auto params = two_params();
  optim::Adam adam(params, optim::AdamOptions().amsgrad(true));
  backward_sum(params);
  adam.step();
  Recorder r;
  adam.state().at(optim::param_key(params[0]))->visit(r);
  EXPECT_EQ(r.seen, (std::map<std::string, std::string>{
                        {"step", "1"}, {"exp_avg", "tensor"}, {"exp_avg_sq", "tensor"}, {"max_exp_avg_sq", "tensor"}}));
  Recorder o;
  adam.param_groups()[0].options().visit(o);
  EXPECT_EQ(o.seen.at("amsgrad"), "true");
  EXPECT_EQ(o.seen.count("beta2"), 1u);

  // A loader assigns through the same references.
  struct SetStep : Recorder {
    void integer(std::string_view n, int64_t& v) override { v = 41; }
  } loader;
  adam.state().at(optim::param_key(params[0]))->visit(loader);
  EXPECT_EQ(static_cast<optim::AdamParamState&>(*adam.state().at(optim::param_key(params[0]))).step(), 41);

  optim::LBFGS lbfgs(params, optim::LBFGSOptions().line_search_fn("strong_wolfe"));
  Recorder lo;
  lbfgs.param_groups()[0].options().visit(lo);
  EXPECT_EQ(lo.seen.at("line_search_fn"), "strong_wolfe");
  EXPECT_EQ(lo.seen.at("max_eval"), "25");
}

TEST(OptimApi, SchedulerErrors) {
  auto params = two_params();
  optim::SGD sgd(params, optim::SGDOptions(0.1));
  optim::Adam adam(params);
  EXPECT_EMBER_ERROR(optim::ConstantLR(sgd, 2.0), "ConstantLR: Constant multiplicative factor");
  EXPECT_EMBER_ERROR(optim::LinearLR(sgd, -0.5), "LinearLR: Starting multiplicative factor");
  EXPECT_EMBER_ERROR(optim::ReduceLROnPlateauScheduler(sgd, optim::ReduceLROnPlateauScheduler::min, 1.0),
                     "ReduceLROnPlateauScheduler: Factor should be < 1.0");
  EXPECT_EMBER_ERROR(optim::CyclicLR(adam, {0.01}, {0.1}), "CyclicLR: optimizer must support momentum");
  EXPECT_EMBER_ERROR(optim::CyclicLR(sgd, {0.01, 0.02, 0.03}, {0.1}), "CyclicLR: expected 1 values for base_lr, got 3");
  EXPECT_EMBER_ERROR(optim::OneCycleLR(sgd, {0.1}), "OneCycleLR: You must define either total_steps");
  EXPECT_EMBER_ERROR(optim::LambdaLR(sgd, std::vector<optim::LrLambda>{}),
                     "LambdaLR: Expected 1 lr_lambdas, but got 0");
  auto a = std::make_shared<optim::StepLR>(sgd, 3);
  EXPECT_EMBER_ERROR(optim::SequentialLR(sgd, {a}, {3}),
                     "SequentialLR: Sequential Schedulers expects number of schedulers provided to be one more");
  auto other = std::make_shared<optim::StepLR>(adam, 3);
  EXPECT_EMBER_ERROR(optim::SequentialLR(sgd, {other}, {}), "SequentialLR: Sequential Schedulers expects all");

  optim::SGD sgd_m(params, optim::SGDOptions(0.1).momentum(0.9));
  optim::OneCycleLR one(sgd_m, {1.0}, 3);
  for (int i = 0; i < 3; ++i) one.step();
  EXPECT_EMBER_ERROR(one.step(), "OneCycleLR: Tried to step 5 times. The specified number of total steps is 3");
}

TEST(OptimApi, SchedulerLastLrAndLbfgsStateOnFirstParam) {
  auto params = two_params();
  optim::SGD sgd(params, optim::SGDOptions(0.1));
  optim::StepLR step(sgd, 2, 0.5);
  step.step();
  step.step();
  EXPECT_EQ(step.get_last_lr(), std::vector<double>{0.05});
  EXPECT_EQ(step.last_epoch(), 2);
  optim::LBFGS lbfgs(params);
  lbfgs.step([&] {
    lbfgs.zero_grad();
    Tensor l = (params[0] * params[0]).sum() + (params[1] * params[1]).sum();
    l.backward();
    return l;
  });
  EXPECT_EQ(lbfgs.state().size(), 1u);
  EXPECT_EQ(lbfgs.state().count(optim::param_key(params[0])), 1u);
  EXPECT_TENSOR_CLOSE_TOL(params[0], zeros({2, 2}, kDouble), 0, 1e-6);  // a quadratic: solved
}

TEST(OptimApi, Float32StaysFloat32) {
  std::vector<Tensor> params{ones({4}, kFloat).requires_grad_()};
  for (auto make : std::vector<std::function<std::unique_ptr<optim::Optimizer>()>>{
           [&] { return std::make_unique<optim::Adam>(params, optim::AdamOptions().amsgrad(true)); },
           [&] {
             return std::make_unique<optim::RMSprop>(params, optim::RMSpropOptions().centered(true).momentum(0.5));
           },
           [&] { return std::make_unique<optim::Adamax>(params); },
           [&] { return std::make_unique<optim::RAdam>(params); }}) {
    auto opt = make();
    for (int i = 0; i < 3; ++i) {
      opt->zero_grad();
      (params[0] * params[0]).sum().backward();
      opt->step();
    }
    EXPECT_EQ(params[0].dtype(), kFloat);
    EXPECT_TRUE(params[0].isfinite().all().item<bool>());
  }
}

}  // namespace
}  // namespace torch
