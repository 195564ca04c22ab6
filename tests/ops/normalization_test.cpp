// batch_norm, layer_norm, group_norm, instance_norm and local_response_norm
// against PyTorch (tools/golden/gen_nn_ops.py): outputs, running statistics, gradients.
#include <gtest/gtest.h>

#include "nn_golden_check.h"

using ember::Tensor;
using ember::testing::check_nn_case;
using ember::testing::nn_golden;

namespace {
const std::vector<std::string> kTags = {"f32", "f64"};
}

TEST(NnBatchNorm, TrainAndEvalMatchPyTorch) {
  for (const char* shape : {"6x3", "4x3x5", "2x3x4x5", "2x3x2x3x4"}) {
    for (const auto& tag : kTags) {
      const std::string name = std::string("batch_norm.") + shape + "." + tag;
      Tensor rm = nn_golden()[name + ".rm_in"].clone(), rv = nn_golden()[name + ".rv_in"].clone();
      check_nn_case(name + ".train", [&](const std::vector<Tensor>& x) {
        return torch::batch_norm(x[0], x[1], x[2], rm, rv, true, 0.1, 1e-5, false);
      });
      SCOPED_TRACE(name);
      EXPECT_TENSOR_CLOSE(rm, nn_golden()[name + ".rm_out"]);
      EXPECT_TENSOR_CLOSE(rv, nn_golden()[name + ".rv_out"]);
      Tensor rm0 = nn_golden()[name + ".rm_in"].clone(), rv0 = nn_golden()[name + ".rv_in"].clone();
      check_nn_case(name + ".eval", [&](const std::vector<Tensor>& x) {
        return torch::batch_norm(x[0], x[1], x[2], rm0, rv0, false, 0.1, 1e-5, false);
      });
      EXPECT_TENSOR_EQ(rm0, nn_golden()[name + ".rm_in"]);  // eval leaves the running stats alone
    }
  }
  check_nn_case("batch_norm.noaffine", [](const std::vector<Tensor>& x) {
    return torch::batch_norm(x[0], {}, {}, {}, {}, true, 0.1, 1e-5, false);
  });
}

TEST(NnBatchNorm, NonContiguousAndHalf) {
  const std::string name = "batch_norm.2x3x4x5.f32";
  Tensor x = nn_golden()[name + ".train.in0"];
  Tensor xt = x.transpose(2, 3).contiguous().transpose(2, 3);  // same values, other strides
  ASSERT_FALSE(xt.is_contiguous());
  Tensor w = nn_golden()[name + ".train.in1"], b = nn_golden()[name + ".train.in2"];
  Tensor rm = nn_golden()[name + ".rm_in"].clone(), rv = nn_golden()[name + ".rv_in"].clone();
  EXPECT_TENSOR_CLOSE(torch::batch_norm(xt, w, b, rm, rv, true, 0.1, 1e-5, false), nn_golden()[name + ".train.out"]);
  Tensor yh = torch::batch_norm(x.to(torch::kHalf), w, b, {}, {}, true, 0.1, 1e-5, false);
  EXPECT_EQ(yh.dtype(), torch::kHalf);
  EXPECT_TENSOR_CLOSE_TOL(yh.to(torch::kFloat), nn_golden()[name + ".train.out"], 1e-2, 1e-2);
}

TEST(NnBatchNorm, Errors) {
  Tensor x = torch::randn({4, 3, 2});
  EXPECT_EMBER_ERROR(torch::batch_norm(x, torch::ones({4}), {}, {}, {}, true, 0.1, 1e-5, false), "batch_norm", "weight",
                     "3");
  EXPECT_EMBER_ERROR(torch::batch_norm(x, {}, {}, {}, {}, false, 0.1, 1e-5, false), "batch_norm", "running_mean");
  EXPECT_EMBER_ERROR(torch::batch_norm(torch::randn({1, 3}), {}, {}, {}, {}, true, 0.1, 1e-5, false), "batch_norm",
                     "more than 1 value", "[1, 3]");
  EXPECT_EMBER_ERROR(torch::batch_norm(torch::randn({3}), {}, {}, {}, {}, true, 0.1, 1e-5, false), "batch_norm");
  EXPECT_EMBER_ERROR(torch::batch_norm(torch::ones({4, 3}, torch::kLong), {}, {}, {}, {}, true, 0.1, 1e-5, false),
                     "batch_norm", "int64");
}

TEST(NnLayerNorm, MatchesPyTorch) {
  for (const auto& tag : kTags) {
    check_nn_case("layer_norm.last." + tag,
                  [](const std::vector<Tensor>& x) { return torch::layer_norm(x[0], {5}, x[1], x[2]); });
    check_nn_case("layer_norm.last2." + tag, [](const std::vector<Tensor>& x) {
      return torch::layer_norm(x[0], {4, 5}, x[1], x[2], 1e-3);
    });
    check_nn_case("layer_norm.noaffine." + tag, [](const std::vector<Tensor>& x) {
      return torch::layer_norm(x[0], {4, 5});
    });
  }
  EXPECT_EMBER_ERROR(torch::layer_norm(torch::randn({2, 3}), {4}), "layer_norm", "[4]", "[2, 3]");
  EXPECT_EMBER_ERROR(torch::layer_norm(torch::randn({2, 3}), {3}, torch::ones({4})), "layer_norm", "weight");
}

