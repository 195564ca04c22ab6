// Convolutions against PyTorch golden values (tools/golden/gen_conv.py): each
// case carries its own configuration (<case>.cfg) and is replayed through
// ember::convolution, forward and backward.
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/kernels/cpu/conv_kernels.h"
#include "ember/torch.h"

using ember::Tensor;
using ember::testing::Golden;

namespace {

const Golden& golden() {
  static const Golden g("conv.golden");
  return g;
}

struct Config {
  bool transposed;
  std::vector<int64_t> stride, padding, dilation, output_padding;
  int64_t groups;
  bool bias;
};

Config config(const std::string& name) {
  const Tensor c = golden()[name + ".cfg"];
  const int64_t* v = c.data_ptr<int64_t>();
  const int64_t nd = v[1];
  auto take = [&](int64_t at) { return std::vector<int64_t>(v + 2 + at * nd, v + 2 + (at + 1) * nd); };
  return {v[0] != 0, take(0), take(1), take(2), take(3), v[2 + 4 * nd], v[3 + 4 * nd] != 0};
}

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  for (const auto& n : golden().names_with_prefix(""))
    if (n.size() > 4 && n.substr(n.size() - 4) == ".cfg") names.push_back(n.substr(0, n.size() - 4));
  return names;
}

// Loose enough for float32 sums of a few hundred products computed in a different order.
void expect_close(const Tensor& a, const Tensor& e) {
  if (e.scalar_type() == ember::kFloat)
    EXPECT_TENSOR_CLOSE_TOL(a, e, 1e-4, 1e-4);
  else
    EXPECT_TENSOR_CLOSE(a, e);
}

}  // namespace

TEST(Conv, GoldenForwardBackward) {
  const auto names = case_names();
  ASSERT_GT(names.size(), 20u);
  for (const auto& name : names) {
    SCOPED_TRACE(name);
    const Config c = config(name);
    Tensor x = golden()[name + ".x"].requires_grad_(true);
    Tensor w = golden()[name + ".w"].requires_grad_(true);
    Tensor b = c.bias ? golden()[name + ".b"].requires_grad_(true) : Tensor();
    Tensor y = torch::convolution(x, w, b, c.stride, c.padding, c.dilation, c.transposed, c.output_padding, c.groups);
    expect_close(y, golden()[name + ".out"]);
    EXPECT_EQ(y.grad_fn()->name(), "ConvolutionBackward0");
    y.backward(golden()[name + ".gy"]);
    expect_close(x.grad(), golden()[name + ".gx"]);
    expect_close(w.grad(), golden()[name + ".gw"]);
    if (c.bias) expect_close(b.grad(), golden()[name + ".gb"]);
  }
}

TEST(Conv, NamedWrappers) {
  const std::string n = "c2d_stride_f32";
  const Tensor x = golden()[n + ".x"], w = golden()[n + ".w"], b = golden()[n + ".b"];
  expect_close(torch::conv2d(x, w, b, {2, 3}, {1, 0}), golden()[n + ".out"]);
  const std::string t = "t2d_stride_f64";
  expect_close(torch::conv_transpose2d(golden()[t + ".x"], golden()[t + ".w"], golden()[t + ".b"], 2, 1, 1),
               golden()[t + ".out"]);
  const std::string one = "c1d_basic_f64";
  expect_close(torch::conv1d(golden()[one + ".x"], golden()[one + ".w"], golden()[one + ".b"], 2, 1),
               golden()[one + ".out"]);
  const std::string three = "c3d_basic_f32";
  expect_close(torch::conv3d(golden()[three + ".x"], golden()[three + ".w"], golden()[three + ".b"], 1, 1),
               golden()[three + ".out"]);
}

TEST(Conv, UnbatchedAndStringPadding) {
  const Tensor x = golden()["unbatched.x"], w = golden()["unbatched.w"];
  expect_close(torch::conv2d(x, w, {}, 1, 1), golden()["unbatched.out"]);
  expect_close(torch::conv2d(x, w, {}, 1, "same"), golden()["same.out"]);
  expect_close(torch::conv2d(x, w, {}, 1, "same", 2), golden()["same_dil.out"]);
  expect_close(torch::conv2d(x, w, {}, 1, "valid"), golden()["valid.out"]);
}

