// libFuzzer target: Tokenizer::from_buffer (a Hugging Face tokenizer.json) on
// arbitrary bytes, then the encode / decode path on arbitrary text. The input
// is the JSON, a NUL byte, and the text (JSON text cannot hold a raw NUL); a
// tokenizer that loads encodes the text as a single sequence and as a pair,
// with truncation and padding, and decodes the ids it produced.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "ember/core/error.h"
#include "ember/text/tokenizers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using ember::text::tokenizers::Tokenizer;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  size_t nul = bytes.find('\0');
  std::string_view json = bytes.substr(0, nul);
  std::string_view text = nul == std::string_view::npos ? std::string_view("Hello, world! \xF0\x9F\x98\x80 caf\xC3\xA9")
                                                        : bytes.substr(nul + 1);
  try {
    Tokenizer tok = Tokenizer::from_buffer(json);
    auto e = tok.encode(text);
    (void)tok.decode(e.ids(), true);
    (void)tok.decode(e.ids(), false);
    auto p = tok.encode(text, text.substr(0, text.size() / 2), true);
    tok.enable_truncation(7, 2);
    tok.enable_padding("left", 0, 0, "[PAD]", std::nullopt, 4);
    auto t = tok.encode(text);
    (void)tok.decode(t.ids(), false);
    for (const auto& o : t.overflowing()) (void)o.ids();
  } catch (const ember::Error&) {
  }
  return 0;
}
