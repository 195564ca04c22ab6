// optim::swa_utils against torch.optim.swa_utils (tools/golden/gen_bilinear_pool_norm_pad_swa.py):
// AveragedModel with SWA averaging, EMA through avg_fn (with and without
// use_buffers), update_bn, SWALR.
#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

namespace swa_utils_test {

using namespace torch;
using ember::testing::Golden;
namespace swa = torch::optim::swa_utils;

const Golden& golden() {
  static const Golden g("bilinear_pool_norm_pad_swa.golden");
  return g;
}

nn::Sequential make_model() {
  return nn::Sequential(nn::Linear(3, 4), nn::BatchNorm1d(4), nn::ReLU(), nn::Linear(4, 2));
}

// Every parameter and buffer of `m` by its state_dict name.
std::map<std::string, Tensor> state(const nn::Module& m) {
  std::map<std::string, Tensor> out;
  for (const auto& p : m.named_parameters()) out[p.key()] = p.value();
  for (const auto& b : m.named_buffers()) out[b.key()] = b.value();
  return out;
}

void load_state(const nn::Module& m, const std::string& prefix) {
  NoGradGuard no_grad;
  for (auto& [name, t] : state(m)) const_cast<Tensor&>(t).copy_(golden()[prefix + name]);
}

void expect_state(const nn::Module& m, const std::string& prefix) {
  const auto names = golden().names_with_prefix(prefix);
  const auto mine = state(m);
  EXPECT_EQ(names.size(), mine.size()) << prefix;
  for (const auto& full : names) {
    const std::string key = full.substr(prefix.size());
    ASSERT_TRUE(mine.count(key)) << "missing " << key;
    EXPECT_TENSOR_CLOSE(mine.at(key), golden()[full]) << full;
  }
}

TEST(SwaUtils, AveragedModelSwaEmaAndUpdateBn) {
  auto model = make_model();
  load_state(*model, "swa.init.");
  swa::AveragedModel<nn::Sequential> swa_model(model);
  swa::AveragedModel<nn::Sequential> ema(model, swa::get_ema_avg_fn(0.9));
  swa::AveragedModel<nn::Sequential> ema_buf(model, swa::get_ema_avg_fn(0.9), /*use_buffers=*/true);
  // A deep copy: changing the model leaves the averaged module alone.
  EXPECT_NE(swa_model.module->parameters()[0].data_ptr(), model->parameters()[0].data_ptr());
  EXPECT_EQ(swa_model.n_averaged.item<int64_t>(), 0);
  for (int step = 0; step < 3; ++step) {
    load_state(*model, "swa.step" + std::to_string(step) + ".");
    swa_model.update_parameters(model);
    ema.update_parameters(model);
    ema_buf.update_parameters(model);
    expect_state(swa_model, "swa.after" + std::to_string(step) + ".");
    expect_state(ema, "ema.after" + std::to_string(step) + ".");
    expect_state(ema_buf, "ema_buf.after" + std::to_string(step) + ".");
  }
  EXPECT_EQ(swa_model.n_averaged.item<int64_t>(), 3);

  // update_bn: one cumulative pass in training mode, momentum and mode restored.
  std::vector<Tensor> loader;
  for (int i = 0; i < 3; ++i) loader.push_back(golden()["update_bn.x" + std::to_string(i)]);
  swa_model.train(false);
  auto* bn = swa_model.module[1]->as<nn::BatchNorm1d>();
  ASSERT_NE(bn, nullptr);
  swa::update_bn(loader, swa_model);
  expect_state(swa_model, "update_bn.after.");
  EXPECT_FALSE(swa_model.is_training());
  EXPECT_EQ(bn->options.momentum(), std::optional<double>(0.1));
  swa_model.eval();
  EXPECT_TENSOR_CLOSE(swa_model(golden()["update_bn.eval_x"]), golden()["update_bn.eval_y"]);
}

TEST(SwaUtils, UpdateBnWithDataLoaderAndNoBatchNorm) {
  // Batches of Example<> from a data loader: the data is the input.
  auto model = make_model();
  auto inputs = torch::randn({12, 3});
  auto ds = data::datasets::TensorDataset(inputs).map(data::transforms::Stack<data::TensorExample>());
  auto loader = data::make_data_loader<data::samplers::SequentialSampler>(std::move(ds), 4);
  auto* bn = model[1]->as<nn::BatchNorm1d>();
  swa::update_bn(*loader, model);
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 3);
  // Equal batch sizes: the cumulative mean of batch means is the mean over all rows.
  Tensor h;
  {
    NoGradGuard no_grad;
    h = model[0]->as<nn::Linear>()->forward(inputs);
  }
  EXPECT_TENSOR_CLOSE_TOL(bn->running_mean, h.mean(0), 1e-5, 1e-6);
  EXPECT_TRUE(model->is_training());
  // A model without BatchNorm is left as it is.
  nn::Sequential plain(nn::Linear(3, 2));
  plain->eval();
  swa::update_bn(std::vector<Tensor>{inputs}, plain);
  EXPECT_FALSE(plain->is_training());
}

