// libFuzzer target: the ARPA n-gram reader of ctc_decoder's language model
// (ember/audio/models/decoder/arpa_lm.cpp) on arbitrary text, and scoring a
// few words with each model it accepts. Anything malformed must raise
// ember::Error; a model it accepts must score finitely or at -inf.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ember/audio/models/decoder/arpa_lm.h"
#include "ember/core/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace D = ::torch::audio::models::decoder::detail;
  try {
    D::ArpaModel model = D::ArpaModel::parse(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
    D::ArpaLM lm(std::move(model), {"a", "b", "<unk>", "</s>", "zz"});
    auto state = lm.start(false);
    for (int64_t w : {0, 1, 4, 0, 2, 3}) {
      auto [next, s] = lm.score(state, w);
      if (std::isnan(s)) __builtin_trap();
      state = next;
    }
    (void)lm.finish(state);
  } catch (const ember::Error&) {
  }
  return 0;
}
