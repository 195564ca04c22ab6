// examples/ddp_mnist's training on a few hundred Fashion-MNIST images, 2
// processes: after an epoch the parameters equal one process training on the
// same global batches (each step's two rank batches concatenated), with the
// example's DistributedRandomSampler deciding who gets which samples.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "common/test_util.h"
#include "examples/ddp_mnist/ddp_train.h"
#include "multiprocess.h"

namespace dist = ember::distributed;
using namespace std::chrono_literals;
using ember::Tensor;

namespace {
const std::string kData = "/usr/share/datasets/fashion-mnist";
constexpr int64_t kSamples = 160, kLocalBatch = 16;

bool have_data() {
  struct stat st {};
  const std::string file = kData + "/t10k-images-idx3-ubyte.gz";
  return ::stat(file.c_str(), &st) == 0;
}
}  // namespace

TEST(DDPFashionMnist, TwoProcessesMatchOneOnTheGlobalBatch) {
  if (!have_data()) GTEST_SKIP() << "no Fashion-MNIST in " << kData;
  ember_dist_test::Launch l;
  l.limit = std::chrono::milliseconds(60000);
  ember_dist_test::expect_all_passed(ember_dist_test::run_ranks("DdpFashionMnist", l));
}
DIST_WORKER(DdpFashionMnist) {
  dist::init_process_group("gloo", std::nullopt, 30000ms);
  int r = dist::get_rank();
  using ember::data::datasets::MNIST;
  const MNIST data(kData, MNIST::Mode::kTest);
  Tensor images = ddp_mnist::normalize(data.images().narrow(0, 0, kSamples));
  Tensor targets = data.targets().narrow(0, 0, kSamples);
  // No dropout: its masks differ between the ranks and the reference.
  ember::manual_seed(3);
  ddp_mnist::Net net(0.0);
  ember::manual_seed(3);
  ddp_mnist::Net reference(0.0);
  ember::nn::parallel::DistributedDataParallel ddp(net);
  ember::optim::SGD opt(ddp->parameters(), ember::optim::SGDOptions(0.05).momentum(0.9));
  ember::optim::SGD ref_opt(reference->parameters(), ember::optim::SGDOptions(0.05).momentum(0.9));
  ember::data::samplers::DistributedRandomSampler sampler(kSamples, 2, static_cast<size_t>(r));
  double loss = ddp_mnist::train_epoch(ddp, opt, images, targets, sampler, 1, kLocalBatch);
  EXPECT_TRUE(std::isfinite(loss));
  // The reference: both ranks' samplers, step by step, one batch of both.
  ember::data::samplers::DistributedRandomSampler s0(kSamples, 2, 0), s1(kSamples, 2, 1);
  for (auto* s : {&s0, &s1}) {
    s->set_epoch(1);
    s->reset();
  }
  int steps = 0;
  while (auto a = s0.next(kLocalBatch)) {
    auto b = s1.next(kLocalBatch);
    ASSERT_TRUE(b.has_value());
    ASSERT_EQ(a->size(), b->size());
    std::vector<size_t> both = *a;
    both.insert(both.end(), b->begin(), b->end());
    auto [x, y] = ddp_mnist::gather(images, targets, both);
    ref_opt.zero_grad();
    ember::nn::functional::cross_entropy(reference->forward(x), y).backward();
    ref_opt.step();
    ++steps;
  }
  EXPECT_EQ(steps, 5);
  auto mine = net->parameters(), want = reference->parameters();
  for (size_t i = 0; i < mine.size(); ++i)
    EXPECT_TRUE(ember::allclose(mine[i], want[i], 1e-4, 1e-5)) << "parameter " << i;
  dist::destroy_process_group();
}
