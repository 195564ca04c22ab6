// ember::text::sentencepiece against the sentencepiece library 0.1.97:
// tests/golden/text/sentencepiece_golden.json and the sp_*.model fixtures from
// tools/golden/gen_text_sentencepiece.py.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "common/test_util.h"
#include "ember/text/sentencepiece.h"
#include "ember/text/transforms.h"

namespace {

using ember::text::sentencepiece::SentencePieceProcessor;
using nlohmann::json;

std::string golden_path(const std::string& name) { return std::string(EMBER_GOLDEN_DIR) + "/text/" + name; }

std::string read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

const json& golden() {
  static const json g = json::parse(read_bytes(golden_path("sentencepiece_golden.json")));
  return g;
}

const SentencePieceProcessor& processor(const std::string& name) {
  static std::map<std::string, std::unique_ptr<SentencePieceProcessor>> cache;
  auto it = cache.find(name);
  if (it == cache.end())
    it = cache.emplace(name, std::make_unique<SentencePieceProcessor>(golden_path(name + ".model"))).first;
  return *it->second;
}

std::string from_hex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

std::vector<std::string> from_hex(const json& list) {
  std::vector<std::string> out;
  for (const auto& h : list) out.push_back(from_hex(h.get<std::string>()));
  return out;
}

const std::vector<std::string> kModels = {"sp_unigram",    "sp_bpe",  "sp_unigram_identity",
                                          "sp_bpe_keepws", "sp_char", "sp_word"};

class SentencePieceGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(SentencePieceGolden, Vocabulary) {
  const auto& sp = processor(GetParam());
  const json& g = golden()[GetParam()];
  ASSERT_EQ(sp.get_piece_size(), g["piece_size"].get<int64_t>());
  EXPECT_EQ(sp.unk_id(), g["unk_id"].get<int64_t>());
  EXPECT_EQ(sp.bos_id(), g["bos_id"].get<int64_t>());
  EXPECT_EQ(sp.eos_id(), g["eos_id"].get<int64_t>());
  EXPECT_EQ(sp.pad_id(), g["pad_id"].get<int64_t>());
  const json& vocab = g["vocab"];
  for (int64_t id = 0; id < sp.get_piece_size(); ++id) {
    const json& v = vocab[static_cast<size_t>(id)];
    const std::string piece = from_hex(v[0].get<std::string>());
    EXPECT_EQ(sp.id_to_piece(id), piece) << id;
    EXPECT_EQ(sp.piece_to_id(piece), id) << id;
    EXPECT_EQ(sp.get_score(id), v[1].get<float>()) << id;
    const std::string kind = v[2].get<std::string>();
    EXPECT_EQ(sp.is_unknown(id), kind == "unknown") << id;
    EXPECT_EQ(sp.is_control(id), kind == "control") << id;
    EXPECT_EQ(sp.is_unused(id), kind == "unused") << id;
    EXPECT_EQ(sp.is_byte(id), kind == "byte") << id;
  }
  EXPECT_EQ(sp.piece_to_id("no such piece in any model"), sp.unk_id());
}

TEST_P(SentencePieceGolden, Encode) {
  const auto& sp = processor(GetParam());
  for (const json& c : golden()[GetParam()]["cases"]) {
    const std::string input = from_hex(c["input"].get<std::string>());
    const std::string what = GetParam() + " input " + c["input"].get<std::string>();
    const auto ids = sp.encode_as_ids(input);
    EXPECT_EQ(ids, c["ids"].get<std::vector<int64_t>>()) << what;
    EXPECT_EQ(sp.encode(input), ids) << what;
    const auto pieces = sp.encode_as_pieces(input);
    EXPECT_EQ(pieces, from_hex(c["pieces"])) << what;
    EXPECT_EQ(sp.decode_ids(ids), from_hex(c["decode_ids"].get<std::string>())) << what;
    EXPECT_EQ(sp.decode_pieces(pieces), from_hex(c["decode_pieces"].get<std::string>())) << what;
    EXPECT_EQ(sp.encode(input, true, true), c["bos_eos_ids"].get<std::vector<int64_t>>()) << what;
    EXPECT_EQ(sp.encode(input, false, false, true), c["reversed_ids"].get<std::vector<int64_t>>()) << what;
  }
}

TEST_P(SentencePieceGolden, Decode) {
  const auto& sp = processor(GetParam());
  for (const json& d : golden()[GetParam()]["decodes"]) {
    const std::string want = from_hex(d["text"].get<std::string>());
    if (d.contains("ids"))
      EXPECT_EQ(sp.decode_ids(d["ids"].get<std::vector<int64_t>>()), want) << d.dump();
    else
      EXPECT_EQ(sp.decode_pieces(from_hex(d["pieces"])), want) << d.dump();
  }
}

TEST_P(SentencePieceGolden, BatchEqualsSingle) {
  const auto& sp = processor(GetParam());
  std::vector<std::string> inputs;
  for (const json& c : golden()[GetParam()]["cases"]) inputs.push_back(from_hex(c["input"].get<std::string>()));
  const auto ids = sp.encode_as_ids(inputs);
  const auto pieces = sp.encode_as_pieces(inputs);
  ASSERT_EQ(ids.size(), inputs.size());
  EXPECT_EQ(sp.encode(inputs), ids);
  for (size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(ids[i], sp.encode_as_ids(inputs[i]));
    EXPECT_EQ(pieces[i], sp.encode_as_pieces(inputs[i]));
  }
}

INSTANTIATE_TEST_SUITE_P(Models, SentencePieceGolden, ::testing::ValuesIn(kModels));

TEST(SentencePiece, EmitUnkPiece) {
  const auto& sp = processor("sp_unigram");
  const auto pieces = sp.encode_as_pieces("a\u202e\u202c b", false, false, false, true);
  const auto plain = sp.encode_as_pieces("a\u202e\u202c b");
  ASSERT_EQ(pieces.size(), plain.size());
  bool saw_unk = false;
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (sp.piece_to_id(plain[i]) == sp.unk_id()) {
      EXPECT_EQ(pieces[i], "<unk>");
      saw_unk = true;
    } else {
      EXPECT_EQ(pieces[i], plain[i]);
    }
  }
  EXPECT_TRUE(saw_unk);
}

