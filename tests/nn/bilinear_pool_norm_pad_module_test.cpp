// Bilinear, adaptive pools, BatchNorm/InstanceNorm, LocalResponseNorm, padding and
// distance modules against PyTorch with PyTorch's weights (outputs, input and
// parameter gradients, running statistics); tools/golden/gen_bilinear_pool_norm_pad_swa.py.
#include <gtest/gtest.h>

#include <functional>
#include <sstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

namespace nn_gaps_test {

using namespace torch::nn;
namespace F = torch::nn::functional;
using ember::testing::Golden;
using Inputs = std::vector<torch::Tensor>;

const Golden& golden() {
  static const Golden g("bilinear_pool_norm_pad_swa.golden");
  return g;
}

void copy_in(const torch::Tensor& dst, const torch::Tensor& value) {
  torch::NoGradGuard no_grad;
  const_cast<torch::Tensor&>(dst).copy_(value);
}

// Runs golden case `name`: PyTorch's parameters go into `m` (converted to
// float64), then the output and the gradients of sum(y * gy) are compared.
void check_case(const std::string& name, torch::nn::Module& m, const std::function<torch::Tensor(const Inputs&)>& f,
                int n_inputs) {
  SCOPED_TRACE(name);
  const auto& g = golden();
  m.to(torch::kDouble);
  for (const auto& p : m.named_parameters()) copy_in(p.value(), g[name + "." + p.key()]);
  Inputs xs;
  for (int i = 0; i < n_inputs; ++i) xs.push_back(g[name + ".x" + std::to_string(i)].clone().requires_grad_(true));
  torch::Tensor y = f(xs);
  EXPECT_TENSOR_CLOSE(y, g[name + ".y"]);
  y.backward(g[name + ".gy"]);
  for (int i = 0; i < n_inputs; ++i) EXPECT_TENSOR_CLOSE(xs[i].grad(), g[name + ".gx" + std::to_string(i)]);
  for (const auto& p : m.named_parameters()) EXPECT_TENSOR_CLOSE(p.value().grad(), g[name + ".grad_" + p.key()]);
}

template <typename Holder>
void check1(const std::string& name, Holder m) {
  check_case(
      name, *m, [&](const Inputs& x) { return m(x[0]); }, 1);
}
template <typename Holder>
void check2(const std::string& name, Holder m) {
  check_case(
      name, *m, [&](const Inputs& x) { return m(x[0], x[1]); }, 2);
}

TEST(BilinearPoolNormPadModules, BilinearGolden) {
  check2("bilinear", Bilinear(3, 4, 5));
  check2("bilinear3d", Bilinear(2, 3, 2));
  Bilinear nobias(BilinearOptions(3, 2, 4).bias(false));
  EXPECT_FALSE(nobias->bias.defined());
  EXPECT_EQ(nobias->named_parameters().keys(), std::vector<std::string>{"weight"});
  check2("bilinear_nobias", nobias);
  const auto x = golden()["bilinear.x0"];
  EXPECT_TENSOR_CLOSE(F::bilinear(x, golden()["bilinear.x1"], golden()["bilinear.weight"], golden()["bilinear.bias"]),
                      golden()["bilinear.y"]);
}

TEST(BilinearPoolNormPadModules, BilinearInitAndErrors) {
  // PyTorch: weight and bias ~ U(-1/sqrt(in1), 1/sqrt(in1)).
  Bilinear b(100, 7, 50);
  EXPECT_EQ(b->weight.sizes(), (std::vector<int64_t>{50, 100, 7}));
  const double bound = static_cast<float>(0.1);
  EXPECT_LE(b->weight.abs().max().item<double>(), bound);
  EXPECT_GT(b->weight.abs().max().item<double>(), 0.95 * bound);
  EXPECT_NEAR(b->weight.std().item<double>(), bound / std::sqrt(3.0), 0.03 * bound);
  EXPECT_LE(b->bias.abs().max().item<double>(), bound);
  EXPECT_EMBER_ERROR(b(torch::ones({2, 99}), torch::ones({2, 7})), "bilinear", "[2, 99]");
  EXPECT_EMBER_ERROR(b(torch::ones({2, 100}), torch::ones({3, 7})), "bilinear", "[3, 7]");
}

TEST(BilinearPoolNormPadModules, AdaptivePoolGolden) {
  check1("adaptive_avg1d", AdaptiveAvgPool1d(3));
  check1("adaptive_avg2d", AdaptiveAvgPool2d(AdaptiveAvgPool2dOptions({3, std::nullopt})));
  check1("adaptive_avg2d_b", AdaptiveAvgPool2d(2));
  check1("adaptive_avg3d", AdaptiveAvgPool3d(AdaptiveAvgPool3dOptions({2, 3, std::nullopt})));
  const auto& g = golden();
  AdaptiveMaxPool1d m1(3);
  AdaptiveMaxPool2d m2(AdaptiveMaxPool2dOptions({std::nullopt, 2}));
  AdaptiveMaxPool3d m3(2);
  check1("adaptive_max1d", m1);
  check1("adaptive_max2d", m2);
  check1("adaptive_max3d", m3);
  EXPECT_TENSOR_EQ(std::get<1>(m1->forward_with_indices(g["adaptive_max1d.x0"])), g["adaptive_max1d.indices"]);
  EXPECT_TENSOR_EQ(std::get<1>(m2->forward_with_indices(g["adaptive_max2d.x0"])), g["adaptive_max2d.indices"]);
  EXPECT_TENSOR_EQ(std::get<1>(m3->forward_with_indices(g["adaptive_max3d.x0"])), g["adaptive_max3d.indices"]);
  EXPECT_TENSOR_CLOSE(
      F::adaptive_avg_pool2d(g["adaptive_avg2d.x0"], F::AdaptiveAvgPool2dFuncOptions({3, std::nullopt})),
      g["adaptive_avg2d.y"]);
  EXPECT_TENSOR_EQ(
      std::get<1>(F::adaptive_max_pool3d_with_indices(g["adaptive_max3d.x0"], F::AdaptiveMaxPool3dFuncOptions(2))),
      g["adaptive_max3d.indices"]);
  EXPECT_EMBER_ERROR(AdaptiveAvgPool2d(2)(torch::ones({4})), "adaptive_avg_pool2d", "[4]");
}

// Two training steps (the second without backward), the buffers, then eval.
template <typename Holder>
void check_norm(const std::string& name, Holder m) {
  SCOPED_TRACE(name);
  const auto& g = golden();
  check1(name, m);
  m(g[name + ".train2_x"]);
  for (const auto& b : m->named_buffers()) EXPECT_TENSOR_CLOSE(b.value(), g[name + ".after_train." + b.key()]);
  for (const auto& n : g.names_with_prefix(name + ".after_train.")) {
    const std::string key = n.substr((name + ".after_train.").size());
    EXPECT_TRUE(m->named_buffers().contains(key)) << key;
  }
  m->eval();
  EXPECT_TENSOR_CLOSE(m(g[name + ".eval_x"]), g[name + ".eval_y"]);
}

TEST(BilinearPoolNormPadModules, BatchNormGolden) {
  check_norm("batchnorm1d", BatchNorm1d(3));
  check_norm("batchnorm1d_3d", BatchNorm1d(BatchNorm1dOptions(3).momentum(std::nullopt)));
  check_norm("batchnorm2d", BatchNorm2d(BatchNorm2dOptions(3).momentum(0.3)));
  check_norm("batchnorm3d", BatchNorm3d(BatchNorm3dOptions(2).affine(false)));
}

TEST(BilinearPoolNormPadModules, InstanceNormGolden) {
  check_norm("instancenorm1d", InstanceNorm1d(InstanceNorm1dOptions(3).affine(true).track_running_stats(true)));
  check_norm("instancenorm2d", InstanceNorm2d(InstanceNorm2dOptions(3).affine(true)));
  check_norm("instancenorm2d_unbatched",
             InstanceNorm2d(InstanceNorm2dOptions(3).track_running_stats(true).momentum(0.2)));
  check_norm("instancenorm3d",
             InstanceNorm3d(InstanceNorm3dOptions(2).affine(true).track_running_stats(true).eps(1e-3)));
}

TEST(BilinearPoolNormPadModules, NormStateAndErrors) {
  BatchNorm2d bn(4);
  EXPECT_EQ(bn->named_parameters().keys(), (std::vector<std::string>{"weight", "bias"}));
  EXPECT_EQ(bn->named_buffers().keys(),
            (std::vector<std::string>{"running_mean", "running_var", "num_batches_tracked"}));
  EXPECT_EQ(bn->num_batches_tracked.dtype(), torch::kLong);
  EXPECT_TRUE(bn->weight.eq(1).all().item<bool>());
  InstanceNorm2d in(4);
  EXPECT_TRUE(in->named_parameters().is_empty());
  EXPECT_TRUE(in->named_buffers().is_empty());
  EXPECT_EMBER_ERROR(bn(torch::ones({2, 4, 3})), "BatchNorm2d", "4D", "[2, 4, 3]");
  EXPECT_EMBER_ERROR(BatchNorm1d(3)(torch::ones({1, 3})), "batch_norm", "more than 1 value per channel", "[1, 3]");
  EXPECT_EMBER_ERROR(in(torch::ones({2, 4})), "InstanceNorm2d", "3D or 4D", "[2, 4]");
  EXPECT_EMBER_ERROR(InstanceNorm1d(InstanceNorm1dOptions(3).affine(true))(torch::ones({2, 4, 5})), "InstanceNorm1d",
                     "num_features (3)", "4");
  // reset_running_stats restores the initial buffers.
  bn(torch::randn({3, 4, 2, 2}));
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 1);
  bn->reset_running_stats();
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 0);
  EXPECT_TRUE(bn->running_var.eq(1).all().item<bool>());
  // The functional forms.
  const auto& g = golden();
  InstanceNorm2d in2(InstanceNorm2dOptions(3).affine(true));
  in2->to(torch::kDouble);
  copy_in(in2->weight, g["instancenorm2d.weight"]);
  copy_in(in2->bias, g["instancenorm2d.bias"]);
  EXPECT_TENSOR_CLOSE(
      F::instance_norm(g["instancenorm2d.x0"], F::InstanceNormFuncOptions().weight(in2->weight).bias(in2->bias)),
      g["instancenorm2d.y"]);
}

