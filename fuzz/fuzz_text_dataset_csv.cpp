// libFuzzer target: the torchtext dataset readers' text decoding (strict UTF-8,
// universal newlines) and Python-csv parsing (comma with quotes, tab with
// QUOTE_NONE), then the rows' int()/float() conversions, on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "ember/core/error.h"
#include "ember/text/datasets/file_reading.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace d = ember::text::datasets::detail;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const std::string text = d::decode_text(bytes, "fuzz", "<input>");
    for (const d::CsvDialect dialect : {d::CsvDialect{',', true}, d::CsvDialect{'\t', false}}) {
      for (const d::CsvRow& row : d::parse_csv(text, "fuzz", "<input>", dialect, size % 2)) {
        for (const std::string& f : row.fields) {
          try {
            (void)d::parse_int(f, "fuzz", "<input>", row.line);
          } catch (const ember::Error&) {
          }
          try {
            (void)d::parse_float(f, "fuzz", "<input>", row.line);
          } catch (const ember::Error&) {
          }
          (void)d::python_strip(f);
        }
      }
    }
  } catch (const ember::Error&) {
  }
  return 0;
}
