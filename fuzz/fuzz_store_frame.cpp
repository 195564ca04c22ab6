// libFuzzer target: the TCP store's frame decoder (Note [Store frames]) on
// arbitrary bytes, as the server reads them from a connection: requests are
// decoded from the front until one is incomplete or malformed, and each decoded
// request is encoded again and must decode to itself.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "ember/core/error.h"
#include "ember/distributed/store/store_frame.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace sd = ember::distributed::store_detail;
  size_t at = 0;
  try {
    while (at < size) {
      size_t used = 0;
      auto req = sd::decode_request(data + at, size - at, &used);
      if (!req) break;
      if (used == 0 || used > size - at) std::abort();  // the decoder must consume a frame within the bytes
      at += used;
      std::vector<uint8_t> again;
      sd::encode_request(*req, again);
      size_t used2 = 0;
      auto back = sd::decode_request(again.data(), again.size(), &used2);
      if (!back || used2 != again.size() || back->op != req->op || back->keys != req->keys ||
          back->value != req->value || back->desired != req->desired || back->amount != req->amount)
        std::abort();
    }
  } catch (const ember::Error&) {
  }
  // Replies go through the same reader.
  try {
    sd::FrameReader r(data, size);
    (void)r.u8();
    (void)r.bytes();
    (void)r.i64();
  } catch (const ember::Error&) {
  }
  return 0;
}
