#pragma once
// The RPC wire format. Note [RPC frames]
// Every message is a 24-byte header — magic "ERPC", a type byte, three zero
// bytes, a u64 message id, a u64 payload length (little-endian) — then the
// payload, an encoded Object (object.h). The header comes from the network:
// parse_header checks the magic, the type, the zero bytes and the length
// (at most kMaxPayloadBytes) before the reader allocates anything.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "ember/core/namespace.h"

namespace torch::distributed::rpc::detail {

constexpr size_t kHeaderBytes = 24;
constexpr uint64_t kMaxPayloadBytes = uint64_t{1} << 30;

enum class MessageType : uint8_t {
  kCall = 1,      // [func, args, kwargs, context id, message id, grad positions]
  kRemote,        // kCall's fields, then the new RRef's id
  kFetch,         // [rref id, context id]
  kDeleteRRef,    // [rref id]
  kBackward,      // [context id, message id, grads]
  kCleanup,       // [context id]
  kForkRRef,      // [rref id]: one more user (an RRef sent as an argument)
  kReplyOk = 10,  // [result, message id, grad positions]
  kReplyError,    // error message
};

struct FrameHeader {
  MessageType type;
  uint64_t id;
  uint64_t length;
};

void encode_header(const FrameHeader& h, uint8_t out[kHeaderBytes]);
// nullopt when fewer than kHeaderBytes bytes are given; raises ember::Error on a malformed header.
std::optional<FrameHeader> parse_header(const uint8_t* data, size_t size);

}  // namespace torch::distributed::rpc::detail
