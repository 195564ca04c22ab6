// Optimizer::save/load through the archives: a restored optimizer continues
// exactly where the saved one was (same parameters after further steps).
#include <cstdio>
#include <memory>

#include "common/test_util.h"
#include "ember/torch.h"

namespace torch {
namespace {

std::vector<Tensor> make_params() {
  manual_seed(3);
  return {randn({4, 3}, kDouble).requires_grad_(), randn({5}, kDouble).requires_grad_(),
          randn({2}, kDouble).requires_grad_()};
}

// The third parameter never gets a gradient, so it never gets state.
void take_step(optim::Optimizer& opt, const std::vector<Tensor>& ps) {
  opt.zero_grad();
  Tensor loss = (ps[0].sin() * 3).sum() + (ps[1] * ps[1]).sum();
  loss.backward();
  opt.step();
}

std::vector<Tensor> clone_params(const std::vector<Tensor>& ps) {
  std::vector<Tensor> out;
  for (const Tensor& p : ps) out.push_back(p.detach().clone().requires_grad_());
  return out;
}

template <typename Opt, typename Options>
void check_round_trip(const Options& options) {
  auto a = make_params();
  Opt opt_a(a, options);
  for (int i = 0; i < 3; ++i) take_step(opt_a, a);

  serialize::OutputArchive out;
  opt_a.save(out);
  const std::string bytes = out.save_to_buffer();

  auto b = clone_params(a);
  Opt opt_b(b, options);
  serialize::InputArchive in;
  in.load_from(bytes.data(), bytes.size());
  opt_b.load(in);
  EXPECT_EQ(opt_b.state().size(), opt_a.state().size());

  for (int i = 0; i < 3; ++i) {
    take_step(opt_a, a);
    take_step(opt_b, b);
  }
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TENSOR_EQ(b[i], a[i]);
}

TEST(OptimSerialize, AdamRoundTrip) { check_round_trip<optim::Adam>(optim::AdamOptions(0.01).amsgrad(true)); }
TEST(OptimSerialize, SgdMomentumRoundTrip) {
  check_round_trip<optim::SGD>(optim::SGDOptions(0.01).momentum(0.9).nesterov(true));
}
TEST(OptimSerialize, RmspropRoundTrip) {
  check_round_trip<optim::RMSprop>(optim::RMSpropOptions(0.01).centered(true).momentum(0.5));
}

TEST(OptimSerialize, OptionsAreRestored) {
  auto a = make_params();
  optim::Adam opt_a(a, optim::AdamOptions(0.5));
  static_cast<optim::AdamOptions&>(opt_a.param_groups()[0].options()).lr(0.125);
  serialize::OutputArchive out;
  opt_a.save(out);
  const std::string bytes = out.save_to_buffer();
  auto b = clone_params(a);
  optim::Adam opt_b(b, optim::AdamOptions(0.5));
  serialize::InputArchive in;
  in.load_from(bytes.data(), bytes.size());
  opt_b.load(in);
  EXPECT_EQ(opt_b.param_groups()[0].options().get_lr(), 0.125);
}

TEST(OptimSerialize, SaveLoadFileWithTorchSpelling) {
  auto a = make_params();
  optim::SGD opt_a(a, optim::SGDOptions(0.1).momentum(0.9));
  take_step(opt_a, a);
  const std::string path = ::testing::TempDir() + "ember_optim_state.safetensors";
  torch::save(opt_a, path);
  auto b = clone_params(a);
  optim::SGD opt_b(b, optim::SGDOptions(0.1).momentum(0.9));
  torch::load(opt_b, path);
  take_step(opt_a, a);
  take_step(opt_b, b);
  EXPECT_TENSOR_EQ(b[0], a[0]);
  std::remove(path.c_str());
}

TEST(OptimSerialize, MismatchedGroupsAreAnError) {
  auto a = make_params();
  optim::Adam opt_a(a, optim::AdamOptions(0.1));
  serialize::OutputArchive out;
  opt_a.save(out);
  const std::string bytes = out.save_to_buffer();
  std::vector<Tensor> fewer = {a[0].detach().clone().requires_grad_()};
  optim::Adam opt_b(fewer, optim::AdamOptions(0.1));
  serialize::InputArchive in;
  in.load_from(bytes.data(), bytes.size());
  EXPECT_EMBER_ERROR(opt_b.load(in), "Optimizer::load", "has 1 parameters but the archive has 3");
}

// A state saved by another optimizer, or for parameters of other shapes, is an error
// at load time, not a confusing failure (after half-updated buffers) in the next step.
TEST(OptimSerialize, StateOfAnotherOptimizerOrShapeIsAnError) {
  auto a = make_params();
  optim::SGD sgd(a, optim::SGDOptions(0.01).momentum(0.9));
  take_step(sgd, a);
  serialize::OutputArchive out;
  sgd.save(out);
  const std::string bytes = out.save_to_buffer();
  auto load_into = [&](optim::Optimizer& opt) {
    serialize::InputArchive in;
    in.load_from(bytes.data(), bytes.size());
    opt.load(in);
  };
  auto b = clone_params(a);
  optim::Adam adam(b, optim::AdamOptions(0.01));
  EXPECT_EMBER_ERROR(load_into(adam), "Optimizer::load", "momentum_buffer", "not part of this optimizer's state");
  optim::Adagrad adagrad(b, optim::AdagradOptions(0.01));
  EXPECT_EMBER_ERROR(load_into(adagrad), "Optimizer::load", "momentum_buffer");

  // Same optimizer, same group sizes, a parameter of another shape.
  std::vector<Tensor> c = {randn({3, 4}, kDouble).requires_grad_(), randn({5}, kDouble).requires_grad_(),
                           randn({2}, kDouble).requires_grad_()};
  optim::SGD sgd_c(c, optim::SGDOptions(0.01).momentum(0.9));
  EXPECT_EMBER_ERROR(load_into(sgd_c), "Optimizer::load", "shape [4, 3]", "parameter has shape [3, 4]");

  optim::SGD sgd_b(b, optim::SGDOptions(0.01).momentum(0.9));
  EXPECT_NO_THROW(load_into(sgd_b));
}

}  // namespace
}  // namespace torch