// A gradient broadcast over the rows (y.sum().backward() sends an expanded scalar) is read
// as one row; the gradients equal those from the same values laid out densely.
TEST(NnLayerNorm, BroadcastGradientEqualsDenseOne) {
  torch::manual_seed(3);
  Tensor x = torch::randn({4, 3, 5}, torch::kDouble).requires_grad_();
  Tensor w = torch::randn({5}, torch::kDouble).requires_grad_(), b = torch::randn({5}, torch::kDouble).requires_grad_();
  Tensor y = torch::layer_norm(x, {5}, w, b);
  for (const Tensor& g :
       {torch::ones({}, torch::kDouble).expand({4, 3, 5}), torch::randn({1, 1, 5}, torch::kDouble).expand({4, 3, 5}),
        torch::randn({4, 1, 5}, torch::kDouble).expand({4, 3, 5}),
        torch::randn({5}, torch::kDouble).expand({4, 3, 5})}) {
    auto got = torch::autograd::grad({y}, {x, w, b}, {g}, true);
    auto want = torch::autograd::grad({y}, {x, w, b}, {g.contiguous()}, true);
    for (size_t i = 0; i < 3; ++i) EXPECT_TENSOR_CLOSE_TOL(got[i], want[i], 1e-14, 1e-14);
  }
  Tensor y2 = torch::layer_norm(x, {3, 5}, w.expand({3, 5}), b.expand({3, 5}));
  Tensor g2 = torch::randn({1, 3, 5}, torch::kDouble).expand({4, 3, 5});
  auto got = torch::autograd::grad({y2}, {x}, {g2}, true);
  auto want = torch::autograd::grad({y2}, {x}, {g2.contiguous()});
  EXPECT_TENSOR_CLOSE_TOL(got[0], want[0], 1e-14, 1e-14);
}

TEST(NnGroupNorm, MatchesPyTorch) {
  for (const auto& tag : kTags)
    check_nn_case("group_norm." + tag,
                  [](const std::vector<Tensor>& x) { return torch::group_norm(x[0], 3, x[1], x[2]); });
  EXPECT_EMBER_ERROR(torch::group_norm(torch::randn({2, 6, 3}), 4), "group_norm", "divisible", "num_groups=4");
}

TEST(NnInstanceNorm, MatchesPyTorch) {
  for (const auto& tag : kTags) {
    const std::string name = "instance_norm." + tag;
    Tensor rm = nn_golden()[name + ".rm_in"].clone(), rv = nn_golden()[name + ".rv_in"].clone();
    check_nn_case(name, [&](const std::vector<Tensor>& x) {
      return torch::instance_norm(x[0], x[1], x[2], rm, rv, true, 0.1, 1e-5, false);
    });
    EXPECT_TENSOR_CLOSE(rm, nn_golden()[name + ".rm_out"]);
    EXPECT_TENSOR_CLOSE(rv, nn_golden()[name + ".rv_out"]);
    Tensor rm0 = nn_golden()[name + ".rm_in"].clone(), rv0 = nn_golden()[name + ".rv_in"].clone();
    check_nn_case("instance_norm.eval." + tag, [&](const std::vector<Tensor>& x) {
      return torch::instance_norm(x[0], {}, {}, rm0, rv0, false, 0.1, 1e-5, false);
    });
  }
  EXPECT_EMBER_ERROR(torch::instance_norm(torch::randn({2, 3, 4}), {}, {}, {}, {}, false, 0.1, 1e-5, false),
                     "instance_norm", "running_mean");
}

TEST(NnLocalResponseNorm, MatchesPyTorch) {
  for (const auto& tag : kTags) {
    check_nn_case("lrn.3d." + tag, [](const std::vector<Tensor>& x) { return torch::local_response_norm(x[0], 3); });
    check_nn_case("lrn.4d." + tag,
                  [](const std::vector<Tensor>& x) { return torch::local_response_norm(x[0], 4, 0.01, 0.6, 2.0); });
  }
  EXPECT_EMBER_ERROR(torch::local_response_norm(torch::randn({2, 3}), 2), "local_response_norm", "3D");
}

TEST(NnNormalization, EmptyInputs) {
  Tensor rm = torch::zeros({3}), rv = torch::ones({3});
  EXPECT_EQ(torch::batch_norm(torch::empty({0, 3, 2}), {}, {}, rm, rv, false, 0.1, 1e-5, false).sizes(),
            torch::IntArrayRef({0, 3, 2}));
  EXPECT_EQ(torch::layer_norm(torch::empty({0, 4}), {4}).sizes(), torch::IntArrayRef({0, 4}));
  Tensor w = torch::randn({5, 2}).requires_grad_(true);
  Tensor e = torch::embedding(w, torch::empty({0}, torch::kLong));
  EXPECT_EQ(e.sizes(), torch::IntArrayRef({0, 2}));
  e.sum().backward();
  EXPECT_TENSOR_EQ(w.grad(), torch::zeros({5, 2}));
}