TEST(SwaUtils, AveragedModelErrors) {
  auto model = make_model();
  swa::AveragedModel<nn::Sequential> avg(model);
  nn::Sequential other(nn::Linear(3, 4));
  EXPECT_EMBER_ERROR(avg.update_parameters(other), "AveragedModel", "update_parameters");
  nn::Sequential wrong(nn::Linear(3, 5), nn::BatchNorm1d(5), nn::ReLU(), nn::Linear(5, 2));
  EXPECT_EMBER_ERROR(avg.update_parameters(wrong), "AveragedModel", "[5, 3]", "[4, 3]");
  EXPECT_EMBER_ERROR(swa::get_ema_avg_fn(1.5), "get_ema_avg_fn", "1.5");
}

void swalr_case(const std::string& name, std::vector<double> lrs, std::vector<double> swa_lrs, int64_t anneal,
                const std::string& strategy) {
  SCOPED_TRACE(name);
  std::vector<Tensor> params;
  std::vector<optim::OptimizerParamGroup> groups;
  for (double lr : lrs) {
    params.push_back(torch::zeros({1}, torch::requires_grad()));
    groups.emplace_back(std::vector<Tensor>{params.back()}, std::make_unique<optim::SGDOptions>(lr));
  }
  optim::SGD opt(std::move(groups), optim::SGDOptions(lrs[0]));
  swa::SWALR sched(opt, swa_lrs, anneal, strategy);
  const Tensor expected = golden()["swalr." + name];
  for (int64_t step = 0; step < expected.size(0); ++step) {
    if (step > 0) {
      opt.step();
      sched.step();
    }
    for (size_t i = 0; i < lrs.size(); ++i)
      EXPECT_NEAR(opt.param_groups()[i].options().get_lr(), expected[step][i].item<double>(), 1e-12)
          << "step " << step << " group " << i;
  }
}

TEST(SwaUtils, SWALRGolden) {
  swalr_case("cos", {0.5, 0.1}, {0.05, 0.05}, 5, "cos");
  swalr_case("linear", {0.5, 0.1}, {0.05, 0.2}, 4, "linear");
  swalr_case("zero", {0.5, 0.1}, {0.05, 0.05}, 0, "cos");
  swalr_case("one", {0.3, 0.1}, {0.01, 0.01}, 1, "linear");
  auto p = torch::zeros({1}, torch::requires_grad());
  optim::SGD opt({p}, optim::SGDOptions(0.1));
  EXPECT_EMBER_ERROR(swa::SWALR(opt, 0.01, 5, "exp"), "SWALR", "anneal_strategy", "exp");
  EXPECT_EMBER_ERROR(swa::SWALR(opt, 0.01, -1), "SWALR", "anneal_epochs");
}

}  // namespace swa_utils_test
