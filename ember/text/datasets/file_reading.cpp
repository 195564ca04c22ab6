#include "ember/text/datasets/file_reading.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "ember/core/error.h"
#include "ember/text/unicode.h"

namespace torch::text::datasets::detail {

namespace {

// Python's csv.field_size_limit() default.
constexpr int64_t kFieldSizeLimit = 131072;

bool python_isspace(char32_t cp) { return ::torch::text::detail::is_whitespace(cp) || (cp >= 0x1C && cp <= 0x1F); }

// Python's csv reader state machine (Modules/_csv.c), on one record at a time.
enum class State {
  kStartRecord,
  kStartField,
  kInField,
  kInQuotedField,
  kQuoteInQuotedField,
  kEatCrnl,
};

class CsvParser {
 public:
  CsvParser(CsvDialect dialect, const char* dataset, const std::string& path)
      : dialect_(dialect), dataset_(dataset), path_(path) {}

  // Feeds one line (with its "\n", if any); returns true when a record is complete.
  bool feed(std::string_view line, int64_t line_no) {
    if (state_ == State::kStartRecord) start_line_ = line_no;
    for (const char c : line) process(c, false, line_no);
    process('\0', true, line_no);
    return state_ == State::kStartRecord;
  }

  // At the end of the file: Python saves a field left open (non-strict mode).
  bool finish() {
    if (field_chars_ != 0 || state_ == State::kInQuotedField) {
      save_field();
      return true;
    }
    return false;
  }

  CsvRow take() {
    CsvRow row{std::move(fields_), start_line_};
    fields_.clear();
    return row;
  }

 private:
  void add_char(char c, int64_t line_no) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      EMBER_CHECK(++field_chars_ <= kFieldSizeLimit, dataset_, ": ", path_, " line ", line_no,
                  ": field larger than field limit (", kFieldSizeLimit, ")");
    }
    field_.push_back(c);
  }
  void save_field() {
    fields_.push_back(std::move(field_));
    field_.clear();
    field_chars_ = 0;
  }
  bool is_quote(char c) const { return dialect_.quoting && c == '"'; }

  void process(char c, bool eol, int64_t line_no) {
    switch (state_) {
      case State::kStartRecord:
        if (eol) return;
        if (c == '\n' || c == '\r') {
          state_ = State::kEatCrnl;
          return;
        }
        state_ = State::kStartField;
        [[fallthrough]];
      case State::kStartField:
        if (eol || c == '\n' || c == '\r') {
          save_field();
          state_ = eol ? State::kStartRecord : State::kEatCrnl;
        } else if (is_quote(c)) {
          state_ = State::kInQuotedField;
        } else if (c == dialect_.delimiter) {
          save_field();
        } else {
          add_char(c, line_no);
          state_ = State::kInField;
        }
        return;
      case State::kInField:
        if (eol || c == '\n' || c == '\r') {
          save_field();
          state_ = eol ? State::kStartRecord : State::kEatCrnl;
        } else if (c == dialect_.delimiter) {
          save_field();
          state_ = State::kStartField;
        } else {
          add_char(c, line_no);
        }
        return;
      case State::kInQuotedField:
        if (eol) return;
        if (is_quote(c)) {
          state_ = State::kQuoteInQuotedField;
        } else {
          add_char(c, line_no);
        }
        return;
      case State::kQuoteInQuotedField:
        if (!eol && is_quote(c)) {
          add_char(c, line_no);
          state_ = State::kInQuotedField;
        } else if (!eol && c == dialect_.delimiter) {
          save_field();
          state_ = State::kStartField;
        } else if (eol || c == '\n' || c == '\r') {
          save_field();
          state_ = eol ? State::kStartRecord : State::kEatCrnl;
        } else {
          add_char(c, line_no);
          state_ = State::kInField;
        }
        return;
      case State::kEatCrnl:
        if (eol) {
          state_ = State::kStartRecord;
        } else {
          EMBER_CHECK(c == '\n' || c == '\r', dataset_, ": ", path_, " line ", line_no,
                      ": new-line character seen in unquoted field");
        }
        return;
    }
  }

  CsvDialect dialect_;
  const char* dataset_;
  const std::string& path_;
  State state_ = State::kStartRecord;
  std::string field_;
  int64_t field_chars_ = 0;
  std::vector<std::string> fields_;
  int64_t start_line_ = 0;
};

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    const size_t nl = text.find('\n', start);
    const size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

std::string trimmed_copy(std::string_view s) { return python_strip(s); }

}  // namespace

std::string read_text_file(const std::string& path, const char* dataset) {
  std::ifstream in(path, std::ios::binary);
  EMBER_CHECK(in.good(), dataset, ": cannot open ", path, " (Ember downloads nothing: put the extracted file there)");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  EMBER_CHECK(!in.bad(), dataset, ": error reading ", path);
  return decode_text(buffer.str(), dataset, path);
}

