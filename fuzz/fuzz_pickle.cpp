// libFuzzer target: the restricted unpickler and the flattening of its graph on
// arbitrary bytes, with a storage loader that serves any (small) storage.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"
#include "ember/serialize/pickle_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ember::serialize;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const StorageLoader loader = [](const std::string& key, ember::ScalarType dtype, int64_t numel) {
    EMBER_CHECK(numel <= (1 << 16), "fuzz: storage too large");
    return ember::zeros({numel}, ember::TensorOptions().dtype(dtype));
  };
  try {
    const PickleGraph g = unpickle(bytes, loader, "fuzz");
    const NamedTensors t = flatten_tensors(g, "fuzz");
    for (const auto& [name, tensor] : t) (void)tensor.contiguous();  // touches every element of every view
  } catch (const ember::Error&) {
  }
  return 0;
}
