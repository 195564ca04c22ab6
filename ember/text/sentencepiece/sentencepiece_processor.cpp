#include "ember/text/sentencepiece/sentencepiece_processor.h"

#include <algorithm>
#include <array>
#include <exception>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>

#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/text/sentencepiece/model_proto.h"
#include "ember/text/sentencepiece/normalizer.h"
#include "ember/text/sentencepiece/segmenters.h"

namespace torch::text::sentencepiece {

namespace detail {

// What encoding reuses from one text to the next: buffers and the word cache.
struct Scratch {
  std::string normalized;
  std::vector<Segment> segments;
  Workspace segmenter;
};

// Everything a loaded model needs, immutable once built (so copies of a
// processor share it and threads may encode concurrently).
struct ProcessorState {
  ProcessorState(ModelProto proto, const std::string& what)
      : trainer(proto.trainer_spec),
        normalizer_spec(proto.normalizer_spec),
        vocab(std::move(proto.pieces), trainer, what),
        normalizer(normalizer_spec, trainer.treat_whitespace_as_suffix, &vocab.user_defined(), what),
        segmenter(vocab, trainer.model_type, trainer.treat_whitespace_as_suffix) {
    if (proto.denormalizer_spec && !proto.denormalizer_spec->precompiled_charsmap.empty())
      denormalizer.emplace(*proto.denormalizer_spec, false, nullptr, what);
    static constexpr char kHex[] = "0123456789ABCDEF";
    for (int b = 0; b < 256; ++b) {
      const std::string piece = std::string("<0x") + kHex[b >> 4] + kHex[b & 15] + ">";
      byte_ids[static_cast<size_t>(b)] = vocab.piece_to_id(piece);
    }
    piece_bytes.assign(static_cast<size_t>(vocab.size()), -1);
    for (int32_t id = 0; id < vocab.size(); ++id) {
      const std::string& p = vocab.proto(id).piece;
      if (p.size() == 6 && p.compare(0, 3, "<0x") == 0 && p[5] == '>') {
        auto hex = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1; };
        const int hi = hex(p[3]), lo = hex(p[4]);
        if (hi >= 0 && lo >= 0) piece_bytes[static_cast<size_t>(id)] = hi * 16 + lo;
      }
    }
    unk_id = special_id(trainer.unk_piece, PieceType::UNKNOWN);
    bos_id = special_id(trainer.bos_piece, PieceType::CONTROL);
    eos_id = special_id(trainer.eos_piece, PieceType::CONTROL);
    pad_id = special_id(trainer.pad_piece, PieceType::CONTROL);
  }

  int32_t special_id(const std::string& piece, PieceType type) const {
    const int32_t id = vocab.piece_to_id(piece);
    return vocab.type(id) == type ? id : -1;
  }

  TrainerSpecProto trainer;
  NormalizerSpecProto normalizer_spec;
  Vocabulary vocab;
  Normalizer normalizer;
  std::optional<Normalizer> denormalizer;
  Segmenter segmenter;
  std::array<int32_t, 256> byte_ids{};
  std::vector<int> piece_bytes;  // the byte "<0xXX>" spells, or -1
  int32_t unk_id = -1, bos_id = -1, eos_id = -1, pad_id = -1;

  // One workspace for single-text calls; a concurrent caller that finds it
  // busy uses a fresh one (same output), batch workers bring their own.
  mutable std::mutex workspace_mutex;
  mutable Scratch workspace;
};

}  // namespace detail

namespace {

using detail::PieceType;
using detail::ProcessorState;
using detail::Scratch;
using detail::Segment;

// Runs f(scratch) with the state's workspace, or a fresh one when another
// thread holds it.
template <typename F>
auto with_scratch(const ProcessorState& st, F&& f) {
  std::unique_lock<std::mutex> lock(st.workspace_mutex, std::try_to_lock);
  if (lock.owns_lock()) return f(st.workspace);
  Scratch local;
  return f(local);
}

// sentencepiece's PopulateSentencePieceText without the surfaces: calls
// emit(id, piece, extends_previous) per output piece; a run of unknowns is
// one piece (extends_previous), or with byte fallback one byte piece per
// UTF-8 byte.
template <typename Emit>
void encode_pieces(const ProcessorState& st, std::string_view input, Scratch& s, Emit&& emit) {
  st.normalizer.normalize(input, s.normalized, nullptr);
  s.segments.clear();
  st.segmenter.encode(s.normalized, s.segments, s.segmenter);
  const bool byte_fallback = st.trainer.byte_fallback;
  bool is_prev_unk = false;
  for (const auto& [w, id] : s.segments) {
    const bool is_unk = st.vocab.type(id) == PieceType::UNKNOWN;
    if (is_unk && byte_fallback) {
      for (const char c : w) emit(st.byte_ids[static_cast<unsigned char>(c)], std::string_view(), false, c);
    } else {
      emit(id, w, is_prev_unk && is_unk, '\0');
    }
    is_prev_unk = is_unk;
  }
}

std::string byte_piece(char c) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  const auto b = static_cast<unsigned char>(c);
  return std::string("<0x") + kHex[b >> 4] + kHex[b & 15] + ">";
}