TEST(BilinearPoolNormPadModules, LocalResponseNormGolden) {
  check1("lrn3d", LocalResponseNorm(LocalResponseNormOptions(3).alpha(0.1).beta(0.75).k(1.0)));
  check1("lrn4d", LocalResponseNorm(2));
  check1("lrn5d", LocalResponseNorm(LocalResponseNormOptions(4).alpha(0.5).beta(0.5).k(2.0)));
  EXPECT_TENSOR_CLOSE(F::local_response_norm(golden()["lrn4d.x0"], F::LocalResponseNormFuncOptions(2)),
                      golden()["lrn4d.y"]);
  EXPECT_EMBER_ERROR(LocalResponseNorm(2)(torch::ones({3, 4})), "local_response_norm", "3D");
}

TEST(BilinearPoolNormPadModules, PaddingGolden) {
  check1("reflection1d", ReflectionPad1d(ReflectionPad1dOptions({2, 1})));
  check1("reflection2d", ReflectionPad2d(ReflectionPad2dOptions({1, 2, 2, 0})));
  check1("reflection3d", ReflectionPad3d(1));
  check1("replication1d", ReplicationPad1d(2));
  check1("replication2d", ReplicationPad2d(ReplicationPad2dOptions({0, 1, 3, 2})));
  check1("replication3d", ReplicationPad3d(ReplicationPad3dOptions({1, 0, 2, 1, 0, 2})));
  check1("zeropad2d", ZeroPad2d(ZeroPad2dOptions({1, 2, -1, 1})));
  check1("constant1d", ConstantPad1d(2, 3.5));
  check1("constant2d", ConstantPad2d(ConstantPad2dOptions({1, 0, 2, 1}, -1.0)));
  check1("constant3d", ConstantPad3d(ConstantPad3dOptions(1, 0.5)));
  const auto& g = golden();
  EXPECT_TENSOR_CLOSE(F::pad(g["reflection2d.x0"], F::PadFuncOptions({1, 2, 2, 0}).mode(torch::kReflect)),
                      g["reflection2d.y"]);
  EXPECT_TENSOR_CLOSE(F::pad(g["constant1d.x0"], F::PadFuncOptions({2, 2}).value(3.5)), g["constant1d.y"]);
  EXPECT_EMBER_ERROR(ReflectionPad1d(3)(torch::ones({1, 2, 3})), "pad", "padding (3, 3)", "[1, 2, 3]");
}

