// libFuzzer target: InputArchive (torch::serialize's reader, a safetensors file
// whose __metadata__ carries typed values) on arbitrary bytes. Every key that
// loads is read back as a tensor, a value and a nested archive, as module and
// optimizer loading do.
#include <cstddef>
#include <cstdint>
#include <string>

#include "ember/core/error.h"
#include "ember/serialize/archive.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ember::serialize;
  InputArchive archive;
  try {
    archive.load_from(reinterpret_cast<const char*>(data), size);
  } catch (const ember::Error&) {
    return 0;
  }
  for (const std::string& key : archive.keys()) {
    try {
      ember::Tensor t;
      if (archive.try_read(key, t)) (void)t.contiguous();
      ember::IValue v;
      (void)archive.try_read(key, v);
      const size_t dot = key.find('.');
      InputArchive nested;
      if (dot != std::string::npos && archive.try_read(key.substr(0, dot), nested)) (void)nested.keys();
    } catch (const ember::Error&) {
    }
  }
  return 0;
}