template <typename T>
void add_extras(std::vector<T>& out, bool add_bos, bool add_eos, bool reverse, const T& bos, const T& eos) {
  if (reverse) std::reverse(out.begin(), out.end());
  if (add_bos) out.insert(out.begin(), bos);
  if (add_eos) out.push_back(eos);
}

std::string read_model_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  EMBER_CHECK(f.good(), "SentencePieceProcessor: cannot open model file ", path);
  std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EMBER_CHECK(!f.bad(), "SentencePieceProcessor: cannot read model file ", path);
  return bytes;
}

}  // namespace

SentencePieceProcessor::SentencePieceProcessor() = default;
SentencePieceProcessor::SentencePieceProcessor(const std::string& model_file) { load(model_file); }
SentencePieceProcessor::~SentencePieceProcessor() = default;
SentencePieceProcessor::SentencePieceProcessor(const SentencePieceProcessor&) = default;
SentencePieceProcessor& SentencePieceProcessor::operator=(const SentencePieceProcessor&) = default;
SentencePieceProcessor::SentencePieceProcessor(SentencePieceProcessor&&) noexcept = default;
SentencePieceProcessor& SentencePieceProcessor::operator=(SentencePieceProcessor&&) noexcept = default;

void SentencePieceProcessor::load(const std::string& model_file) {
  const std::string bytes = read_model_file(model_file);
  state_ = std::make_shared<const ProcessorState>(detail::parse_model_proto(bytes, model_file), model_file);
}

void SentencePieceProcessor::load_from_serialized_proto(std::string_view serialized) {
  const std::string what = "serialized model";
  state_ = std::make_shared<const ProcessorState>(detail::parse_model_proto(serialized, what), what);
}

const ProcessorState& SentencePieceProcessor::state(const char* fn) const {
  EMBER_CHECK(state_ != nullptr, "SentencePieceProcessor.", fn, ": no model is loaded");
  return *state_;
}

std::vector<int64_t> SentencePieceProcessor::encode(std::string_view input, bool add_bos, bool add_eos,
                                                    bool reverse) const {
  return encode_as_ids(input, add_bos, add_eos, reverse);
}

namespace {

std::vector<int64_t> ids_of(const ProcessorState& st, std::string_view input, Scratch& scratch, bool add_bos,
                            bool add_eos, bool reverse) {
  std::vector<int64_t> ids;
  encode_pieces(st, input, scratch, [&](int32_t id, std::string_view, bool extends_previous, char) {
    if (!extends_previous) ids.push_back(id);
  });
  // The Python wrapper adds bos_id()/eos_id() even when they are -1.
  add_extras<int64_t>(ids, add_bos, add_eos, reverse, st.bos_id, st.eos_id);
  return ids;
}

std::vector<std::string> pieces_of(const ProcessorState& st, std::string_view input, Scratch& scratch, bool add_bos,
                                   bool add_eos, bool reverse, bool emit_unk_piece) {
  std::vector<std::string> pieces;
  std::vector<int32_t> ids;
  encode_pieces(st, input, scratch, [&](int32_t id, std::string_view w, bool extends_previous, char byte) {
    if (extends_previous) {
      pieces.back().append(w);
    } else {
      pieces.emplace_back(w.empty() ? byte_piece(byte) : std::string(w));
      ids.push_back(id);
    }
  });
  if (emit_unk_piece)
    for (size_t i = 0; i < pieces.size(); ++i)
      if (st.vocab.type(ids[i]) == PieceType::UNKNOWN) pieces[i] = st.vocab.proto(st.vocab.unk_id()).piece;
  add_extras<std::string>(pieces, add_bos, add_eos, reverse, st.trainer.bos_piece, st.trainer.eos_piece);
  return pieces;
}

// f(input, scratch) for every input on the intra-op threads, one scratch per chunk.
template <typename Out, typename F>
std::vector<Out> parallel_map(const std::vector<std::string>& inputs, const F& f) {
  std::vector<Out> out(inputs.size());
  std::exception_ptr error;
  std::mutex error_mutex;
  torch::parallel_for(0, static_cast<int64_t>(inputs.size()), 1, [&](int64_t begin, int64_t end) {
    try {
      Scratch scratch;
      for (int64_t i = begin; i < end; ++i) out[static_cast<size_t>(i)] = f(inputs[static_cast<size_t>(i)], scratch);
    } catch (...) {
      std::lock_guard<std::mutex> g(error_mutex);
      if (!error) error = std::current_exception();
    }
  });
  if (error) std::rethrow_exception(error);
  return out;
}

}  // namespace

