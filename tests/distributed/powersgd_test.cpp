// PowerSGD on 2 processes, each on half the batch: after every step the
// parameters equal torch's DDP + PowerSGD on one process and the whole batch
// (tools/golden/gen_distributed_powersgd.py says why these agree).
#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/distributed/ddp/distributed_data_parallel.h"
#include "ember/distributed/ddp/post_localSGD_hook.h"
#include "ember/distributed/ddp/powerSGD_hook.h"
#include "ember/distributed/distributed_c10d.h"
#include "ember/torch.h"
#include "multiprocess.h"

namespace dist = ember::distributed;
namespace nn = ember::nn;
namespace F = ember::nn::functional;
namespace psgd = dist::algorithms::ddp_comm_hooks::powerSGD_hook;
using namespace std::chrono_literals;
using ember::Tensor;
using ember::testing::Golden;
using nn::parallel::DistributedDataParallel;

namespace {

struct ThreeLayersImpl : nn::Module {
  explicit ThreeLayersImpl(const Golden& g) {
    w1 = register_parameter("w1", g["w1"].clone());
    w3 = register_parameter("w3", g["w3"].clone());
    w2 = register_parameter("w2", g["w2"].clone());
    b = register_parameter("b", g["b"].clone());
  }
  Tensor forward(const Tensor& x) {
    return ember::tanh(ember::tanh(x.matmul(w1.t())).matmul(w3.t())).matmul(w2.t()) + b;
  }
  Tensor w1, w3, w2, b;
};
TORCH_MODULE(ThreeLayers);

}  // namespace

