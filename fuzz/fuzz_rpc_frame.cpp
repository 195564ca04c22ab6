// libFuzzer target: the RPC frame reader (Note [RPC frames]) on arbitrary
// bytes, as a worker reads them from a connection: frames are parsed from the
// front — header, then the payload Object — until one is incomplete or
// malformed; each decoded payload must encode to bytes that decode and
// re-encode to themselves.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "ember/core/error.h"
#include "ember/distributed/object.h"
#include "ember/distributed/rpc/frame.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace rd = ember::distributed::rpc::detail;
  namespace dist = ember::distributed;
  size_t at = 0;
  try {
    while (at < size) {
      auto h = rd::parse_header(data + at, size - at);
      if (!h) break;
      if (h->length > rd::kMaxPayloadBytes) std::abort();  // parse_header must refuse it
      at += rd::kHeaderBytes;
      if (h->length > size - at) break;  // the rest has not arrived
      dist::Object obj = dist::decode_object(data + at, static_cast<size_t>(h->length));
      at += static_cast<size_t>(h->length);
      auto once = dist::encode_object(obj);
      auto twice = dist::encode_object(dist::decode_object(once));
      if (once != twice) std::abort();
      uint8_t head[rd::kHeaderBytes];
      rd::encode_header(*h, head);
      auto back = rd::parse_header(head, sizeof head);
      if (!back || back->type != h->type || back->id != h->id || back->length != h->length) std::abort();
    }
  } catch (const ember::Error&) {
  }
  return 0;
}
