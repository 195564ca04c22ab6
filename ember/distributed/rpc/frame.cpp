#include "ember/distributed/rpc/frame.h"

#include <cstring>

#include "ember/core/error.h"

namespace torch::distributed::rpc::detail {
namespace {
constexpr uint8_t kMagic[4] = {'E', 'R', 'P', 'C'};

void put_u64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
uint64_t get_u64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}
bool known(uint8_t t) { return (t >= 1 && t <= 7) || t == 10 || t == 11; }
}  // namespace

void encode_header(const FrameHeader& h, uint8_t out[kHeaderBytes]) {
  std::memcpy(out, kMagic, 4);
  out[4] = static_cast<uint8_t>(h.type);
  out[5] = out[6] = out[7] = 0;
  put_u64(out + 8, h.id);
  put_u64(out + 16, h.length);
}

std::optional<FrameHeader> parse_header(const uint8_t* data, size_t size) {
  if (size < kHeaderBytes) return std::nullopt;
  EMBER_CHECK(std::memcmp(data, kMagic, 4) == 0, "rpc: a frame without the ERPC magic (not an Ember RPC peer?)");
  EMBER_CHECK(known(data[4]), "rpc: unknown message type ", int(data[4]));
  EMBER_CHECK(data[5] == 0 && data[6] == 0 && data[7] == 0, "rpc: nonzero reserved header bytes");
  FrameHeader h{static_cast<MessageType>(data[4]), get_u64(data + 8), get_u64(data + 16)};
  EMBER_CHECK(h.length <= kMaxPayloadBytes, "rpc: a frame of ", h.length, " bytes exceeds the ", kMaxPayloadBytes,
              "-byte limit");
  return h;
}

}  // namespace torch::distributed::rpc::detail