TEST(BilinearPoolNormPadModules, DistanceGolden) {
  check2("cosine", CosineSimilarity());
  check2("cosine_dim0", CosineSimilarity(CosineSimilarityOptions().dim(0).eps(1e-6)));
  check2("pairwise", PairwiseDistance());
  check2("pairwise_p3", PairwiseDistance(PairwiseDistanceOptions().p(3).eps(1e-3).keepdim(true)));
  const auto& g = golden();
  EXPECT_TENSOR_CLOSE(F::cosine_similarity(g["cosine.x0"], g["cosine.x1"]), g["cosine.y"]);
  EXPECT_TENSOR_CLOSE(F::pairwise_distance(g["pairwise.x0"], g["pairwise.x1"]), g["pairwise.y"]);
  EXPECT_EMBER_ERROR(CosineSimilarity()(torch::ones({2, 3}), torch::ones({2, 4})), "[2, 3]", "[2, 4]");
}

// A loss module against PyTorch: the value and the input gradient.
template <typename Holder>
void check_loss(const std::string& name, Holder loss) {
  SCOPED_TRACE(name);
  const auto& g = golden();
  auto x = g[name + ".x0"].clone().requires_grad_(true);
  auto y = loss(x, g[name + ".target"]);
  EXPECT_TENSOR_CLOSE(y, g[name + ".y"]);
  y.backward(g[name + ".gy"]);
  EXPECT_TENSOR_CLOSE(x.grad(), g[name + ".gx0"]);
}