std::string decode_text(std::string_view bytes, const char* dataset, const std::string& source) {
  if (!::torch::text::detail::is_valid_utf8(bytes)) {
    int64_t line = 1;
    size_t i = 0;
    // Report the line of the first bad byte, as the decode error would point at it.
    while (i < bytes.size()) {
      const size_t n = static_cast<size_t>(::torch::text::detail::utf8_length(static_cast<unsigned char>(bytes[i])));
      if (i + n > bytes.size() || !::torch::text::detail::is_valid_utf8(bytes.substr(i, n))) break;
      if (bytes[i] == '\n') ++line;
      i += n;
    }
    EMBER_CHECK(false, dataset, ": ", source, " line ", line, ": 'utf-8' codec can't decode byte at offset ", i);
  }
  std::string out;
  out.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] == '\r') {
      out.push_back('\n');
      if (i + 1 < bytes.size() && bytes[i + 1] == '\n') ++i;
    } else {
      out.push_back(bytes[i]);
    }
  }
  return out;
}

std::vector<std::string> read_lines(const std::string& path, const char* dataset, bool strip_newline) {
  const std::string text = read_text_file(path, dataset);
  std::vector<std::string> lines;
  for (std::string_view line : split_lines(text)) {
    if (strip_newline && !line.empty() && line.back() == '\n') line.remove_suffix(1);
    lines.emplace_back(line);
  }
  return lines;
}

std::vector<CsvRow> read_csv(const std::string& path, const char* dataset, CsvDialect dialect, int64_t skip_lines) {
  return parse_csv(read_text_file(path, dataset), dataset, path, dialect, skip_lines);
}

std::vector<CsvRow> parse_csv(std::string_view text, const char* dataset, const std::string& source, CsvDialect dialect,
                              int64_t skip_lines) {
  const std::vector<std::string_view> lines = split_lines(text);
  CsvParser parser(dialect, dataset, source);
  std::vector<CsvRow> rows;
  for (size_t i = static_cast<size_t>(std::max<int64_t>(skip_lines, 0)); i < lines.size(); ++i) {
    if (parser.feed(lines[i], static_cast<int64_t>(i) + 1)) rows.push_back(parser.take());
  }
  if (parser.finish()) rows.push_back(parser.take());
  return rows;
}

std::string python_strip(std::string_view s) {
  // Decoded text is valid UTF-8; anything else is stripped of ASCII whitespace only
  // (never decoded past its end).
  if (!::torch::text::detail::is_valid_utf8(s)) {
    size_t b = 0, e = s.size();
    const auto ascii_space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1C && c <= 0x1F); };
    while (b < e && ascii_space(s[b])) ++b;
    while (e > b && ascii_space(s[e - 1])) --e;
    return std::string(s.substr(b, e - b));
  }
  const char* begin = s.data();
  const char* end = s.data() + s.size();
  // Leading whitespace.
  while (begin < end) {
    const char* p = begin;
    if (!python_isspace(::torch::text::detail::next_code_point(p))) break;
    begin = p;
  }
  // Trailing whitespace: step back one code point at a time.
  while (end > begin) {
    const char* q = end - 1;
    while (q > begin && ::torch::text::detail::is_continuation_byte(static_cast<unsigned char>(*q))) --q;
    const char* p = q;
    if (!python_isspace(::torch::text::detail::next_code_point(p))) break;
    end = q;
  }
  return std::string(begin, end);
}

int64_t parse_int(std::string_view s, const char* dataset, const std::string& path, int64_t line) {
  const std::string t = trimmed_copy(s);
  std::string digits;
  size_t i = 0;
  bool negative = false;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) negative = t[i++] == '-';
  bool ok = i < t.size();
  for (; ok && i < t.size(); ++i) {
    const char c = t[i];
    if (c >= '0' && c <= '9') {
      digits.push_back(c);
    } else if (c == '_' && !digits.empty() && i + 1 < t.size() && t[i + 1] >= '0' && t[i + 1] <= '9') {
      continue;
    } else {
      ok = false;
    }
  }
  errno = 0;
  char* end = nullptr;
  const long long v = ok ? std::strtoll(digits.c_str(), &end, 10) : 0;
  EMBER_CHECK(ok && errno == 0, dataset, ": ", path, " line ", line, ": invalid literal for int() with base 10: '",
              std::string(s), "'");
  return negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
}

double parse_float(std::string_view s, const char* dataset, const std::string& path, int64_t line) {
  const std::string t = trimmed_copy(s);
  std::string clean;
  bool ok = !t.empty();
  for (size_t i = 0; ok && i < t.size(); ++i) {
    const char c = t[i];
    const bool digit_before = i > 0 && t[i - 1] >= '0' && t[i - 1] <= '9';
    const bool digit_after = i + 1 < t.size() && t[i + 1] >= '0' && t[i + 1] <= '9';
    if (c == '_') {
      ok = digit_before && digit_after;
      continue;
    }
    // strtod also reads hex floats and "infinity"-like spellings Python's float reads differently.
    if (c == 'x' || c == 'X' || c == 'p' || c == 'P') ok = false;
    clean.push_back(c);
  }
  char* end = nullptr;
  const double v = ok ? std::strtod(clean.c_str(), &end) : 0.0;
  ok = ok && end == clean.c_str() + clean.size();
  EMBER_CHECK(ok, dataset, ": ", path, " line ", line, ": could not convert string to float: '", std::string(s), "'");
  return v;
}

const std::string& field(const CsvRow& row, size_t i, const char* dataset, const std::string& path) {
  EMBER_CHECK(i < row.fields.size(), dataset, ": ", path, " line ", row.line, ": a row of ", row.fields.size(),
              " fields has no field ", i);
  return row.fields[i];
}

}  // namespace torch::text::datasets::detail
