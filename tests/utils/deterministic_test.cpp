// Deterministic mode: the flag's API, the ops it changes, and the acceptance
// test — the main job's network trained twice per thread count gives
// bitwise-identical parameters.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <cstring>

#include "ember/ember.h"

using ember::Tensor;
namespace nn = ember::nn;

namespace {

// Restores the flags and the thread count a test changes.
struct DeterminismScope {
  bool prev = ember::are_deterministic_algorithms_enabled();
  bool prev_warn = ember::is_deterministic_algorithms_warn_only_enabled();
  int threads = ember::get_num_threads();
  ~DeterminismScope() {
    ember::use_deterministic_algorithms(prev, prev_warn);
    ember::set_num_threads(threads);
  }
};

nn::Sequential main_job_network() {
  return nn::Sequential(nn::Conv2d(nn::Conv2dOptions(1, 32, 3).padding(1)), nn::ReLU(), nn::MaxPool2d(2),
                        nn::Conv2d(nn::Conv2dOptions(32, 64, 3).padding(1)), nn::ReLU(), nn::MaxPool2d(2),
                        nn::Flatten(), nn::Linear(3136, 128), nn::ReLU(), nn::Dropout(0.25), nn::Linear(128, 10));
}

// Trains from seed 0 on synthetic data (its own generator) and returns the parameters.
std::vector<Tensor> train(int threads, int steps, int batch) {
  ember::set_num_threads(threads);
  ember::manual_seed(0);  // initialisation and dropout masks
  nn::Sequential net = main_job_network();
  ember::optim::Adam opt(net->parameters(), ember::optim::AdamOptions(1e-3));
  ember::Generator data = ember::make_generator(1234);
  for (int s = 0; s < steps; ++s) {
    Tensor x = ember::randn({batch, 1, 28, 28}, data);
    Tensor y = ember::randint(0, 10, {batch}, data);
    opt.zero_grad();
    Tensor loss = ember::cross_entropy_loss(net->forward(x), y);
    loss.backward();
    opt.step();
  }
  std::vector<Tensor> out;
  for (const Tensor& p : net->parameters()) out.push_back(p.detach().clone());
  return out;
}

bool bitwise_equal(const std::vector<Tensor>& a, const std::vector<Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i].sizes().equals(b[i].sizes()) || a[i].dtype() != b[i].dtype()) return false;
    if (std::memcmp(a[i].data_ptr(), b[i].data_ptr(), a[i].nbytes()) != 0) return false;
  }
  return true;
}

}  // namespace

TEST(Deterministic, Flags) {
  DeterminismScope scope;
  EXPECT_FALSE(ember::are_deterministic_algorithms_enabled());
  ember::use_deterministic_algorithms(true);
  EXPECT_TRUE(ember::are_deterministic_algorithms_enabled());
  EXPECT_FALSE(ember::is_deterministic_algorithms_warn_only_enabled());
  ember::use_deterministic_algorithms(true, true);
  EXPECT_TRUE(ember::is_deterministic_algorithms_warn_only_enabled());
  ember::use_deterministic_algorithms(false, true);  // warn_only means nothing when off
  EXPECT_FALSE(ember::are_deterministic_algorithms_enabled());
  EXPECT_FALSE(ember::is_deterministic_algorithms_warn_only_enabled());
}

TEST(Deterministic, AlertRaisesOrWarnsOnce) {
  DeterminismScope scope;
  EXPECT_NO_THROW(ember::alert_not_deterministic("my_op"));  // mode off: nothing
  ember::use_deterministic_algorithms(true);
  try {
    ember::alert_not_deterministic("my_op");
    FAIL() << "expected ember::Error";
  } catch (const ember::Error& e) {
    EXPECT_NE(std::string(e.what()).find("my_op does not have a deterministic implementation"), std::string::npos)
        << e.what();
  }
  ember::use_deterministic_algorithms(true, true);
  ::testing::internal::CaptureStderr();
  ember::alert_not_deterministic("my_other_op");
  ember::alert_not_deterministic("my_other_op");
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("my_other_op"), std::string::npos);
  EXPECT_EQ(err.find("my_other_op"), err.rfind("my_other_op"));  // once
}

TEST(Deterministic, IndexPutWithRepeatedIndicesLastWins) {
  // Enough elements for the parallel path; every index repeated, so without
  // deterministic mode the winner would depend on thread timing.
  DeterminismScope scope;
  ember::set_num_threads(2);
  ember::use_deterministic_algorithms(true);
  const int64_t n = 1 << 17;
  Tensor idx = ember::arange(n, ember::TensorOptions(ember::kLong)).remainder(64);
  Tensor vals = ember::arange(n, ember::TensorOptions(ember::kFloat));
  for (int rep = 0; rep < 3; ++rep) {
    Tensor dst = ember::zeros({64});
    dst.index_put_({idx}, vals);
    // The last occurrence of index k is n - 64 + k.
    Tensor want = ember::arange(n - 64, n, ember::TensorOptions(ember::kFloat));
    EXPECT_TRUE(ember::equal(dst, want));
    Tensor c = ember::zeros({64}).index_copy(0, idx, vals);
    EXPECT_TRUE(ember::equal(c, want));
  }
}

TEST(Deterministic, MainJobNetworkTrainsBitwiseIdentically) {
  DeterminismScope scope;
  ember::use_deterministic_algorithms(true);
  // Batch 4 keeps the four runs well inside a minute on a shared machine; the
  // network is the main job's. EMBER_DET_STEPS / EMBER_DET_BATCH override.
  const int steps = std::getenv("EMBER_DET_STEPS") ? std::atoi(std::getenv("EMBER_DET_STEPS")) : 200;
  const int batch = std::getenv("EMBER_DET_BATCH") ? std::atoi(std::getenv("EMBER_DET_BATCH")) : 4;
  const auto t0 = std::chrono::steady_clock::now();
  for (int threads : {1, 2}) {
    SCOPED_TRACE(threads);
    std::vector<Tensor> a = train(threads, steps, batch);
    std::vector<Tensor> b = train(threads, steps, batch);
    EXPECT_TRUE(bitwise_equal(a, b));
    // Sanity: training moved the parameters away from their initial values.
    ember::manual_seed(0);
    nn::Sequential init = main_job_network();
    EXPECT_FALSE(bitwise_equal(a, [&] {
      std::vector<Tensor> v;
      for (const Tensor& p : init->parameters()) v.push_back(p.detach());
      return v;
    }()));
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[ deterministic ] 4 runs of %d steps (batch %d) in %.1f s\n", steps, batch, secs);
}
