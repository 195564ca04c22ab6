// The *_object collectives on 3 processes, and the Object wire form: it
// round-trips every kind and rejects malformed bytes with an error.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/distributed/distributed_c10d.h"
#include "ember/distributed/object_collectives.h"
#include "ember/torch.h"
#include "multiprocess.h"

namespace dist = ember::distributed;
using namespace std::chrono_literals;
using dist::Object;
using ember::Tensor;

namespace {
Object sample(int64_t r) {
  return Object(Object::List{Object(r), Object("rank " + std::to_string(r)), Object(0.5 * r), Object(r % 2 == 0),
                             Object(), Object(ember::arange(r + 1).to(ember::kFloat).reshape({1, -1})),
                             Object(Object::Dict{{"k", Object(r * 10)}})});
}
}  // namespace

TEST(ObjectWire, RoundTripsEveryKind) {
  Object o = sample(2);
  EXPECT_EQ(dist::decode_object(dist::encode_object(o)), o);
  Object t(ember::randn({3, 2}).t());  // non-contiguous
  EXPECT_EQ(dist::decode_object(dist::encode_object(t)), Object(t.to_tensor().contiguous()));
  EXPECT_EQ(sample(1).to_list()[1].to_string(), "rank 1");
  EXPECT_EMBER_ERROR(sample(1).to_list()[1].to_int(), "Object", "expected an int", "str");
}

TEST(ObjectWire, RejectsMalformedBytes) {
  auto bytes = dist::encode_object(sample(3));
  for (size_t cut = 0; cut < bytes.size(); ++cut)
    EXPECT_THROW(dist::decode_object(bytes.data(), cut), ember::Error) << "cut at " << cut;
  std::vector<uint8_t> extra = bytes;
  extra.push_back(0);
  EXPECT_EMBER_ERROR(dist::decode_object(extra), "decode_object", "bytes after");
  EXPECT_EMBER_ERROR(dist::decode_object(std::vector<uint8_t>{42}), "decode_object", "unknown tag 42");
  // A list claiming 2^60 elements in 9 bytes: refused before allocating.
  std::vector<uint8_t> huge{6, 0, 0, 0, 0, 0, 0, 0, 0x10};
  EXPECT_EMBER_ERROR(dist::decode_object(huge), "decode_object", "truncated");
  std::vector<uint8_t> deep(100, 6);  // lists nested 100 deep
  EXPECT_EMBER_ERROR(dist::decode_object(deep), "decode_object");
}

TEST(ObjectCollectives, ThreeRanks) {
  ember_dist_test::Launch l;
  l.world_size = 3;
  ember_dist_test::expect_all_passed(ember_dist_test::run_ranks("ObjectCollectives", l));
}
DIST_WORKER(ObjectCollectives) {
  dist::init_process_group("gloo", std::nullopt, 20000ms);
  int64_t r = dist::get_rank();
  std::vector<Object> all;
  dist::all_gather_object(all, sample(r));
  ASSERT_EQ(all.size(), 3u);
  for (int64_t i = 0; i < 3; ++i) EXPECT_EQ(all[static_cast<size_t>(i)], sample(i)) << i;

  std::vector<Object> list(2);
  if (r == 1) list = {Object("from one"), sample(7)};
  dist::broadcast_object_list(list, 1);
  EXPECT_EQ(list[0], Object("from one"));
  EXPECT_EQ(list[1], sample(7));

  std::vector<Object> gathered;
  dist::gather_object(Object(r * r), r == 2 ? &gathered : nullptr, 2);
  if (r == 2) EXPECT_EQ(gathered, (std::vector<Object>{Object(0), Object(1), Object(4)}));

  std::vector<Object> out(1);
  std::vector<Object> in;
  if (r == 0) in = {sample(10), sample(11), sample(12)};
  dist::scatter_object_list(out, in, 0);
  EXPECT_EQ(out[0], sample(10 + r));

  // A length mismatch raises on the receivers instead of desynchronising.
  std::vector<Object> wrong(r == 0 ? 2 : 3);
  if (r == 0)
    EXPECT_EMBER_ERROR(dist::broadcast_object_list(wrong, 0), "broadcast_object_list", "another rank");
  else
    EXPECT_EMBER_ERROR(dist::broadcast_object_list(wrong, 0), "broadcast_object_list", "3 elements here and 2");
  dist::destroy_process_group();
}
