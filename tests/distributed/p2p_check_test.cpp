// Note [Point-to-point size check]: a recv whose buffer does not match the
// send raises on the receiver, naming both sizes, instead of Gloo aborting the
// process; the group stays usable; posting receives before sends (in either
// order on each rank) does not deadlock.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/distributed/distributed_c10d.h"
#include "ember/torch.h"
#include "multiprocess.h"

namespace dist = ember::distributed;
using namespace std::chrono_literals;
using ember::Tensor;

TEST(P2PCheck, MismatchedSizesRaiseOnTheReceiver) {
  ember_dist_test::Launch l;
  ember_dist_test::expect_all_passed(ember_dist_test::run_ranks("P2PMismatch", l));
}
DIST_WORKER(P2PMismatch) {
  dist::init_process_group("gloo", std::nullopt, 10000ms);
  int r = dist::get_rank();
  if (r == 0) {
    dist::send(ember::arange(8).to(ember::kFloat), 1);
  } else {
    Tensor small = ember::zeros({4});
    EXPECT_EMBER_ERROR(dist::recv(small, 0), "recv", "rank 0 sent 32 bytes", "float32 [8]", "expects 16 bytes",
                       "float32 [4]");
  }
  // Still in step: a matching exchange goes through.
  Tensor t = ember::full({3}, double(r + 1), ember::kDouble);
  if (r == 0) {
    dist::send(t, 1);
  } else {
    Tensor got = ember::zeros({3}, ember::kDouble);
    dist::recv(got, 0);
    EXPECT_TENSOR_EQ(got, ember::ones({3}, ember::kDouble));
  }
  // Receives posted before sends on both ranks.
  Tensor in = ember::zeros({5}), out = ember::full({5}, float(r));
  std::vector<dist::P2POp> ops{dist::P2POp(dist::irecv, in, 1 - r), dist::P2POp(dist::isend, out, 1 - r)};
  for (auto& w : dist::batch_isend_irecv(ops)) w->wait();
  EXPECT_TENSOR_EQ(in, ember::full({5}, float(1 - r)));
  dist::barrier();
  dist::destroy_process_group();
}

// Note [Any-source receive size check]: with three ranks a receive from any
// source finds its sender, names it, and raises on a size mismatch.
TEST(P2PCheck, AnySourceReceivesAreChecked) {
  ember_dist_test::Launch l;
  l.world_size = 3;
  ember_dist_test::expect_all_passed(ember_dist_test::run_ranks("P2PAnySource", l));
}
DIST_WORKER(P2PAnySource) {
  dist::init_process_group("gloo", std::nullopt, 10000ms);
  int r = dist::get_rank();
  if (r == 2) {
    Tensor got = ember::zeros({4});
    int64_t first = dist::recv(got, std::nullopt, nullptr, 3);
    EXPECT_TRUE(first == 0 || first == 1) << first;
    EXPECT_TENSOR_EQ(got, ember::full({4}, float(first + 1)));
    Tensor second = ember::zeros({4});
    EXPECT_EQ(dist::recv(second, std::nullopt, nullptr, 3), 1 - first);
    EXPECT_TENSOR_EQ(second, ember::full({4}, float(2 - first)));
    // Larger than the buffer: an Error naming both sizes, not an abort.
    Tensor small = ember::zeros({2});
    EXPECT_EMBER_ERROR(dist::recv(small, std::nullopt, nullptr, 4), "recv", "rank 0 sent 24 bytes", "expects 8 bytes");
  } else {
    dist::send(ember::full({4}, float(r + 1)), 2, nullptr, 3);
    if (r == 0) dist::send(ember::ones({6}), 2, nullptr, 4);
  }
  dist::barrier();
  dist::destroy_process_group();
}
