#include "ember/text/tokenizers/post_processors.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <utility>

#include "ember/core/error.h"
#include "ember/text/unicode.h"

namespace torch::text::tokenizers::detail {
namespace {

// Leading/trailing spaces of a token: GPT-2's 'Ġ' (U+0120) or any whitespace.
bool is_space_char(char32_t c) { return c == 0x120 || text::detail::is_whitespace(c); }

// Note [Byte-level offset trimming]
// A byte-level token such as "Ġworld" covers the space before the word; with
// trim_offsets its offsets drop the space, except the first token's single
// space when add_prefix_space put it there.
void trim_offsets(Encoding& e, bool add_prefix_space) {
  auto& offsets = e.mutable_offsets();
  std::vector<char32_t> cps;  // reused: no allocation per token
  for (size_t i = 0; i < e.size(); ++i) {
    const std::string_view token = e.token(i);
    cps.clear();
    const char* p = token.data();
    const char* end = p + token.size();
    while (p < end) cps.push_back(text::detail::next_code_point(p));
    int64_t lead = 0, trail = 0;
    while (lead < static_cast<int64_t>(cps.size()) && is_space_char(cps[static_cast<size_t>(lead)])) ++lead;
    while (trail < static_cast<int64_t>(cps.size()) && is_space_char(cps[cps.size() - 1 - static_cast<size_t>(trail)]))
      ++trail;
    auto& [s, t] = offsets[i];
    if (lead > 0) {
      bool is_first = i == 0 || s == 0;
      if (is_first && add_prefix_space && lead == 1) lead = 0;
      s = std::min(s + lead, t);
    }
    if (trail > 0 && t >= trail) t = std::max(t - trail, s);
  }
  for (auto& o : e.mutable_overflowing()) trim_offsets(o, add_prefix_space);
}

Encoding special(const std::vector<int64_t>& ids, const std::vector<std::string>& tokens, int64_t type_id) {
  Encoding e;
  for (size_t i = 0; i < ids.size(); ++i) e.push_back(ids[i], tokens[i], Offsets{0, 0}, std::nullopt, type_id, true);
  return e;
}

Encoding with_type(Encoding e, int64_t type_id) {
  e.set_type_ids(type_id);
  return e;
}

// Applies `wrap` to the encodings and, one by one, to their overflowing parts.
template <typename F>
void for_main_and_overflowing(std::vector<Encoding>& encodings, F&& wrap) {
  std::vector<Encoding> out;
  for (size_t i = 0; i < encodings.size(); ++i) {
    std::vector<Encoding> over;
    for (const Encoding& o : encodings[i].overflowing()) over.push_back(wrap(i, Encoding(o)));
    Encoding main = wrap(i, Encoding(encodings[i]));
    main.mutable_overflowing() = std::move(over);
    out.push_back(std::move(main));
  }
  encodings = std::move(out);
}

class BertProcessing final : public PostProcessor {
 public:
  BertProcessing(std::string sep, int64_t sep_id, std::string cls, int64_t cls_id)
      : sep_(std::move(sep)), cls_(std::move(cls)), sep_id_(sep_id), cls_id_(cls_id) {}
  size_t added_tokens(bool is_pair) const override { return is_pair ? 3 : 2; }
  void process_encodings(std::vector<Encoding>& encodings, bool add_special_tokens) const override {
    if (!add_special_tokens) return;
    for_main_and_overflowing(encodings, [&](size_t i, Encoding e) {
      Encoding out;
      if (i == 0) {
        out = special({cls_id_}, {cls_}, 0);
        out.append(with_type(std::move(e), 0), false);
        out.append(special({sep_id_}, {sep_}, 0), false);
      } else {
        out = with_type(std::move(e), 1);
        out.append(special({sep_id_}, {sep_}, 1), false);
      }
      return out;
    });
  }

 private:
  std::string sep_, cls_;
  int64_t sep_id_, cls_id_;
};

class RobertaProcessing final : public PostProcessor {
 public:
  RobertaProcessing(std::string sep, int64_t sep_id, std::string cls, int64_t cls_id, bool trim, bool prefix)
      : sep_(std::move(sep)), cls_(std::move(cls)), sep_id_(sep_id), cls_id_(cls_id), trim_(trim), prefix_(prefix) {}
  size_t added_tokens(bool is_pair) const override { return is_pair ? 4 : 2; }
  void process_encodings(std::vector<Encoding>& encodings, bool add_special_tokens) const override {
    if (trim_)
      for (auto& e : encodings) trim_offsets(e, prefix_);
    if (!add_special_tokens) return;
    for_main_and_overflowing(encodings, [&](size_t i, Encoding e) {
      Encoding out;
      if (i == 0) {
        out = special({cls_id_}, {cls_}, 0);
        out.append(with_type(std::move(e), 0), false);
        out.append(special({sep_id_}, {sep_}, 0), false);
      } else {
        out = special({sep_id_}, {sep_}, 0);
        out.append(with_type(std::move(e), 0), false);
        out.append(special({sep_id_}, {sep_}, 0), false);
      }
      return out;
    });
  }

