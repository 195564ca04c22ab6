// libFuzzer target: SentencePieceProcessor::load_from_serialized_proto (a
// SentencePiece .model, protobuf) on arbitrary bytes, then encode / decode on
// arbitrary text. The input is a 2-byte little-endian text length, the text,
// and the model bytes (a .model may hold any byte, so no separator works).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ember/core/error.h"
#include "ember/text/sentencepiece.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using ember::text::sentencepiece::SentencePieceProcessor;
  if (size < 2) return 0;
  const size_t text_size = std::min<size_t>(size - 2, data[0] | (data[1] << 8));
  std::string_view bytes(reinterpret_cast<const char*>(data) + 2, size - 2);
  const std::string_view text = bytes.substr(0, text_size);
  const std::string_view model = bytes.substr(text_size);
  try {
    SentencePieceProcessor sp;
    sp.load_from_serialized_proto(model);
    const auto ids = sp.encode_as_ids(text, true, true, true);
    const auto pieces = sp.encode_as_pieces(text, false, false, false, true);
    std::vector<int64_t> valid;
    for (const int64_t id : ids)
      if (id >= 0) valid.push_back(id);
    (void)sp.decode_ids(valid);
    (void)sp.decode_pieces(pieces);
    (void)sp.decode_pieces(sp.encode_as_pieces(text));
    for (int64_t id = 0; id < sp.get_piece_size() && id < 64; ++id) {
      (void)sp.decode_ids({id, id});
      (void)sp.is_byte(id);
    }
  } catch (const ember::Error&) {
  }
  return 0;
}
