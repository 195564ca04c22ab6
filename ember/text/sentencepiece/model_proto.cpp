#include "ember/text/sentencepiece/model_proto.h"

#include <cstring>

#include "ember/core/error.h"

namespace torch::text::sentencepiece::detail {

// Note [Own protobuf reader]
// A .model file is one ModelProto of a handful of scalar, string and nested
// message fields. Reading the wire format directly (varints, fixed32 and
// length-delimited fields, every length checked against the bytes left) is a
// hundred lines, needs no generated code or protobuf runtime version match,
// and keeps the untrusted-input surface small enough to fuzz. Semantics follow
// protobuf's parser: the last value of a repeated scalar wins, a repeated
// nested message merges, unknown fields (and known fields of an unexpected
// wire type) are skipped, and an unknown enum value leaves the default.

namespace {

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

class WireReader {
 public:
  WireReader(std::string_view bytes, const std::string& what)
      : p_(bytes.data()), end_(p_ + bytes.size()), what_(what) {}

  bool done() const { return p_ == end_; }

  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      EMBER_CHECK(p_ < end_, "SentencePieceProcessor: ", what_, " is not a valid model file (truncated varint)");
      const auto b = static_cast<unsigned char>(*p_++);
      if (shift < 64) v |= static_cast<uint64_t>(b & 0x7F) << shift;
      if ((b & 0x80) == 0) return v;
    }
    EMBER_ERROR("SentencePieceProcessor: ", what_, " is not a valid model file (varint longer than 10 bytes)");
    return 0;
  }

  uint32_t fixed32() {
    EMBER_CHECK(end_ - p_ >= 4, "SentencePieceProcessor: ", what_, " is not a valid model file (truncated fixed32)");
    const auto* u = reinterpret_cast<const unsigned char*>(p_);
    p_ += 4;
    return u[0] | (u[1] << 8) | (u[2] << 16) | (static_cast<uint32_t>(u[3]) << 24);
  }

  std::string_view bytes() {
    const uint64_t n = varint();
    EMBER_CHECK(n <= static_cast<uint64_t>(end_ - p_), "SentencePieceProcessor: ", what_,
                " is not a valid model file (a field claims ", n, " bytes, ", end_ - p_, " remain)");
    std::string_view s(p_, n);
    p_ += n;
    return s;
  }

  void skip(uint32_t wire_type) {
    switch (wire_type) {
      case kVarint:
        varint();
        return;
      case kFixed64:
        EMBER_CHECK(end_ - p_ >= 8, "SentencePieceProcessor: ", what_,
                    " is not a valid model file (truncated fixed64)");
        p_ += 8;
        return;
      case kLengthDelimited:
        bytes();
        return;
      case kFixed32:
        fixed32();
        return;
      default:
        EMBER_ERROR("SentencePieceProcessor: ", what_, " is not a valid model file (wire type ", wire_type, ")");
    }
  }

  // Reads a tag: field number and wire type.
  std::pair<uint32_t, uint32_t> tag() {
    const uint64_t t = varint();
    const uint64_t field = t >> 3;
    EMBER_CHECK(field != 0 && field < (1u << 29), "SentencePieceProcessor: ", what_,
                " is not a valid model file (field number ", field, ")");
    return {static_cast<uint32_t>(field), static_cast<uint32_t>(t & 7)};
  }

  const std::string& what() const { return what_; }

 private:
  const char* p_;
  const char* end_;
  const std::string& what_;
};

// Reads fields of one message, calling on_field(r, field, wire_type) which
// returns false to have the field skipped.
template <typename F>
void read_message(std::string_view bytes, const std::string& what, int depth, F&& on_field) {
  EMBER_CHECK(depth < 8, "SentencePieceProcessor: ", what, " is not a valid model file (nesting too deep)");
  WireReader r(bytes, what);
  while (!r.done()) {
    auto [field, wire] = r.tag();
    if (!on_field(r, field, wire)) r.skip(wire);
  }
}

void read_piece(std::string_view bytes, const std::string& what, PieceProto& p) {
  read_message(bytes, what, 2, [&](WireReader& r, uint32_t field, uint32_t wire) {
    if (field == 1 && wire == kLengthDelimited) {
      p.piece = std::string(r.bytes());
    } else if (field == 2 && wire == kFixed32) {
      const uint32_t u = r.fixed32();
      std::memcpy(&p.score, &u, sizeof u);
    } else if (field == 3 && wire == kVarint) {
      const auto v = static_cast<int32_t>(r.varint());
      if (v >= 1 && v <= 6) p.type = static_cast<PieceType>(v);
    } else {
      return false;
    }
    return true;
  });
}

void read_trainer_spec(std::string_view bytes, const std::string& what, TrainerSpecProto& t) {
  read_message(bytes, what, 1, [&](WireReader& r, uint32_t field, uint32_t wire) {
    if (wire == kVarint && (field == 3 || field == 24 || field == 35)) {
      const uint64_t v = r.varint();
      if (field == 3) {
        const auto m = static_cast<int32_t>(v);
        if (m >= 1 && m <= 4) t.model_type = static_cast<ModelType>(m);
      } else if (field == 24) {
        t.treat_whitespace_as_suffix = v != 0;
      } else {
        t.byte_fallback = v != 0;
      }
      return true;
    }
    if (wire == kLengthDelimited && field >= 44 && field <= 48) {
      std::string s(r.bytes());
      switch (field) {
        case 44:
          t.unk_surface = std::move(s);
          break;
        case 45:
          t.unk_piece = std::move(s);
          break;
        case 46:
          t.bos_piece = std::move(s);
          break;
        case 47:
          t.eos_piece = std::move(s);
          break;
        default:
          t.pad_piece = std::move(s);
          break;
      }
      return true;
    }
    return false;
  });
}

void read_normalizer_spec(std::string_view bytes, const std::string& what, NormalizerSpecProto& n) {
  read_message(bytes, what, 1, [&](WireReader& r, uint32_t field, uint32_t wire) {
    if (wire == kLengthDelimited && (field == 1 || field == 2)) {
      (field == 1 ? n.name : n.precompiled_charsmap) = std::string(r.bytes());
      return true;
    }
    if (wire == kVarint && field >= 3 && field <= 5) {
      const bool v = r.varint() != 0;
      (field == 3 ? n.add_dummy_prefix : field == 4 ? n.remove_extra_whitespaces : n.escape_whitespaces) = v;
      return true;
    }
    return false;
  });
}

}  // namespace

ModelProto parse_model_proto(std::string_view bytes, const std::string& what) {
  ModelProto m;
  read_message(bytes, what, 0, [&](WireReader& r, uint32_t field, uint32_t wire) {
    if (wire != kLengthDelimited) return false;
    switch (field) {
      case 1:
        read_piece(r.bytes(), what, m.pieces.emplace_back());
        return true;
      case 2:
        read_trainer_spec(r.bytes(), what, m.trainer_spec);
        return true;
      case 3:
        read_normalizer_spec(r.bytes(), what, m.normalizer_spec);
        return true;
      case 5:
        if (!m.denormalizer_spec) m.denormalizer_spec.emplace();
        read_normalizer_spec(r.bytes(), what, *m.denormalizer_spec);
        return true;
      default:
        return false;
    }
  });
  return m;
}

}  // namespace torch::text::sentencepiece::detail
