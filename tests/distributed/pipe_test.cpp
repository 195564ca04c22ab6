// Pipe: with every checkpoint mode and chunk count, the output and the
// parameters' gradients equal those of the unsplit Sequential.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/distributed/pipeline/sync/pipe.h"
#include "ember/torch.h"

namespace nn = ember::nn;
using ember::Tensor;
using ember::distributed::pipeline::sync::Pipe;
using ember::distributed::pipeline::sync::PipeOptions;

namespace {
nn::Sequential make_net() {
  ember::manual_seed(4);
  return nn::Sequential(nn::Sequential(nn::Linear(5, 16), nn::Tanh()), nn::Sequential(nn::Linear(16, 16), nn::ReLU()),
                        nn::Linear(16, 3));
}
}  // namespace

TEST(Pipe, MatchesTheUnsplitSequential) {
  ember::manual_seed(9);
  Tensor x = ember::randn({10, 5}), y = ember::randn({10, 3});
  auto reference = make_net();
  ember::nn::functional::mse_loss(reference->forward(x), y).backward();
  for (int64_t chunks : {1, 3, 4, 10}) {
    for (const char* mode : {"always", "except_last", "never"}) {
      auto net = make_net();
      Pipe pipe(net, PipeOptions().chunks(chunks).checkpoint(mode));
      EXPECT_EQ(pipe->num_stages(), 3u);
      Tensor out = pipe->forward(x);
      EXPECT_TENSOR_CLOSE(out, reference->forward(x));
      ember::nn::functional::mse_loss(out, y).backward();
      auto got = net->parameters(), want = reference->parameters();
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_TRUE(ember::allclose(got[i].grad(), want[i].grad(), 1e-5, 1e-6))
            << "chunks " << chunks << " " << mode << " parameter " << i;
    }
  }
}

TEST(Pipe, NoGradAndBadOptions) {
  auto net = make_net();
  Pipe pipe(net, PipeOptions().chunks(2));
  {
    ember::NoGradGuard g;
    EXPECT_FALSE(pipe->forward(ember::randn({4, 5})).requires_grad());
  }
  EXPECT_EMBER_ERROR(Pipe(make_net(), PipeOptions().chunks(0)), "Pipe", "chunks");
  EXPECT_EMBER_ERROR(Pipe(make_net(), PipeOptions().checkpoint("sometimes")), "Pipe", "sometimes");
  EXPECT_EMBER_ERROR(pipe->forward(ember::randn({4, 7})), "");  // a stage's own error reaches the caller
}
