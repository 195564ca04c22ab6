// libFuzzer target: ember::audio::load and info (libsndfile behind Ember's
// header checks, Note [Untrusted frame counts] and Note [Lying WAV headers])
// on arbitrary bytes, read from memory through libsndfile's virtual IO: the
// whole file, normalised and not, and a window of it.
#include <cstddef>
#include <cstdint>

#include "ember/audio/io/info.h"
#include "ember/audio/io/load.h"
#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"

// libsndfile's Ogg/Vorbis opener leaks the vorbis_info it allocated when a
// file turns out malformed (libsndfile 1.2.0, ogg_vorbis.c's error path; the
// handle never reaches Ember, which closes every one it gets). Not Ember's
// leak, so the leak checker skips that one allocation site.
extern "C" const char* __lsan_default_suppressions() { return "leak:vorbis_info_init\n"; }
extern "C" const char* __lsan_default_options() { return "print_suppressions=0"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // from_blob does not copy or own: the bytes outlive every call below.
  ember::Tensor bytes =
      ember::from_blob(const_cast<uint8_t*>(data), {static_cast<int64_t>(size)}, ember::TensorOptions(ember::kUInt8));
  try {
    (void)ember::audio::info(bytes);
  } catch (const ember::Error&) {
  }
  try {
    auto [wave, rate] = ember::audio::load(bytes);
    if (wave.dim() != 2 || rate <= 0) __builtin_trap();
  } catch (const ember::Error&) {
  }
  try {
    (void)ember::audio::load(bytes, 3, 17, false, false);
  } catch (const ember::Error&) {
  }
  return 0;
}
