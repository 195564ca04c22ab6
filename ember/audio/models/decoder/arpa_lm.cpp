// ARPA format: a "\data\" section of "ngram N=count" lines, then one
// "\N-grams:" section per order of "log10prob w1 .. wN [log10backoff]" lines,
// then "\end\". The text is untrusted: every count is checked against the
// entries that exist and nothing is reserved from a declared count.
#include "ember/audio/models/decoder/arpa_lm.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include "ember/core/error.h"

namespace torch::audio::models::decoder::detail {

size_t NgramHash::operator()(const std::vector<int32_t>& v) const noexcept {
  uint64_t h = 1469598103934665603ull;
  for (int32_t x : v) h = (h ^ static_cast<uint32_t>(x)) * 1099511628211ull;
  return static_cast<size_t>(h ^ (h >> 29));
}

namespace {

constexpr int64_t kMaxOrder = 32;

// Lines of `text`, without '\r' and surrounding blanks.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}
  bool next(std::string_view& line) {
    while (pos_ < text_.size()) {
      size_t end = text_.find('\n', pos_);
      if (end == std::string_view::npos) end = text_.size();
      line = trim(text_.substr(pos_, end - pos_));
      pos_ = end + 1;
      ++number_;
      if (!line.empty()) return true;
    }
    return false;
  }
  int64_t number() const { return number_; }

 private:
  static std::string_view trim(std::string_view s) {
    const char* ws = " \t\r\f\v";
    size_t b = s.find_first_not_of(ws);
    if (b == std::string_view::npos) return {};
    return s.substr(b, s.find_last_not_of(ws) - b + 1);
  }
  std::string_view text_;
  size_t pos_ = 0;
  int64_t number_ = 0;
};

std::vector<std::string_view> fields_of(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

bool parse_float(std::string_view s, float& out) {
  // strtof needs a terminated string; fields are short.
  if (s.empty() || s.size() > 64) return false;
  std::string buf(s);
  char* end = nullptr;
  out = std::strtof(buf.c_str(), &end);
  return end == buf.c_str() + buf.size();
}

std::string_view trimmed(std::string_view s) {
  std::vector<std::string_view> f = fields_of(s);
  return f.size() == 1 ? f[0] : std::string_view();
}

bool parse_count(std::string_view s, int64_t& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size() && out >= 0;
}

}  // namespace

int32_t ArpaModel::intern(std::string_view word) {
  auto [it, fresh] = ids_.emplace(std::string(word), static_cast<int32_t>(words_.size()));
  if (fresh) words_.emplace_back(word);
  return it->second;
}

ArpaModel ArpaModel::parse(std::string_view text, const std::string& source) {
  ArpaModel m;
  LineReader reader(text);
  std::string_view line;
  auto fail = [&](const auto&... what) {
    EMBER_ERROR("ctc_decoder: ARPA file '", source, "' line ", reader.number(), ": ", what...);
  };
  // KenLM's binary format starts with this magic; it needs KenLM itself.
  if (text.substr(0, 12) == "mmap lm http") fail("this is a KenLM binary file, only ARPA text is supported");
  // Anything before \data\ is a comment.
  bool found = false;
  while (reader.next(line))
    if (line == "\\data\\") {
      found = true;
      break;
    }
  if (!found) fail("no \\data\\ section");
  std::vector<int64_t> counts;
  bool have_line = false;
  while (reader.next(line)) {
    if (line.substr(0, 6) != "ngram ") {
      have_line = true;
      break;
    }
    size_t eq = line.find('=');
    int64_t n = 0, c = 0;
    if (eq == std::string_view::npos || !parse_count(trimmed(line.substr(6, eq - 6)), n) ||
        !parse_count(trimmed(line.substr(eq + 1)), c))
      fail("malformed count line '", line, "'");
    if (n != static_cast<int64_t>(counts.size()) + 1 || n > kMaxOrder)
      fail("expected the count of order ", counts.size() + 1, ", got order ", n);
    counts.push_back(c);
  }
  if (counts.empty()) fail("no ngram counts in \\data\\");
  m.order_ = static_cast<int64_t>(counts.size());
  for (int64_t n = 1; n <= m.order_; ++n) {
    if (!have_line) fail("missing the \\", n, "-grams: section");
    std::string header(1, '\\');
    header += std::to_string(n);
    header += "-grams:";
    if (line != header) fail("expected '", header, "', got '", line, "'");
    int64_t seen = 0;
    have_line = false;
    std::vector<int32_t> key;
    while (reader.next(line)) {
      if (line[0] == '\\') {
        have_line = true;
        break;
      }
      std::vector<std::string_view> f = fields_of(line);
      const size_t nf = f.size();
      if (nf != static_cast<size_t>(n) + 1 && (nf != static_cast<size_t>(n) + 2 || n == m.order_))
        fail("a ", n, "-gram line needs a probability, ", n, " words", n < m.order_ ? " and an optional back-off" : "",
             ", got '", line, "'");
      Entry e;
      if (!parse_float(f[0], e.prob) || !(e.prob <= 0) || std::isnan(e.prob))
        fail("bad log10 probability '", f[0], "'");
      if (nf == static_cast<size_t>(n) + 2 && (!parse_float(f[nf - 1], e.backoff) || !std::isfinite(e.backoff)))
        fail("bad log10 back-off '", f[nf - 1], "'");
      key.clear();
      for (int64_t i = 1; i <= n; ++i) key.push_back(m.intern(f[i]));
      if (!m.ngrams_.emplace(key, e).second) fail("duplicate ", n, "-gram '", line, "'");
      if (++seen > counts[n - 1]) fail("more ", n, "-grams than the declared ", counts[n - 1]);
    }
    if (seen != counts[n - 1]) fail("declared ", counts[n - 1], " ", n, "-grams but found ", seen);
  }
  if (!have_line || line != "\\end\\") fail("missing \\end\\");
  auto id_of = [&](const char* w) {
    auto it = m.ids_.find(w);
    return it == m.ids_.end() ? -1 : it->second;
  };
  m.bos_ = id_of("<s>");
  m.eos_ = id_of("</s>");
  m.unk_ = id_of("<unk>");
  if (m.bos_ < 0 || !m.ngrams_.count({m.bos_})) fail("the model has no <s> unigram");
  if (m.eos_ < 0 || !m.ngrams_.count({m.eos_})) fail("the model has no </s> unigram");
  if (m.unk_ < 0 || !m.ngrams_.count({m.unk_})) {
    // KenLM substitutes log10 p(<unk>) = -100 when the file has none.
    m.unk_ = m.intern("<unk>");
    m.ngrams_[{m.unk_}] = Entry{-100.0f, 0.0f};
  }
  // Every word of a higher-order n-gram must be a unigram (KenLM's rule), so
  // scoring can always fall back to a unigram.
  for (int32_t id = 0; id < static_cast<int32_t>(m.words_.size()); ++id)
    if (!m.ngrams_.count({id})) fail("the word '", m.words_[id], "' appears in an n-gram but not as a unigram");
  return m;
}

ArpaModel ArpaModel::from_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EMBER_CHECK(in.good(), "ctc_decoder: cannot open the language model file '", path, "'");
  std::ostringstream buf;
  buf << in.rdbuf();
  return parse(buf.str(), path);
}