TEST(BilinearPoolNormPadModules, LossModulesGolden) {
  auto d = [](std::vector<double> v) { return torch::tensor(v, torch::kDouble); };
  check_loss("loss_l1_none", L1Loss(L1LossOptions(torch::kNone)));
  check_loss("loss_mse_sum", MSELoss(MSELossOptions(torch::kSum)));
  check_loss("loss_bce_weight2", BCELoss(BCELossOptions().weight(d({0.5, 0.75, 1.0, 1.25}))));
  check_loss("loss_bcelogits_pos", BCEWithLogitsLoss(BCEWithLogitsLossOptions().pos_weight(d({1, 2, 0.5, 3}))));
  check_loss("loss_nll_ignore", NLLLoss(NLLLossOptions().ignore_index(1)));
  check_loss("loss_ce_smooth", CrossEntropyLoss(CrossEntropyLossOptions().weight(d({1, 0.5, 2})).label_smoothing(0.1)));
  check_loss("loss_smoothl1_beta", SmoothL1Loss(SmoothL1LossOptions().beta(0.5)));
  check_loss("loss_huber_delta", HuberLoss(HuberLossOptions(torch::kSum).delta(0.7)));
  check_loss("loss_kldiv_batchmean", KLDivLoss(KLDivLossOptions(torch::kBatchMean)));
  check_loss("loss_kldiv_logtarget", KLDivLoss(KLDivLossOptions(torch::kSum).log_target(true)));
  const auto& g = golden();
  EXPECT_TENSOR_CLOSE(F::mse_loss(g["loss_mse_sum.x0"], g["loss_mse_sum.target"], torch::kSum), g["loss_mse_sum.y"]);
  EXPECT_TENSOR_CLOSE(MSELoss()(g["loss_mse_sum.x0"], g["loss_mse_sum.target"]) * 12, g["loss_mse_sum.y"]);
  EXPECT_EMBER_ERROR(MSELoss()(torch::ones({2, 3}), torch::ones({3, 2})), "[2, 3]", "[3, 2]");
}