TEST(PowerSGD, NumpyRandintMatchesRandomState) {
  Golden g("distributed_powersgd.golden");
  std::mt19937 rng(0);
  Tensor want = g["randint_seed0"];
  for (int64_t i = 0; i < want.numel(); ++i)
    EXPECT_EQ(psgd::detail::numpy_randint(rng, 1'000'000'000), want[i].item<int64_t>());
}

TEST(PowerSGD, RejectsEarlyStartWithErrorFeedback) {
  EXPECT_EMBER_ERROR(psgd::PowerSGDState(nullptr, 1, 1), "PowerSGDState", "start_powerSGD_iter");
}

TEST(PowerSGD, OrthogonalizeGivesOrthonormalColumns) {
  ember::manual_seed(1);
  for (int64_t r : {1, 2, 3}) {
    Tensor m = ember::randn({2, 6, r}, ember::kDouble);
    psgd::detail::orthogonalize(m);
    Tensor gram = ember::bmm(m.transpose(1, 2), m);
    EXPECT_TENSOR_CLOSE(gram, ember::eye(r, ember::kDouble).expand({2, r, r}));
  }
}

namespace {
void run_case(const std::string& c) {
  ember_dist_test::Launch l;
  l.env = {{"EMBER_PSGD_CASE", c}};
  ember_dist_test::expect_all_passed(ember_dist_test::run_ranks("PowerSgdMatches", l));
}
}  // namespace

TEST(PowerSGD, Rank1WithErrorFeedbackAndWarmStart) { run_case("rank1"); }
TEST(PowerSGD, Rank3Qr) { run_case("rank3_qr"); }
TEST(PowerSGD, NoFeedbackNoWarmStart) { run_case("no_feedback"); }
TEST(PowerSGD, BatchTensorsWithSameShape) { run_case("batched_shapes"); }
TEST(PowerSGD, BatchedHook) { run_case("batched_hook"); }
DIST_WORKER(PowerSgdMatches) {
  dist::init_process_group("gloo", std::nullopt, 20000ms);
  int r = dist::get_rank();
  std::string c = std::getenv("EMBER_PSGD_CASE");
  Golden g("distributed_powersgd.golden");
  ThreeLayers net(g);
  DistributedDataParallel ddp(net);
  auto hook = psgd::powerSGD_hook;
  std::optional<psgd::PowerSGDState> state;
  if (c == "rank1") state.emplace(nullptr, 1, 2);
  if (c == "rank3_qr") state.emplace(nullptr, 3, 2, 1);
  if (c == "no_feedback") state.emplace(nullptr, 2, 1, 2, false, false, 1e-8, 5);
  if (c == "batched_shapes") state.emplace(nullptr, 2, 2, 2, true, true, 0, 0, true);
  if (c == "batched_hook") state.emplace(nullptr, 1, 2), hook = psgd::batched_powerSGD_hook;
  ASSERT_TRUE(state.has_value()) << c;
  auto shared = std::make_shared<psgd::PowerSGDState>(std::move(*state));
  ddp->register_comm_hook(shared, hook);
  ember::optim::SGD opt(ddp->parameters(), 0.5);
  Tensor x = g["x"].narrow(0, r * 4, 4), y = g["y"].narrow(0, r * 4, 4);
  for (int step = 0; step < 5; ++step) {
    opt.zero_grad();
    F::mse_loss(ddp->forward(x), y).backward();
    opt.step();
    for (const auto& item : net->named_parameters())
      EXPECT_TRUE(ember::allclose(item.value(), g[c + ".step" + std::to_string(step) + "." + item.key()], 1e-4, 1e-5))
          << c << " step " << step << " " << item.key();
  }
  EXPECT_EQ(shared->iter, 5);
  auto [rate, before, after] = shared->compression_stats();
  EXPECT_GT(rate, 1.0);
  dist::destroy_process_group();
}

namespace {
namespace plsgd = dist::algorithms::ddp_comm_hooks::post_localSGD_hook;
void run_local_sgd(const std::string& mode) {
  ember_dist_test::Launch l;
  l.env = {{"EMBER_LOCALSGD", mode}};
  ember_dist_test::expect_all_passed(ember_dist_test::run_ranks("PostLocalSgd", l));
}
}  // namespace

// Two steps of global averaging, then each rank on its own gradient (its
// subgroup is itself), with and without the subgroup all-reduce.
TEST(PostLocalSGD, GlobalThenLocal) { run_local_sgd("subgroup"); }
TEST(PostLocalSGD, NoPostLocalAllreduce) { run_local_sgd("none"); }
DIST_WORKER(PostLocalSgd) {
  dist::init_process_group("gloo", std::nullopt, 20000ms);
  int r = dist::get_rank();
  bool use_subgroup = std::string(std::getenv("EMBER_LOCALSGD")) == "subgroup";
  auto g0 = dist::new_group({0}), g1 = dist::new_group({1});
  Golden g("distributed_powersgd.golden");
  ThreeLayers net(g), reference(g);
  DistributedDataParallel ddp(net);
  auto state = std::make_shared<plsgd::PostLocalSGDState>(nullptr, r == 0 ? g0 : g1, 2, use_subgroup);
  ddp->register_comm_hook(state, plsgd::post_localSGD_hook);
  ember::optim::SGD opt(ddp->parameters(), 0.5), ref_opt(reference->parameters(), 0.5);
  Tensor x = g["x"], y = g["y"];
  for (int step = 0; step < 4; ++step) {
    opt.zero_grad();
    F::mse_loss(ddp->forward(x.narrow(0, r * 4, 4)), y.narrow(0, r * 4, 4)).backward();
    opt.step();
    ref_opt.zero_grad();
    // Global steps: the whole batch's mean; local steps: this rank's half.
    Tensor xs = step < 2 ? x : x.narrow(0, r * 4, 4), ys = step < 2 ? y : y.narrow(0, r * 4, 4);
    F::mse_loss(reference->forward(xs), ys).backward();
    ref_opt.step();
    auto a = net->parameters(), b = reference->parameters();
    for (size_t i = 0; i < a.size(); ++i)
      EXPECT_TRUE(ember::allclose(a[i], b[i], 1e-5, 1e-6)) << "step " << step << " parameter " << i;
  }
  EXPECT_EQ(state->iter, 2);
  dist::destroy_process_group();
}
