#pragma once
// How torchtext's dataset pipes read the files they cached: open(path,
// encoding="utf-8") in text mode (strict UTF-8, universal newlines), then
// torchdata's readlines or parse_csv (Python's csv module). Everything raises
// ember::Error naming the dataset, the file and the line.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace torch::text::datasets::detail {

// The file as Python's text mode reads it: valid UTF-8 (else raises, as a
// UnicodeDecodeError would), "\r\n" and "\r" turned into "\n".
std::string read_text_file(const std::string& path, const char* dataset);
// The same on bytes already read; source names them in errors.
std::string decode_text(std::string_view bytes, const char* dataset, const std::string& source);

// Its lines as Python iterates a text file: each keeps its "\n" (the last may
// lack one); strip_newline removes it (torchdata's readlines(strip_newline=True)).
std::vector<std::string> read_lines(const std::string& path, const char* dataset, bool strip_newline);

struct CsvDialect {
  char delimiter = ',';
  // false: csv.QUOTE_NONE (quote characters are plain text).
  bool quoting = true;
};

struct CsvRow {
  std::vector<std::string> fields;
  int64_t line = 0;  // 1-based line of the file where the row starts
};

// torchdata's parse_csv(skip_lines, delimiter, quoting): the first skip_lines
// lines are dropped, the rest parsed as Python's csv.reader parses them (excel
// dialect: '"' quotes, doubled quotes, text after a closing quote kept,
// a blank line is a row of no fields, 131072-character field limit).
std::vector<CsvRow> read_csv(const std::string& path, const char* dataset, CsvDialect dialect = {},
                             int64_t skip_lines = 0);
// The same on decoded text (decode_text's output); source names it in errors.
std::vector<CsvRow> parse_csv(std::string_view text, const char* dataset, const std::string& source,
                              CsvDialect dialect = {}, int64_t skip_lines = 0);

// Python's int(s) and float(s) on a field (surrounding whitespace allowed,
// underscores between digits); raise naming the dataset, file, line and text.
int64_t parse_int(std::string_view s, const char* dataset, const std::string& path, int64_t line);
double parse_float(std::string_view s, const char* dataset, const std::string& path, int64_t line);

// Python's str.strip(): leading and trailing whitespace (str.isspace) removed
// (on invalid UTF-8, ASCII whitespace only).
std::string python_strip(std::string_view s);

// The field at index i of the row, or an error naming the row's field count.
const std::string& field(const CsvRow& row, size_t i, const char* dataset, const std::string& path);

}  // namespace torch::text::datasets::detail
