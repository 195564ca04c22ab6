#include "ember/distributed/store/store_frame.h"

#include <cstring>

#include "ember/core/error.h"

namespace torch::distributed::store_detail {
namespace {

void put_u32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void put_i64(std::vector<uint8_t>& out, int64_t v) {
  auto u = static_cast<uint64_t>(v);
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(u >> (8 * i)));
}
void put_bytes(std::vector<uint8_t>& out, const void* p, size_t n) {
  EMBER_CHECK(n <= kMaxFrameBytes, "TCPStore: a key or value of ", n, " bytes exceeds the frame limit of ",
              kMaxFrameBytes);
  put_u32(out, static_cast<uint32_t>(n));
  const auto* b = static_cast<const uint8_t*>(p);
  out.insert(out.end(), b, b + n);
}

// Writes the length prefix once the payload after `start` is complete.
class FrameScope {
 public:
  explicit FrameScope(std::vector<uint8_t>& out) : out_(out), start_(out.size()) { put_u32(out, 0); }
  ~FrameScope() = default;
  void finish() {
    size_t n = out_.size() - start_ - 4;
    EMBER_CHECK(n <= kMaxFrameBytes, "TCPStore: a message of ", n, " bytes exceeds the frame limit of ",
                kMaxFrameBytes);
    for (int i = 0; i < 4; ++i) out_[start_ + i] = static_cast<uint8_t>(n >> (8 * i));
  }

 private:
  std::vector<uint8_t>& out_;
  size_t start_;
};

bool valid_op(uint8_t op) { return op >= uint8_t(StoreOp::SET) && op <= uint8_t(StoreOp::WAIT); }

}  // namespace

void FrameReader::need(size_t n) const {
  EMBER_CHECK(static_cast<size_t>(end_ - p_) >= n, "TCPStore: malformed frame: a field needs ", n, " bytes but only ",
              end_ - p_, " remain");
}
uint8_t FrameReader::u8() {
  need(1);
  return *p_++;
}
uint32_t FrameReader::u32() {
  need(4);
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t(p_[i]) << (8 * i);
  p_ += 4;
  return v;
}
int64_t FrameReader::i64() {
  need(8);
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(p_[i]) << (8 * i);
  p_ += 8;
  return static_cast<int64_t>(v);
}
std::vector<uint8_t> FrameReader::bytes() {
  uint32_t n = u32();
  need(n);
  std::vector<uint8_t> v(p_, p_ + n);
  p_ += n;
  return v;
}
std::string FrameReader::str() {
  uint32_t n = u32();
  need(n);
  std::string s(reinterpret_cast<const char*>(p_), n);
  p_ += n;
  return s;
}
void FrameReader::expect_end() const {
  EMBER_CHECK(p_ == end_, "TCPStore: malformed frame: ", end_ - p_, " trailing bytes");
}

uint32_t frame_length(const uint8_t* b) {
  uint32_t n = uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
  EMBER_CHECK(n <= kMaxFrameBytes, "TCPStore: malformed frame: length ", n, " exceeds the limit of ", kMaxFrameBytes);
  return n;
}

void encode_request(const StoreRequest& req, std::vector<uint8_t>& out) {
  FrameScope frame(out);
  out.push_back(static_cast<uint8_t>(req.op));
  switch (req.op) {
    case StoreOp::SET:
      put_bytes(out, req.keys.at(0).data(), req.keys[0].size());
      put_bytes(out, req.value.data(), req.value.size());
      break;
    case StoreOp::GET:
    case StoreOp::DELETE_KEY:
      put_bytes(out, req.keys.at(0).data(), req.keys[0].size());
      break;
    case StoreOp::ADD:
      put_bytes(out, req.keys.at(0).data(), req.keys[0].size());
      put_i64(out, req.amount);
      break;
    case StoreOp::COMPARE_SET:
      put_bytes(out, req.keys.at(0).data(), req.keys[0].size());
      put_bytes(out, req.value.data(), req.value.size());
      put_bytes(out, req.desired.data(), req.desired.size());
      break;
    case StoreOp::NUM_KEYS:
      break;
    case StoreOp::CHECK:
    case StoreOp::WAIT:
      EMBER_CHECK(req.keys.size() <= kMaxKeysPerRequest, "TCPStore: ", req.keys.size(),
                  " keys in one request exceed the limit of ", kMaxKeysPerRequest);
      put_u32(out, static_cast<uint32_t>(req.keys.size()));
      for (const auto& k : req.keys) put_bytes(out, k.data(), k.size());
      break;
  }
  frame.finish();
}

std::optional<StoreRequest> decode_request(const uint8_t* data, size_t size, size_t* consumed) {
  if (size < 4) return std::nullopt;
  uint32_t n = frame_length(data);
  if (size - 4 < n) return std::nullopt;
  FrameReader r(data + 4, n);
  uint8_t op = r.u8();
  EMBER_CHECK(valid_op(op), "TCPStore: malformed frame: unknown opcode ", int(op));
  StoreRequest req;
  req.op = static_cast<StoreOp>(op);
  switch (req.op) {
    case StoreOp::SET:
      req.keys.push_back(r.str());
      req.value = r.bytes();
      break;
    case StoreOp::GET:
    case StoreOp::DELETE_KEY:
      req.keys.push_back(r.str());
      break;
    case StoreOp::ADD:
      req.keys.push_back(r.str());
      req.amount = r.i64();
      break;
    case StoreOp::COMPARE_SET:
      req.keys.push_back(r.str());
      req.value = r.bytes();
      req.desired = r.bytes();
      break;
    case StoreOp::NUM_KEYS:
      break;
    case StoreOp::CHECK:
    case StoreOp::WAIT: {
      uint32_t k = r.u32();
      // Each key takes at least its 4-byte length: a count the payload cannot hold is a lie.
      EMBER_CHECK(k <= kMaxKeysPerRequest && k <= (n - 5) / 4, "TCPStore: malformed frame: ", k, " keys do not fit in ",
                  n, " bytes");
      req.keys.reserve(k);
      for (uint32_t i = 0; i < k; ++i) req.keys.push_back(r.str());
      break;
    }
  }
  r.expect_end();
  *consumed = 4 + size_t(n);
  return req;
}

void encode_reply_bytes(const std::vector<uint8_t>& bytes, std::vector<uint8_t>& out, bool error) {
  FrameScope frame(out);
  out.push_back(error ? 1 : 0);
  put_bytes(out, bytes.data(), bytes.size());
  frame.finish();
}
void encode_reply_int(int64_t v, std::vector<uint8_t>& out) {
  FrameScope frame(out);
  out.push_back(0);
  put_i64(out, v);
  frame.finish();
}
void encode_reply_bool(bool v, std::vector<uint8_t>& out) {
  FrameScope frame(out);
  out.push_back(0);
  out.push_back(v ? 1 : 0);
  frame.finish();
}
void encode_reply_empty(std::vector<uint8_t>& out) {
  FrameScope frame(out);
  out.push_back(0);
  frame.finish();
}

}  // namespace torch::distributed::store_detail