std::vector<int64_t> SentencePieceProcessor::encode_as_ids(std::string_view input, bool add_bos, bool add_eos,
                                                           bool reverse) const {
  const ProcessorState& st = state("encode_as_ids");
  return with_scratch(st, [&](Scratch& s) { return ids_of(st, input, s, add_bos, add_eos, reverse); });
}

std::vector<std::string> SentencePieceProcessor::encode_as_pieces(std::string_view input, bool add_bos, bool add_eos,
                                                                  bool reverse, bool emit_unk_piece) const {
  const ProcessorState& st = state("encode_as_pieces");
  return with_scratch(st,
                      [&](Scratch& s) { return pieces_of(st, input, s, add_bos, add_eos, reverse, emit_unk_piece); });
}

std::vector<std::vector<int64_t>> SentencePieceProcessor::encode(const std::vector<std::string>& inputs) const {
  return encode_as_ids(inputs);
}

std::vector<std::vector<int64_t>> SentencePieceProcessor::encode_as_ids(const std::vector<std::string>& inputs) const {
  const ProcessorState& st = state("encode_as_ids");
  return parallel_map<std::vector<int64_t>>(
      inputs, [&](const std::string& in, Scratch& s) { return ids_of(st, in, s, false, false, false); });
}

std::vector<std::vector<std::string>> SentencePieceProcessor::encode_as_pieces(
    const std::vector<std::string>& inputs) const {
  const ProcessorState& st = state("encode_as_pieces");
  return parallel_map<std::vector<std::string>>(
      inputs, [&](const std::string& in, Scratch& s) { return pieces_of(st, in, s, false, false, false, false); });
}

std::string SentencePieceProcessor::decode_ids(const std::vector<int64_t>& ids) const {
  const ProcessorState& st = state("decode_ids");
  std::vector<std::string> pieces;
  pieces.reserve(ids.size());
  for (const int64_t id : ids) {
    EMBER_CHECK(id >= 0 && id < st.vocab.size(), "SentencePieceProcessor.decode_ids: piece id ", id,
                " is out of range [0, ", st.vocab.size(), ")");
    pieces.push_back(st.vocab.proto(static_cast<int32_t>(id)).piece);
  }
  return decode_pieces(pieces);
}

// Note [SentencePiece decode]
// sentencepiece 0.1.97's Decode: control pieces vanish; an unknown id reads as
// unk_surface when the piece is the unk piece itself, else as the piece text;
// runs of byte pieces become their bytes, each malformed byte U+FFFD; while
// nothing has been written yet a leading U+2581 is dropped (when the model adds
// a dummy prefix or removes extra whitespace: all of them when it removes extra
// whitespace, else only the first); every U+2581 becomes a space.
std::string SentencePieceProcessor::decode_pieces(const std::vector<std::string>& pieces) const {
  const ProcessorState& st = state("decode_pieces");
  static constexpr std::string_view kSpaceSymbol = "\xe2\x96\x81";
  static constexpr std::string_view kReplacement = "\xef\xbf\xbd";
  const bool strip_bos_ws = st.normalizer_spec.add_dummy_prefix || st.normalizer_spec.remove_extra_whitespaces;
  std::string text;
  std::string bytes;
  auto flush_bytes = [&] {
    for (std::string_view b = bytes; !b.empty();) {
      const size_t n = detail::valid_utf8_prefix(b);
      if (n == 0) {
        text.append(kReplacement);
        b.remove_prefix(1);
      } else {
        text.append(b.substr(0, n));
        b.remove_prefix(n);
      }
    }
    bytes.clear();
  };
  bool is_bos_ws = true;  // a leading U+2581 may still be dropped
  bool bos_ws_seen = false;
  for (const std::string& w : pieces) {
    const int32_t id = st.vocab.piece_to_id(w);
    const PieceType type = st.vocab.type(id);
    if (type == PieceType::BYTE) {
      const int b = st.piece_bytes[static_cast<size_t>(id)];
      EMBER_CHECK(b >= 0, "SentencePieceProcessor.decode: byte piece \"", w, "\" does not spell a byte");
      bytes.push_back(static_cast<char>(b));
      continue;
    }
    flush_bytes();
    if (bos_ws_seen || !text.empty()) is_bos_ws = false;
    bos_ws_seen = false;
    if (type == PieceType::CONTROL) continue;
    if (type == PieceType::UNKNOWN) {
      text.append(st.vocab.proto(id).piece == w ? st.trainer.unk_surface : w);
      continue;
    }
    std::string_view piece = w;
    if (is_bos_ws && strip_bos_ws && piece.substr(0, kSpaceSymbol.size()) == kSpaceSymbol) {
      piece.remove_prefix(kSpaceSymbol.size());
      // Removing extra whitespace drops every leading U+2581, else only the first.
      bos_ws_seen = !st.normalizer_spec.remove_extra_whitespaces;
    }
    for (size_t pos = 0; pos < piece.size();) {
      const size_t hit = piece.find(kSpaceSymbol, pos);
      if (hit == std::string_view::npos) {
        text.append(piece.substr(pos));
        break;
      }
      text.append(piece.substr(pos, hit - pos));
      text.push_back(' ');
      pos = hit + kSpaceSymbol.size();
    }
  }
  flush_bytes();
  if (st.denormalizer) {
    std::string out;
    st.denormalizer->normalize(text, out, nullptr);
    return out;
  }
  return text;
}

