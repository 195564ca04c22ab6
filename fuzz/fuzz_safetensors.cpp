// libFuzzer target: the safetensors reader on arbitrary bytes. Malformed input
// must raise ember::Error; anything else (crash, sanitizer report, another
// exception type) is a finding. A file that loads must survive a round trip.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ember/core/error.h"
#include "ember/serialize/safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ember::serialize;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  SafetensorsContents c;
  try {
    c = load_safetensors_from_buffer(bytes, "fuzz");
  } catch (const ember::Error&) {
    return 0;
  }
  const SafetensorsContents again = load_safetensors_from_buffer(save_safetensors_to_buffer(c.tensors, c.metadata));
  if (again.tensors.size() != c.tensors.size() || again.metadata != c.metadata) __builtin_trap();
  return 0;
}