// Strings printed by LibTorch 1.13.1 for the same modules.
TEST(BilinearPoolNormPadModules, PrettyPrint) {
  auto str = [](const auto& m) {
    std::ostringstream os;
    os << *m;
    return os.str();
  };
  EXPECT_EQ(str(L1Loss()), "torch::nn::L1Loss()");
  EXPECT_EQ(str(MSELoss()), "torch::nn::MSELoss()");
  EXPECT_EQ(str(BCELoss()), "torch::nn::BCELoss()");
  EXPECT_EQ(str(BCEWithLogitsLoss()), "torch::nn::BCEWithLogitsLoss()");
  EXPECT_EQ(str(NLLLoss()), "torch::nn::NLLLoss()");
  EXPECT_EQ(str(CrossEntropyLoss()), "torch::nn::CrossEntropyLoss()");
  EXPECT_EQ(str(SmoothL1Loss()), "torch::nn::SmoothL1Loss");
  EXPECT_EQ(str(HuberLoss()), "torch::nn::HuberLoss");
  EXPECT_EQ(str(KLDivLoss()), "torch::nn::KLDivLoss()");
  EXPECT_EQ(str(Bilinear(3, 4, 5)), "torch::nn::Bilinear(in1_features=3, in2_features=4, out_features=5, bias=true)");
  EXPECT_EQ(str(Bilinear(BilinearOptions(3, 4, 5).bias(false))),
            "torch::nn::Bilinear(in1_features=3, in2_features=4, out_features=5, bias=false)");
  EXPECT_EQ(str(AdaptiveAvgPool1d(3)), "torch::nn::AdaptiveAvgPool1d(output_size=3)");
  EXPECT_EQ(str(AdaptiveAvgPool2d(3)), "torch::nn::AdaptiveAvgPool2d(output_size=[3, 3])");
  EXPECT_EQ(str(AdaptiveAvgPool2d(AdaptiveAvgPool2dOptions({2, std::nullopt}))),
            "torch::nn::AdaptiveAvgPool2d(output_size=[2, None])");
  EXPECT_EQ(str(AdaptiveAvgPool3d(AdaptiveAvgPool3dOptions({2, 3, 4}))),
            "torch::nn::AdaptiveAvgPool3d(output_size=[2, 3, 4])");
  EXPECT_EQ(str(AdaptiveMaxPool1d(3)), "torch::nn::AdaptiveMaxPool1d(output_size=3)");
  EXPECT_EQ(str(AdaptiveMaxPool2d(AdaptiveMaxPool2dOptions({2, 3}))),
            "torch::nn::AdaptiveMaxPool2d(output_size=[2, 3])");
  EXPECT_EQ(str(AdaptiveMaxPool3d(2)), "torch::nn::AdaptiveMaxPool3d(output_size=[2, 2, 2])");
  EXPECT_EQ(str(InstanceNorm1d(4)),
            "torch::nn::InstanceNorm1d(4, eps=1e-05, momentum=0.1, affine=false, track_running_stats=false)");
  EXPECT_EQ(
      str(InstanceNorm2d(InstanceNorm2dOptions(4).affine(true).track_running_stats(true).eps(1e-3).momentum(0.2))),
      "torch::nn::InstanceNorm2d(4, eps=0.001, momentum=0.2, affine=true, track_running_stats=true)");
  EXPECT_EQ(str(InstanceNorm3d(InstanceNorm3dOptions(4).momentum(0.05))),
            "torch::nn::InstanceNorm3d(4, eps=1e-05, momentum=0.05, affine=false, track_running_stats=false)");
  EXPECT_EQ(str(BatchNorm1d(4)),
            "torch::nn::BatchNorm1d(4, eps=1e-05, momentum=0.1, affine=true, track_running_stats=true)");
  EXPECT_EQ(str(BatchNorm2d(BatchNorm2dOptions(4).affine(false).track_running_stats(false).momentum(0.3))),
            "torch::nn::BatchNorm2d(4, eps=1e-05, momentum=0.3, affine=false, track_running_stats=false)");
  EXPECT_EQ(str(BatchNorm3d(BatchNorm3dOptions(4).momentum(std::nullopt))),
            "torch::nn::BatchNorm3d(4, eps=1e-05, momentum=None, affine=true, track_running_stats=true)");
  EXPECT_EQ(str(LocalResponseNorm(3)), "torch::nn::LocalResponseNorm(3, alpha=0.0001, beta=0.75, k=1)");
  EXPECT_EQ(str(LocalResponseNorm(LocalResponseNormOptions(2).alpha(0.1).beta(0.5).k(2.))),
            "torch::nn::LocalResponseNorm(2, alpha=0.1, beta=0.5, k=2)");
  EXPECT_EQ(str(ZeroPad2d(1)), "torch::nn::ZeroPad2d(padding=[1, 1, 1, 1])");
  EXPECT_EQ(str(ZeroPad2d(ZeroPad2dOptions({1, 2, 3, 4}))), "torch::nn::ZeroPad2d(padding=[1, 2, 3, 4])");
  EXPECT_EQ(str(ConstantPad1d(ConstantPad1dOptions(2, 3.5))), "torch::nn::ConstantPad1d(padding=[2, 2], value=3.5)");
  EXPECT_EQ(str(ConstantPad2d(ConstantPad2dOptions({1, 2, 3, 4}, -1))),
            "torch::nn::ConstantPad2d(padding=[1, 2, 3, 4], value=-1)");
  EXPECT_EQ(str(ConstantPad3d(ConstantPad3dOptions(1, 0.5))),
            "torch::nn::ConstantPad3d(padding=[1, 1, 1, 1, 1, 1], value=0.5)");
  EXPECT_EQ(str(ReflectionPad1d(2)), "torch::nn::ReflectionPad1d(padding=[2, 2])");
  EXPECT_EQ(str(ReflectionPad2d(ReflectionPad2dOptions({1, 2, 3, 4}))),
            "torch::nn::ReflectionPad2d(padding=[1, 2, 3, 4])");
  EXPECT_EQ(str(ReflectionPad3d(1)), "torch::nn::ReflectionPad3d(padding=[1, 1, 1, 1, 1, 1])");
  EXPECT_EQ(str(ReplicationPad1d(ReplicationPad1dOptions({1, 2}))), "torch::nn::ReplicationPad1d(padding=[1, 2])");
  EXPECT_EQ(str(ReplicationPad2d(1)), "torch::nn::ReplicationPad2d(padding=[1, 1, 1, 1])");
  EXPECT_EQ(str(ReplicationPad3d(ReplicationPad3dOptions({1, 2, 3, 4, 5, 6}))),
            "torch::nn::ReplicationPad3d(padding=[1, 2, 3, 4, 5, 6])");
  EXPECT_EQ(str(CosineSimilarity()), "torch::nn::CosineSimilarity(dim=1, eps=1e-08)");
  EXPECT_EQ(str(CosineSimilarity(CosineSimilarityOptions().dim(0).eps(1e-6))),
            "torch::nn::CosineSimilarity(dim=0, eps=1e-06)");
  EXPECT_EQ(str(PairwiseDistance()), "torch::nn::PairwiseDistance(p=2, eps=1e-06, keepdim=false)");
  EXPECT_EQ(str(PairwiseDistance(PairwiseDistanceOptions().p(3).eps(1e-3).keepdim(true))),
            "torch::nn::PairwiseDistance(p=3, eps=0.001, keepdim=true)");
  EXPECT_EQ(str(AlphaDropout(0.3)), "torch::nn::AlphaDropout(p=0.3, inplace=false)");
  EXPECT_EQ(str(FeatureAlphaDropout(FeatureAlphaDropoutOptions(0.2).inplace(true))),
            "torch::nn::FeatureAlphaDropout(p=0.2, inplace=true)");
}

}  // namespace nn_gaps_test