int32_t ArpaModel::index(const std::string& word) const {
  auto it = ids_.find(word);
  return it == ids_.end() ? unk_ : it->second;
}

double ArpaModel::score(const std::vector<int32_t>& context, int32_t word) const {
  const int64_t max_len = std::min<int64_t>(static_cast<int64_t>(context.size()), order_ - 1);
  std::vector<int32_t> key;
  double backoff = 0;
  for (int64_t len = max_len; len >= 0; --len) {
    key.assign(context.end() - len, context.end());
    key.push_back(word);
    auto it = ngrams_.find(key);
    if (it != ngrams_.end()) return backoff + it->second.prob;
    key.pop_back();
    if (len > 0) {
      auto ctx = ngrams_.find(key);
      if (ctx != ngrams_.end()) backoff += ctx->second.backoff;
    }
  }
  return backoff + ngrams_.at({unk_}).prob;  // unreachable: every id is a unigram
}

namespace {
// A history's context (the last order - 1 LM ids) and its scores so far.
class ArpaLMState : public CTCDecoderLMState {
 public:
  std::vector<int32_t> context;
  std::unordered_map<int64_t, double> cached;  // usr index -> score of that child
};
}  // namespace

ArpaLM::ArpaLM(ArpaModel model, const std::vector<std::string>& usr_words) : model_(std::move(model)) {
  usr_to_lm_.reserve(usr_words.size());
  for (const std::string& w : usr_words) usr_to_lm_.push_back(model_.index(w));
}

CTCDecoderLMStatePtr ArpaLM::start(bool start_with_nothing) {
  auto s = std::make_shared<ArpaLMState>();
  if (!start_with_nothing) s->context.push_back(model_.begin_sentence());
  return s;
}

namespace {
ArpaLMState& as_arpa(const CTCDecoderLMStatePtr& state) {
  auto* s = dynamic_cast<ArpaLMState*>(state.get());
  EMBER_CHECK(s != nullptr, "ctc_decoder: the n-gram LM was given a state it did not make");
  return *s;
}
std::vector<int32_t> extended(const std::vector<int32_t>& ctx, int32_t w, int64_t order) {
  std::vector<int32_t> out(ctx);
  out.push_back(w);
  const int64_t keep = std::max<int64_t>(order - 1, 0);
  if (static_cast<int64_t>(out.size()) > keep) out.erase(out.begin(), out.end() - keep);
  return out;
}
}  // namespace

std::tuple<CTCDecoderLMStatePtr, double> ArpaLM::score(const CTCDecoderLMStatePtr& state, int64_t usr_token_idx) {
  EMBER_CHECK(usr_token_idx >= 0 && usr_token_idx < static_cast<int64_t>(usr_to_lm_.size()),
              "ctc_decoder: LM word index ", usr_token_idx, " out of range [0, ", usr_to_lm_.size(), ")");
  ArpaLMState& in = as_arpa(state);
  auto out = in.child<ArpaLMState>(usr_token_idx);
  auto it = in.cached.find(usr_token_idx);
  if (it != in.cached.end()) return {out, it->second};
  const int32_t w = usr_to_lm_[usr_token_idx];
  const double s = model_.score(in.context, w);
  out->context = extended(in.context, w, model_.order());
  in.cached.emplace(usr_token_idx, s);
  return {out, s};
}

std::tuple<CTCDecoderLMStatePtr, double> ArpaLM::finish(const CTCDecoderLMStatePtr& state) {
  ArpaLMState& in = as_arpa(state);
  auto out = in.child<ArpaLMState>(-1);
  const double s = model_.score(in.context, model_.end_sentence());
  out->context = extended(in.context, model_.end_sentence(), model_.order());
  return {out, s};
}

}  // namespace torch::audio::models::decoder::detail