 private:
  std::string sep_, cls_;
  int64_t sep_id_, cls_id_;
  bool trim_, prefix_;
};

class ByteLevelProcessing final : public PostProcessor {
 public:
  ByteLevelProcessing(bool trim, bool prefix) : trim_(trim), prefix_(prefix) {}
  size_t added_tokens(bool) const override { return 0; }
  void process_encodings(std::vector<Encoding>& encodings, bool) const override {
    if (trim_)
      for (auto& e : encodings) trim_offsets(e, prefix_);
  }

 private:
  bool trim_, prefix_;
};

struct TemplatePiece {
  bool is_sequence;
  std::string id;  // "A"/"B" or the special token's key
  int64_t type_id;
};

struct SpecialTokenSpec {
  std::vector<int64_t> ids;
  std::vector<std::string> tokens;
};

class TemplateProcessing final : public PostProcessor {
 public:
  TemplateProcessing(std::vector<TemplatePiece> single, std::vector<TemplatePiece> pair,
                     std::map<std::string, SpecialTokenSpec> specials)
      : single_(std::move(single)), pair_(std::move(pair)), specials_(std::move(specials)) {}
  size_t added_tokens(bool is_pair) const override {
    size_t n = 0;
    for (const auto& p : is_pair ? pair_ : single_)
      if (!p.is_sequence) n += specials_.at(p.id).ids.size();
    return n;
  }
  void process_encodings(std::vector<Encoding>& encodings, bool add_special_tokens) const override {
    // One piece per template item; the final merge combines overflowing parts.
    const auto& tmpl = encodings.size() == 2 ? pair_ : single_;
    // A sequence the template names once is moved, not copied.
    size_t uses[2] = {0, 0};
    for (const auto& p : tmpl)
      if (p.is_sequence) ++uses[p.id == "A" ? 0 : 1];
    std::vector<Encoding> pieces;
    pieces.reserve(tmpl.size());
    for (const auto& p : tmpl) {
      if (p.is_sequence) {
        size_t i = p.id == "A" ? 0 : 1;
        if (i >= encodings.size()) continue;
        Encoding e = uses[i] == 1 ? std::move(encodings[i]) : Encoding(encodings[i]);
        e.set_type_ids(p.type_id);  // the main part only, as the reference does
        pieces.push_back(std::move(e));
      } else if (add_special_tokens) {
        const auto& s = specials_.at(p.id);
        pieces.push_back(special(s.ids, s.tokens, p.type_id));
      }
    }
    encodings = std::move(pieces);
  }

 private:
  std::vector<TemplatePiece> single_, pair_;
  std::map<std::string, SpecialTokenSpec> specials_;
};

class SequenceProcessing final : public PostProcessor {
 public:
  explicit SequenceProcessing(std::vector<std::unique_ptr<PostProcessor>> parts) : parts_(std::move(parts)) {}
  size_t added_tokens(bool is_pair) const override {
    size_t n = 0;
    for (const auto& p : parts_) n += p->added_tokens(is_pair);
    return n;
  }
  void process_encodings(std::vector<Encoding>& encodings, bool add_special_tokens) const override {
    for (const auto& p : parts_) p->process_encodings(encodings, add_special_tokens);
  }