TEST(Conv, NonContiguousInputs) {
  const std::string n = "c2d_basic_f32";
  const Tensor x = golden()[n + ".x"], w = golden()[n + ".w"], b = golden()[n + ".b"];
  const Tensor xt = x.transpose(2, 3).contiguous().transpose(2, 3);
  expect_close(torch::conv2d(xt, w, b), golden()[n + ".out"]);
}

TEST(Conv, EmptyBatch) {
  const Tensor y = torch::conv2d(torch::zeros({0, 3, 5, 5}), torch::ones({4, 3, 3, 3}));
  EXPECT_EQ(y.sizes(), ember::IntArrayRef({0, 4, 3, 3}));
}

TEST(Conv, Errors) {
  const Tensor x = torch::zeros({1, 3, 5, 5}), w = torch::zeros({4, 3, 3, 3});
  EXPECT_EMBER_ERROR(torch::conv2d(torch::zeros({3, 5}), w), "conv2d", "[3, 5]");
  EXPECT_EMBER_ERROR(torch::conv2d(torch::zeros({1, 2, 5, 5}), w), "conv2d", "channels", "[4, 3, 3, 3]");
  EXPECT_EMBER_ERROR(torch::conv2d(x, torch::zeros({4, 1, 3, 3}), {}, 1, 1, 1, 3), "conv2d", "divisible");
  EXPECT_EMBER_ERROR(torch::conv2d(torch::zeros({1, 3, 2, 2}), w), "conv2d", "kernel size");
  EXPECT_EMBER_ERROR(torch::conv2d(x, w.to(torch::kDouble)), "conv2d", "float64");
  EXPECT_EMBER_ERROR(torch::conv2d(x, w, torch::zeros({3})), "conv2d", "bias");
  EXPECT_EMBER_ERROR(torch::conv2d(x, w, {}, {1, 1, 1}), "conv2d", "stride");
  EXPECT_EMBER_ERROR(torch::conv2d(x, w, {}, 0), "conv2d", "stride");
  EXPECT_EMBER_ERROR(torch::conv2d(x, w, {}, 2, "same"), "conv2d", "same");
  EXPECT_EMBER_ERROR(torch::conv2d(x, w, {}, 1, "full"), "conv2d", "full");
  EXPECT_EMBER_ERROR(torch::conv_transpose2d(x, torch::zeros({3, 2, 3, 3}), {}, 1, 0, 1), "conv_transpose2d",
                     "output padding");
  EXPECT_EMBER_ERROR(torch::conv2d(x.to(torch::kInt), w.to(torch::kInt)), "conv2d", "int32");
}

// float32 first-order backward runs oneDNN's backward primitives directly (one
// reorder of grad_out, the bias gradient from the weight pass); each subset of
// required gradients, against the float64 path (im2col and the composite
// formulas), for 1-d to 3-d, groups, strides and a non-contiguous grad_out.
TEST(Conv, Float32BackwardSubsetsMatchFloat64) {
  struct Case {
    std::vector<int64_t> x, w;
    int64_t stride, padding, dilation, groups;
  };
  const std::vector<Case> cases = {{{2, 4, 9, 8}, {6, 4, 3, 3}, 1, 1, 1, 1},
                                   {{3, 6, 11, 7}, {4, 3, 3, 2}, 2, 1, 2, 2},
                                   {{2, 3, 13}, {5, 3, 4}, 3, 2, 1, 1},
                                   {{1, 2, 5, 6, 4}, {3, 2, 2, 3, 2}, 1, 1, 1, 1}};
  torch::manual_seed(11);
  for (const auto& c : cases)
    for (int mask = 1; mask < 8; ++mask) {
      const bool need_x = mask & 1, need_w = mask & 2, need_b = mask & 4;
      SCOPED_TRACE(::testing::PrintToString(c.x) + " needs " + std::to_string(mask));
      const Tensor x64 = torch::randn(c.x, torch::kDouble), w64 = torch::randn(c.w, torch::kDouble);
      const Tensor b64 = torch::randn({c.w[0]}, torch::kDouble);
      auto grads = [&](torch::ScalarType dt) {
        Tensor x = x64.to(dt).requires_grad_(need_x), w = w64.to(dt).requires_grad_(need_w);
        Tensor b = b64.to(dt).requires_grad_(need_b);
        const int64_t nd = static_cast<int64_t>(c.x.size()) - 2;
        Tensor y =
            torch::convolution(x, w, b, std::vector<int64_t>(nd, c.stride), std::vector<int64_t>(nd, c.padding),
                               std::vector<int64_t>(nd, c.dilation), false, std::vector<int64_t>(nd, 0), c.groups);
        // grad_out transposed in memory: the backward must make it contiguous itself.
        const Tensor gy = torch::ones(y.sizes(), torch::kDouble).cumsum(-1).div(10).sin().to(dt);
        y.backward(gy.transpose(0, 1).contiguous().transpose(0, 1));
        return std::vector<Tensor>{x.grad(), w.grad(), b.grad()};
      };
      const auto g32 = grads(torch::kFloat), g64 = grads(torch::kDouble);
      const bool need[3] = {need_x, need_w, need_b};
      for (int i = 0; i < 3; ++i) {
        ASSERT_EQ(g32[i].defined(), need[i]);
        if (need[i]) EXPECT_TENSOR_CLOSE_TOL(g32[i].to(torch::kDouble), g64[i], 1e-4, 1e-4);
      }
    }
}

