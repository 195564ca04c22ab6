#pragma once
// The TCP store's wire protocol. Note [Store frames]
// Every message is a frame: a little-endian u32 payload length, then the
// payload. A request payload is an opcode byte and its fields; strings and
// byte strings are a u32 length and the bytes, integers are little-endian
// i64. A reply payload is a status byte (0 ok, 1 error) and the result. Frames
// come from the network: the decoders check every length against the bytes
// that exist and against kMaxFrameBytes before copying, and reject unknown
// opcodes, short fields and trailing bytes with an ember::Error, which fails
// that one connection.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ember/core/namespace.h"

namespace torch::distributed::store_detail {

constexpr uint32_t kMaxFrameBytes = 1u << 30;
constexpr uint32_t kMaxKeysPerRequest = 1u << 20;

enum class StoreOp : uint8_t { SET = 1, GET, ADD, COMPARE_SET, DELETE_KEY, NUM_KEYS, CHECK, WAIT };

struct StoreRequest {
  StoreOp op = StoreOp::GET;
  std::vector<std::string> keys;  // one for the single-key ops
  std::vector<uint8_t> value;     // SET's value; COMPARE_SET's expected
  std::vector<uint8_t> desired;   // COMPARE_SET's desired
  int64_t amount = 0;             // ADD
};

// Appends a whole frame (length prefix included) for the request to out.
void encode_request(const StoreRequest& req, std::vector<uint8_t>& out);
// Decodes one request from the front of [data, data + size). nullopt when the
// frame is not complete yet; otherwise *consumed is the frame's length.
// Raises ember::Error on a malformed frame.
std::optional<StoreRequest> decode_request(const uint8_t* data, size_t size, size_t* consumed);

// Replies: a frame whose payload is the status byte and then either bytes
// (GET, COMPARE_SET, error text), an i64 (ADD, NUM_KEYS) or a bool byte
// (DELETE_KEY, CHECK; WAIT replies with no result).
void encode_reply_bytes(const std::vector<uint8_t>& bytes, std::vector<uint8_t>& out, bool error = false);
void encode_reply_int(int64_t v, std::vector<uint8_t>& out);
void encode_reply_bool(bool v, std::vector<uint8_t>& out);
void encode_reply_empty(std::vector<uint8_t>& out);

// A bounds-checked reader over one payload.
class FrameReader {
 public:
  FrameReader(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
  uint8_t u8();
  uint32_t u32();
  int64_t i64();
  std::vector<uint8_t> bytes();
  std::string str();
  void expect_end() const;
  bool at_end() const { return p_ == end_; }

 private:
  void need(size_t n) const;
  const uint8_t* p_;
  const uint8_t* end_;
};

// Reads a u32 frame length from 4 bytes, checking it against kMaxFrameBytes.
uint32_t frame_length(const uint8_t* four_bytes);

}  // namespace torch::distributed::store_detail