 private:
  std::vector<std::unique_ptr<PostProcessor>> parts_;
};

std::pair<std::string, int64_t> token_pair(const nlohmann::json& j, const char* key, const std::string& source) {
  EMBER_CHECK(j.contains(key) && j[key].is_array() && j[key].size() == 2 && j[key][0].is_string() &&
                  j[key][1].is_number_integer(),
              "Tokenizer.from_file: ", source, ": post_processor.", key, " must be [token, id]");
  return {j[key][0].get<std::string>(), j[key][1].get<int64_t>()};
}

std::vector<TemplatePiece> template_from_json(const nlohmann::json& j, const std::string& source,
                                              const std::map<std::string, SpecialTokenSpec>& specials) {
  std::vector<TemplatePiece> out;
  EMBER_CHECK(j.is_array(), "Tokenizer.from_file: ", source, ": TemplateProcessing templates must be arrays");
  for (const auto& p : j) {
    EMBER_CHECK(p.is_object() && p.size() == 1, "Tokenizer.from_file: ", source, ": bad template piece ", p.dump());
    bool seq = p.contains("Sequence");
    const auto& body = seq ? p["Sequence"] : p.contains("SpecialToken") ? p["SpecialToken"] : p;
    EMBER_CHECK(
        (seq || p.contains("SpecialToken")) && body.is_object() && body.contains("id") && body["id"].is_string(),
        "Tokenizer.from_file: ", source, ": bad template piece ", p.dump());
    TemplatePiece piece{seq, body["id"].get<std::string>(), body.value("type_id", int64_t{0})};
    if (seq)
      EMBER_CHECK(piece.id == "A" || piece.id == "B", "Tokenizer.from_file: ", source,
                  ": template sequence must be A or B");
    else
      EMBER_CHECK(specials.count(piece.id), "Tokenizer.from_file: ", source, ": template uses special token '",
                  piece.id, "' missing from special_tokens");
    out.push_back(std::move(piece));
  }
  return out;
}

}  // namespace

std::unique_ptr<PostProcessor> make_bert_processing(std::string sep, int64_t sep_id, std::string cls, int64_t cls_id) {
  return std::make_unique<BertProcessing>(std::move(sep), sep_id, std::move(cls), cls_id);
}

std::unique_ptr<PostProcessor> post_processor_from_json(const nlohmann::json& j, const std::string& source) {
  if (j.is_null()) return nullptr;
  EMBER_CHECK(j.is_object() && j.contains("type") && j["type"].is_string(), "Tokenizer.from_file: ", source,
              ": post_processor must be an object with a \"type\"");
  const std::string type = j["type"].get<std::string>();
  if (type == "BertProcessing") {
    auto [sep, sep_id] = token_pair(j, "sep", source);
    auto [cls, cls_id] = token_pair(j, "cls", source);
    return make_bert_processing(sep, sep_id, cls, cls_id);
  }
  if (type == "RobertaProcessing") {
    auto [sep, sep_id] = token_pair(j, "sep", source);
    auto [cls, cls_id] = token_pair(j, "cls", source);
    return std::make_unique<RobertaProcessing>(sep, sep_id, cls, cls_id, j.value("trim_offsets", true),
                                               j.value("add_prefix_space", true));
  }
  if (type == "ByteLevel")
    return std::make_unique<ByteLevelProcessing>(j.value("trim_offsets", true), j.value("add_prefix_space", true));
  if (type == "TemplateProcessing") {
    std::map<std::string, SpecialTokenSpec> specials;
    if (j.contains("special_tokens")) {
      EMBER_CHECK(j["special_tokens"].is_object(), "Tokenizer.from_file: ", source,
                  ": special_tokens must be an object");
      for (auto it = j["special_tokens"].begin(); it != j["special_tokens"].end(); ++it) {
        const auto& v = it.value();
        EMBER_CHECK(v.is_object() && v.contains("ids") && v["ids"].is_array() && v.contains("tokens") &&
                        v["tokens"].is_array() && v["ids"].size() == v["tokens"].size(),
                    "Tokenizer.from_file: ", source, ": special token '", it.key(),
                    "' needs ids and tokens of one length");
        SpecialTokenSpec s;
        for (const auto& id : v["ids"]) {
          EMBER_CHECK(id.is_number_integer(), "Tokenizer.from_file: ", source, ": special token ids must be integers");
          s.ids.push_back(id.get<int64_t>());
        }
        for (const auto& t : v["tokens"]) {
          EMBER_CHECK(t.is_string(), "Tokenizer.from_file: ", source, ": special token tokens must be strings");
          s.tokens.push_back(t.get<std::string>());
        }
        specials[it.key()] = std::move(s);
      }
    }
    auto single = template_from_json(j.value("single", nlohmann::json::array()), source, specials);
    auto pair = template_from_json(j.value("pair", nlohmann::json::array()), source, specials);
    return std::make_unique<TemplateProcessing>(std::move(single), std::move(pair), std::move(specials));
  }
  if (type == "Sequence") {
    EMBER_CHECK(j.contains("processors") && j["processors"].is_array(), "Tokenizer.from_file: ", source,
                ": Sequence post_processor needs an array \"processors\"");
    std::vector<std::unique_ptr<PostProcessor>> parts;
    for (const auto& p : j["processors"]) {
      auto q = post_processor_from_json(p, source);
      if (q) parts.push_back(std::move(q));
    }
    return std::make_unique<SequenceProcessing>(std::move(parts));
  }
  EMBER_ERROR("Tokenizer.from_file: ", source, ": unsupported post_processor type '", type, "'");
}

Encoding post_process(const PostProcessor* p, Encoding a, std::optional<Encoding> b, bool add_special_tokens) {
  std::vector<Encoding> encodings;
  encodings.push_back(std::move(a));
  if (b) encodings.push_back(std::move(*b));
  for (size_t i = 0; i < encodings.size(); ++i) encodings[i].set_sequence_id(static_cast<int64_t>(i));
  if (p) p->process_encodings(encodings, add_special_tokens);
  if (encodings.size() == 1) return std::move(encodings[0]);
  return Encoding::merge(encodings, false);
}

}  // namespace torch::text::tokenizers::detail