// vmap over a vjp through a float32 convolution: batched gradients take the
// composite backward (Note [Pooling gradients under vmap] has the same case).
TEST(Conv, Float32BackwardUnderVmapOfVjp) {
  ember::manual_seed(2);
  Tensor x = ember::randn({2, 3, 7, 7}), w = ember::randn({4, 3, 3, 3}), b = ember::randn({4});
  ember::func::VjpResult r = ember::func::vjp(
      [](const std::vector<Tensor>& in) {
        return std::vector<Tensor>{ember::conv2d(in[0], in[1], in[2], {1, 1}, {1, 1})};
      },
      {x, w, b});
  Tensor cts = ember::randn({3, 2, 4, 7, 7});
  const std::vector<Tensor> batched = ember::vmap(r.vjp_fn)({cts});
  for (int64_t k = 0; k < 3; ++k) {
    const std::vector<Tensor> one = r.vjp_fn({cts[k]});
    for (size_t i = 0; i < 3; ++i)
      EXPECT_TRUE(ember::allclose(batched[i][k], one[i], 1e-4, 1e-4))
          << k << " " << i << " max diff " << (batched[i][k] - one[i]).abs().max().item<double>() << " max "
          << one[i].abs().max().item<double>();
  }
}

// Note [Convolutions in batch chunks]: a float32 batch whose output exceeds 16 MiB
// runs through oneDNN in chunks of about 4 MiB; here 1100 samples of 16 KiB (chunks
// of 256, the last of 76) and a transposed convolution of 1000 samples of 19.2 KiB,
// against the float64 (im2col) path.
TEST(Conv, LargeFloat32BatchesInChunksMatchFloat64) {
  torch::manual_seed(12);
  const Tensor x = torch::randn({1100, 8, 16, 16}), w = torch::randn({16, 8, 3, 3}), b = torch::randn({16});
  const Tensor y = torch::conv2d(x, w, b, 1, 1);
  const Tensor ref = torch::conv2d(x.to(torch::kDouble), w.to(torch::kDouble), b.to(torch::kDouble), 1, 1);
  EXPECT_TRUE(torch::allclose(y.to(torch::kDouble), ref, 1e-4, 1e-4));
  const Tensor xt = torch::randn({1000, 16, 10, 10}), wt = torch::randn({16, 12, 4, 4});
  const Tensor yt = torch::conv_transpose2d(xt, wt, {}, 2, 1);  // [1000, 12, 20, 20]
  const Tensor reft = torch::conv_transpose2d(xt.to(torch::kDouble), wt.to(torch::kDouble), {}, 2, 1);
  EXPECT_TRUE(torch::allclose(yt.to(torch::kDouble), reft, 1e-4, 1e-4));
}

// Note [Packed convolution weights]: without a graph the packed weight is kept with
// the weight's storage (direct on the first call, reused on the second, Winograd from
// the third for 3 x 3 stride-1 convolutions with channels in multiples of 16); every
// call must still match the float64 (im2col) path, and a recorded call must keep
// nothing.
// The packing tests below expect Winograd where conv::winograd_available() says
// oneDNN has it; this pins that answer to the CPU, read independently of
// oneDNN: its Winograd kernels are AVX-512 (avx512_core) ones, so an AVX-512
// machine must report them (a probe that always said no would otherwise make
// those expectations vacuous) and an AVX2-only one must not.
TEST(Conv, WinogradAvailableExactlyOnAvx512Cpus) {
  const bool avx512_core = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
  EXPECT_EQ(ember::conv::winograd_available(), avx512_core);
}

