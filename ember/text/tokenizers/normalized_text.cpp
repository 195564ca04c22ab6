#include "ember/text/tokenizers/normalized_text.h"

#include "ember/text/unicode.h"

namespace torch::text::tokenizers::detail {

NormalizedText NormalizedText::identity(std::string_view s, uint32_t first_char) {
  NormalizedText t;
  t.text.assign(s);
  t.begin.resize(s.size());
  t.end.resize(s.size());
  uint32_t c = first_char;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i > 0 && !text::detail::is_continuation_byte(static_cast<unsigned char>(s[i]))) ++c;
    t.begin[i] = c;
    t.end[i] = c + 1;
  }
  return t;
}

}  // namespace torch::text::tokenizers::detail