std::string SentencePieceProcessor::decode(const std::vector<int64_t>& ids) const { return decode_ids(ids); }
std::string SentencePieceProcessor::decode(const std::vector<std::string>& pieces) const {
  return decode_pieces(pieces);
}

int64_t SentencePieceProcessor::get_piece_size() const { return state("get_piece_size").vocab.size(); }

int64_t SentencePieceProcessor::piece_to_id(std::string_view piece) const {
  return state("piece_to_id").vocab.piece_to_id(piece);
}

std::vector<int64_t> SentencePieceProcessor::piece_to_id(const std::vector<std::string>& pieces) const {
  std::vector<int64_t> out;
  out.reserve(pieces.size());
  for (const auto& p : pieces) out.push_back(piece_to_id(p));
  return out;
}

namespace {
int32_t checked_id(const ProcessorState& st, int64_t id, const char* fn) {
  EMBER_CHECK(id >= 0 && id < st.vocab.size(), "SentencePieceProcessor.", fn, ": piece id ", id,
              " is out of range [0, ", st.vocab.size(), ")");
  return static_cast<int32_t>(id);
}
}  // namespace

std::string SentencePieceProcessor::id_to_piece(int64_t id) const {
  const ProcessorState& st = state("id_to_piece");
  return st.vocab.proto(checked_id(st, id, "id_to_piece")).piece;
}

std::vector<std::string> SentencePieceProcessor::id_to_piece(const std::vector<int64_t>& ids) const {
  std::vector<std::string> out;
  out.reserve(ids.size());
  for (const int64_t id : ids) out.push_back(id_to_piece(id));
  return out;
}

float SentencePieceProcessor::get_score(int64_t id) const {
  const ProcessorState& st = state("get_score");
  return st.vocab.score(checked_id(st, id, "get_score"));
}

int64_t SentencePieceProcessor::unk_id() const { return state("unk_id").unk_id; }
int64_t SentencePieceProcessor::bos_id() const { return state("bos_id").bos_id; }
int64_t SentencePieceProcessor::eos_id() const { return state("eos_id").eos_id; }
int64_t SentencePieceProcessor::pad_id() const { return state("pad_id").pad_id; }

bool SentencePieceProcessor::is_unknown(int64_t id) const {
  const ProcessorState& st = state("is_unknown");
  return st.vocab.type(checked_id(st, id, "is_unknown")) == PieceType::UNKNOWN;
}
bool SentencePieceProcessor::is_control(int64_t id) const {
  const ProcessorState& st = state("is_control");
  return st.vocab.type(checked_id(st, id, "is_control")) == PieceType::CONTROL;
}
bool SentencePieceProcessor::is_unused(int64_t id) const {
  const ProcessorState& st = state("is_unused");
  return st.vocab.type(checked_id(st, id, "is_unused")) == PieceType::UNUSED;
}
bool SentencePieceProcessor::is_byte(int64_t id) const {
  const ProcessorState& st = state("is_byte");
  return st.vocab.type(checked_id(st, id, "is_byte")) == PieceType::BYTE;
}

}  // namespace torch::text::sentencepiece