TEST(Conv, InferencePackedWeightsMatchFloat64) {
  using ember::conv::PackedWeightState;
  struct Case {
    std::vector<int64_t> x, w;
    int64_t stride, padding;
    bool winograd;
  };
  const std::vector<Case> cases = {{{1, 64, 20, 20}, {64, 64, 3, 3}, 1, 1, true},   // ResNet's stride-1 block shape
                                   {{2, 32, 10, 11}, {48, 32, 3, 3}, 1, 0, true},   // odd sizes, no padding
                                   {{1, 64, 7, 7}, {64, 64, 3, 3}, 1, 1, true},     // ResNet's last stage
                                   {{1, 16, 7, 7}, {32, 16, 3, 3}, 2, 1, false},    // stride 2: direct only
                                   {{1, 24, 10, 10}, {16, 24, 3, 3}, 1, 1, false},  // 24 channels: direct only
                                   {{1, 3, 30, 30}, {64, 3, 7, 7}, 2, 3, false}};   // ResNet's stem
  torch::manual_seed(21);
  torch::NoGradGuard no_grad;
  for (const auto& c : cases) {
    SCOPED_TRACE(::testing::PrintToString(c.x) + " w" + ::testing::PrintToString(c.w));
    const Tensor x = torch::randn(c.x).relu(), w = torch::randn(c.w) / std::sqrt(double(c.w[1] * 9));
    const Tensor b = torch::randn({c.w[0]});
    const Tensor ref =
        torch::conv2d(x.to(torch::kDouble), w.to(torch::kDouble), b.to(torch::kDouble), c.stride, c.padding);
    // A CPU without oneDNN's Winograd kernels (AVX2 only) keeps the direct packing.
    const bool winograd = c.winograd && ember::conv::winograd_available();
    const PackedWeightState want[3] = {PackedWeightState::kDirect, PackedWeightState::kDirect,
                                       winograd ? PackedWeightState::kWinograd : PackedWeightState::kDirect};
    for (int call = 0; call < 4; ++call) {
      const Tensor y = torch::conv2d(x, w, b, c.stride, c.padding);
      EXPECT_EQ(ember::conv::packed_weight_state(w), want[std::min(call, 2)]) << "call " << call;
      EXPECT_TRUE(torch::allclose(y.to(torch::kDouble), ref, 1e-5, 1e-5)) << "call " << call;
    }
  }
  // Another thread count builds another descriptor for the same packing; back and forth,
  // each call still right and Winograd stays.
  {
    const Tensor x = torch::randn({1, 32, 14, 14}), w = torch::randn({32, 32, 3, 3}) / 17.0;
    const Tensor ref = torch::conv2d(x.to(torch::kDouble), w.to(torch::kDouble), {}, 1, 1);
    const int threads = torch::get_num_threads();
    for (int call = 0; call < 8; ++call) {
      torch::set_num_threads(call % 2 == 0 ? 1 : 2);
      const Tensor y = torch::conv2d(x, w, {}, 1, 1);
      EXPECT_TRUE(torch::allclose(y.to(torch::kDouble), ref, 1e-5, 1e-5)) << "call " << call;
      if (call >= 2)
        EXPECT_EQ(ember::conv::packed_weight_state(w),
                  ember::conv::winograd_available() ? PackedWeightState::kWinograd : PackedWeightState::kDirect)
            << "call " << call;
    }
    torch::set_num_threads(threads);
  }
  // A recorded call (the weight needs a gradient) keeps nothing.
  torch::AutoGradMode enable(true);
  const Tensor w = torch::randn({16, 16, 3, 3}).requires_grad_();
  for (int call = 0; call < 3; ++call) torch::conv2d(torch::randn({1, 16, 8, 8}), w, {}, 1, 1);
  EXPECT_EQ(ember::conv::packed_weight_state(w), PackedWeightState::kNone);
}

