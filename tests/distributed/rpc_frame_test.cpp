// The RPC frame header (Note [RPC frames]): round trip, and every malformed
// header raises instead of being trusted.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/distributed/object.h"
#include "ember/distributed/rpc/frame.h"

namespace rd = ember::distributed::rpc::detail;

TEST(RpcFrame, HeaderRoundTrips) {
  uint8_t h[rd::kHeaderBytes];
  rd::encode_header({rd::MessageType::kCall, (uint64_t{3} << 48) | 17, 12345}, h);
  auto back = rd::parse_header(h, sizeof h);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->type, rd::MessageType::kCall);
  EXPECT_EQ(back->id, (uint64_t{3} << 48) | 17);
  EXPECT_EQ(back->length, 12345u);
  EXPECT_FALSE(rd::parse_header(h, rd::kHeaderBytes - 1).has_value());  // incomplete: wait for more
}

TEST(RpcFrame, RejectsMalformedHeaders) {
  uint8_t h[rd::kHeaderBytes];
  rd::encode_header({rd::MessageType::kReplyOk, 1, 8}, h);
  auto bad = [&](size_t at, uint8_t v) {
    uint8_t c[rd::kHeaderBytes];
    std::copy(h, h + rd::kHeaderBytes, c);
    c[at] = v;
    return std::vector<uint8_t>(c, c + rd::kHeaderBytes);
  };
  auto m = bad(0, 'X');
  EXPECT_EMBER_ERROR(rd::parse_header(m.data(), m.size()), "rpc", "magic");
  auto t = bad(4, 99);
  EXPECT_EMBER_ERROR(rd::parse_header(t.data(), t.size()), "rpc", "unknown message type 99");
  auto r = bad(6, 1);
  EXPECT_EMBER_ERROR(rd::parse_header(r.data(), r.size()), "rpc", "reserved");
  auto big = bad(23, 0x80);  // a 2^63-byte payload claimed
  EXPECT_EMBER_ERROR(rd::parse_header(big.data(), big.size()), "rpc", "exceeds");
}
