// libFuzzer target: the whole .pt reader (zip archives through libzip, and the
// legacy pickle-stream format) on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ember/core/error.h"
#include "ember/serialize/pt_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ember::serialize;
  try {
    const NamedTensors t =
        load_pytorch_state_dict_from_buffer(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
    for (const auto& [name, tensor] : t) (void)tensor.contiguous();
  } catch (const ember::Error&) {
  }
  return 0;
}
