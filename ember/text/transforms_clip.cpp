// torchtext.transforms.CLIPTokenizer.
#include <nlohmann/json.hpp>

#include "ember/core/error.h"
#include "ember/text/clip_encoder.h"
#include "ember/text/tokenizers/models.h"
#include "ember/text/transforms.h"
#include "ember/text/unicode.h"

namespace torch::text::transforms {

namespace {

// Python's merges[:k] (a negative k drops from the end).
std::vector<std::string> python_prefix(const std::vector<std::string>& v, int64_t k) {
  const auto n = static_cast<int64_t>(v.size());
  if (k < 0) k = std::max<int64_t>(0, n + k);
  return {v.begin(), v.begin() + std::min(k, n)};
}

std::string join_split(const std::string& line) {
  // "".join(pair.split())
  std::string out;
  for (const char c : line)
    if (!(c == ' ' || (c >= '\t' && c <= '\r'))) out.push_back(c);
  return out;
}

}  // namespace

CLIPTokenizerImpl::CLIPTokenizerImpl(const std::string& merges_path,
                                     const std::optional<std::string>& encoder_json_path,
                                     std::optional<int64_t> num_merges, bool return_tokens)
    : return_tokens_(return_tokens) {
  const std::string text = tokenizers::detail::read_file(merges_path, "CLIPTokenizer: merges file");
  // f.read().split("\n")[1:]
  std::vector<std::string> lines;
  for (size_t p = 0;;) {
    const size_t q = text.find('\n', p);
    lines.push_back(text.substr(p, q == std::string::npos ? std::string::npos : q - p));
    if (q == std::string::npos) break;
    p = q + 1;
  }
  lines.erase(lines.begin());
  std::unordered_map<std::string, int64_t> encoder;
  std::vector<std::string> merges;
  if (encoder_json_path) {
    const std::string bytes = tokenizers::detail::read_file(*encoder_json_path, "CLIPTokenizer: encoder json");
    const nlohmann::json j = nlohmann::json::parse(bytes, nullptr, /*allow_exceptions=*/false);
    EMBER_CHECK(!j.is_discarded() && j.is_object(), "CLIPTokenizer: ", *encoder_json_path,
                " is not a JSON object of token ids");
    for (const auto& [token, id] : j.items()) {
      EMBER_CHECK(id.is_number_integer(), "CLIPTokenizer: ", *encoder_json_path, ": the id of '", token,
                  "' is not an integer");
      encoder.insert_or_assign(token, id.get<int64_t>());
    }
    // 256 * 2 byte symbols (with and without '</w>') and the two specials.
    merges = python_prefix(lines, static_cast<int64_t>(j.size()) - (256 * 2 + 2));
  } else {
    const int64_t n = num_merges && *num_merges != 0 ? *num_merges : static_cast<int64_t>(lines.size());
    merges = python_prefix(lines, n);
    std::vector<std::string> vocab;
    std::string s;
    for (const char32_t cp : tokenizers::detail::byte_to_unicode()) {
      s.clear();
      text::detail::append_utf8(s, cp);
      vocab.push_back(s);
    }
    for (size_t b = 0; b < 256; ++b) vocab.push_back(vocab[b] + "</w>");
    for (const auto& m : merges) vocab.push_back(join_split(m));
    vocab.emplace_back("<|startoftext|>");
    vocab.emplace_back("<|endoftext|>");
    for (size_t i = 0; i < vocab.size(); ++i) encoder.insert_or_assign(vocab[i], static_cast<int64_t>(i));
  }
  bpe_ = std::make_shared<const text::detail::CLIPEncoder>(std::move(encoder), merges);
}

std::vector<std::string> CLIPTokenizerImpl::forward(const std::string& input) {
  if (return_tokens_) return bpe_->tokenize(input);
  std::vector<std::string> out;
  for (const int64_t id : bpe_->encode(input)) out.push_back(std::to_string(id));
  return out;
}

std::vector<std::vector<std::string>> CLIPTokenizerImpl::forward(const std::vector<std::string>& input) {
  std::vector<std::vector<std::string>> out;
  out.reserve(input.size());
  for (const auto& s : input) out.push_back(forward(s));
  return out;
}

TextData CLIPTokenizerImpl::forward_any(const TextData& input) {
  if (const auto* v = std::get_if<std::string>(&input)) return forward(*v);
  if (const auto* v = std::get_if<std::vector<std::string>>(&input)) return forward(*v);
  EMBER_ERROR("CLIPTokenizer: expected str or List[str] input, got variant alternative ", input.index());
}

}  // namespace torch::text::transforms