TEST(SentencePiece, BadIdsRaise) {
  const auto& sp = processor("sp_bpe");
  EXPECT_EMBER_ERROR(sp.decode_ids({1, 800}), "decode_ids", "800");
  EXPECT_EMBER_ERROR(sp.decode_ids({-1}), "decode_ids", "-1");
  EXPECT_EMBER_ERROR(sp.id_to_piece(100000), "id_to_piece", "100000");
  EXPECT_EMBER_ERROR(sp.is_control(-5), "is_control", "-5");
  SentencePieceProcessor empty;
  EXPECT_EMBER_ERROR(empty.encode_as_ids("x"), "no model is loaded");
}

TEST(SentencePiece, MalformedModelsRaise) {
  EXPECT_EMBER_ERROR(SentencePieceProcessor(golden_path("no_such.model")), "cannot open", "no_such.model");
  const std::string bytes = read_bytes(golden_path("sp_unigram_identity.model"));
  SentencePieceProcessor sp;
  // Every truncation either loads (a shorter but valid message) or raises; never crashes.
  for (size_t n : {size_t{1}, size_t{2}, size_t{7}, bytes.size() / 3, bytes.size() / 2, bytes.size() - 1}) {
    try {
      sp.load_from_serialized_proto(std::string_view(bytes).substr(0, n));
    } catch (const ember::Error&) {
    }
  }
  // A field claiming more bytes than remain.
  EXPECT_EMBER_ERROR(sp.load_from_serialized_proto(std::string("\x0a\xff\x01", 3)), "claims", "255");
  // A piece list without an unknown piece.
  EXPECT_EMBER_ERROR(sp.load_from_serialized_proto(std::string("\x0a\x03\x0a\x01"
                                                               "a",
                                                               5)),
                     "no unknown piece");
  // Duplicate pieces.
  EXPECT_EMBER_ERROR(sp.load_from_serialized_proto(std::string("\x0a\x05\x0a\x01u\x18\x02"
                                                               "\x0a\x03\x0a\x01"
                                                               "a"
                                                               "\x0a\x03\x0a\x01"
                                                               "a",
                                                               17)),
                     "already defined");
  // A varint that never ends.
  EXPECT_EMBER_ERROR(sp.load_from_serialized_proto(std::string(12, '\xff')), "varint");
  // A charsmap whose trie size lies.
  std::string lying = std::string(
                          "\x0a\x05\x0a\x01"
                          "a\x18\x02",
                          7) +
                      "\x1a\x08\x12\x06" + std::string("\xff\xff\x00\x00xx", 6);
  EXPECT_EMBER_ERROR(sp.load_from_serialized_proto(lying), "precompiled_charsmap");
}

TEST(SentencePiece, CopiesShareTheModel) {
  SentencePieceProcessor a(golden_path("sp_bpe.model"));
  SentencePieceProcessor b = a;
  EXPECT_EQ(a.encode_as_ids("hello world"), b.encode_as_ids("hello world"));
  SentencePieceProcessor c;
  c.load(golden_path("sp_unigram.model"));
  EXPECT_EQ(c.get_piece_size(), 1000);
}

// torchtext's SentencePieceTokenizer is the processor's encode_as_pieces
// (torchtext/transforms.py), on str and List[str].
TEST(SentencePieceTokenizer, PiecesOfStrAndList) {
  namespace T = ember::text::transforms;
  T::SentencePieceTokenizer tok(golden_path("sp_unigram.model"));
  const json& cases = golden()["sp_unigram"]["cases"];
  std::vector<std::string> inputs;
  std::vector<std::vector<std::string>> want;
  for (size_t i = 0; i < 5; ++i) {
    inputs.push_back(from_hex(cases[i]["input"].get<std::string>()));
    want.push_back(from_hex(cases[i]["pieces"]));
  }
  EXPECT_EQ(tok(inputs[0]), want[0]);
  EXPECT_EQ(tok(inputs), want);
  EXPECT_EQ(std::get<std::vector<std::vector<std::string>>>(tok->forward_any(T::TextData(inputs))), want);
  EXPECT_EMBER_ERROR(tok->forward_any(T::TextData(int64_t{3})), "SentencePieceTokenizer");
}

}  // namespace