// A packed weight is used only while the weight's storage has not been written: each
// way of changing a Conv2d's weight after Winograd is in use must show in the next
// inference, which is compared with a convolution by a fresh copy of the weight.
TEST(Conv, PackedWeightsFollowEveryWrite) {
  torch::manual_seed(22);
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(16, 32, 3).padding(1));
  conv->eval();
  const Tensor x = torch::randn({1, 16, 12, 12});
  const std::vector<std::pair<std::string, std::function<void()>>> writes = {
      {"mul_", [&] { conv->weight.mul_(2); }},
      {"add_", [&] { conv->weight.add_(torch::ones_like(conv->weight)); }},
      {"copy_", [&] { conv->weight.copy_(torch::randn(conv->weight.sizes())); }},
      {"fill_", [&] { conv->weight.fill_(0.25); }},
      {"normal_", [&] { conv->weight.normal_(); }},
      {"clamp_", [&] { conv->weight.clamp_(-0.1, 0.05); }},
      {"index_fill_",
       [&] {
         conv->weight.index_fill_(0, torch::tensor({int64_t(3), int64_t(7)}), 1.5);
       }},
      {"masked_fill_", [&] { conv->weight.masked_fill_(conv->weight > 0, 0.0); }},
      {"a slice", [&] { conv->weight[5][2].uniform_(-3, 3); }},
      {"data()", [&] { conv->weight.data().sub_(0.5); }},
      // A loader copying bytes in: no version bump, so only the sampled fingerprint sees it.
      {"memcpy through data_ptr()",
       [&] {
         const Tensor v = torch::randn(conv->weight.sizes());
         std::memcpy(conv->weight.data_ptr(), v.data_ptr(), static_cast<size_t>(v.numel()) * sizeof(float));
       }},
      {"kaiming_uniform_", [&] { torch::nn::init::kaiming_uniform_(conv->weight); }},
      {"SGD step",
       [&] {
         torch::AutoGradMode enable(true);
         torch::optim::SGD opt(conv->parameters(), 0.5);
         conv->train();
         conv(x).square().sum().backward();
         opt.step();
         conv->eval();
       }},
      {"Adam step (fused kernel)", [&] {
         torch::AutoGradMode enable(true);
         torch::optim::Adam opt(conv->parameters(), torch::optim::AdamOptions(0.1));
         conv->train();
         conv(x).square().sum().backward();
         opt.step();
         conv->eval();
       }}};
  for (const auto& [name, write] : writes) {
    SCOPED_TRACE(name);
    {
      torch::NoGradGuard no_grad;
      for (int call = 0; call < 3; ++call) conv(x);
      EXPECT_EQ(ember::conv::packed_weight_state(conv->weight), ember::conv::winograd_available()
                                                                    ? ember::conv::PackedWeightState::kWinograd
                                                                    : ember::conv::PackedWeightState::kDirect);
    }
    {
      torch::NoGradGuard no_grad;
      write();
    }
    torch::NoGradGuard no_grad;
    const Tensor fresh = torch::conv2d(x, conv->weight.clone(), conv->bias, 1, 1);
    // Winograd and direct round differently: the bound is relative to the output's scale,
    // a stale weight would be off by about the scale itself.
    const float scale = fresh.abs().max().item<float>();
    for (int call = 0; call < 3; ++call)
      EXPECT_LE((conv(x) - fresh).abs().max().item<float>(), 1e-5f * scale) << "call " << call;
  }
}

// Inference on one weight from two threads (a 3 x 3 and a 1 x 1 convolution): each
// may pack the weight and store it, both execute what is stored; every output must be
// right. Executing one stored primitive object from both threads failed this.
TEST(Conv, PackedWeightsUnderConcurrentInference) {
  torch::manual_seed(23);
  for (const int64_t k : {3, 1}) {
    SCOPED_TRACE(k);
    const Tensor w = torch::randn({32, 32, k, k}) / 17.0, x = torch::randn({2, 1, 32, 12, 12});
    const int64_t pad = k / 2;
    const Tensor ref[2] = {torch::conv2d(x.to(torch::kDouble)[0], w.to(torch::kDouble), {}, 1, pad),
                           torch::conv2d(x.to(torch::kDouble)[1], w.to(torch::kDouble), {}, 1, pad)};
    std::vector<int> bad(2, 0);
    auto work = [&](int t) {
      torch::NoGradGuard no_grad;
      for (int i = 0; i < 20; ++i) {
        const Tensor y = torch::conv2d(x[t], w, {}, 1, pad).to(torch::kDouble);
        bad[t] += torch::allclose(y, ref[t], 1e-5, 1e-5) ? 0 : 1;
      }
    };
    std::thread a(work, 0), b(work, 1);
    a.join();
    b.join();
    EXPECT_EQ(bad[0], 0);
    EXPECT_EQ(bad[1], 0);
  }
}
