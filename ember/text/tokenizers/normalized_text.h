#pragma once
// Text on its way through a tokenizer: valid UTF-8 plus, for every byte, the
// range of code points of the original input it came from, so every token's
// offsets are reported in code points of the input however the normalizer
// changed the text (the tokenizers package's NormalizedString alignments).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ember/core/namespace.h"

namespace torch::text::tokenizers::detail {

struct NormalizedText {
  std::string text;
  std::vector<uint32_t> begin, end;  // per byte of text: original [begin, end) in code points

  // `s` is valid UTF-8 whose first code point is number `first_char` of the input.
  static NormalizedText identity(std::string_view s, uint32_t first_char);
  void append(std::string_view bytes, uint32_t b, uint32_t e) {
    text.append(bytes);
    for (size_t i = 0; i < bytes.size(); ++i) {
      begin.push_back(b);
      end.push_back(e);
    }
  }
  void clear() {
    text.clear();
    begin.clear();
    end.clear();
  }
};

// A byte range [begin, end) of a NormalizedText: one pre-token ("word").
struct Span {
  uint32_t begin, end;
};

// A piece of the input: [begin, end) bytes; token >= 0 when it is an added token.
struct Segment {
  uint32_t begin, end;
  int64_t token;
};

}  // namespace torch::text::tokenizers::detail
