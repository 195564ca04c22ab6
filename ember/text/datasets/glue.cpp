#include "ember/text/datasets/glue.h"

#include "ember/core/error.h"
#include "ember/text/datasets/file_reading.h"
#include "ember/text/datasets/splits.h"

namespace torch::text::datasets {

namespace {

using detail::CsvDialect;
using detail::CsvRow;
using detail::field;

constexpr CsvDialect kTsvQuoteNone{'\t', false};
constexpr CsvDialect kTsvQuoted{'\t', true};

template <typename Row, typename Map>
TextDataset<Row> read_rows(const char* name, const std::string& split, const std::string& path, CsvDialect dialect,
                           int64_t skip, Map&& map) {
  std::vector<Row> rows;
  for (const CsvRow& row : detail::read_csv(path, name, dialect, skip)) {
    std::optional<Row> r = map(row);
    if (r.has_value()) rows.push_back(std::move(*r));
  }
  return TextDataset<Row>(name, split, std::move(rows));
}

// QNLI and RTE's MAP_LABELS.
int64_t entailment_label(const std::string& s, const char* name, const std::string& path, int64_t line) {
  if (s == "entailment") return 0;
  if (s == "not_entailment") return 1;
  EMBER_CHECK(false, name, ": ", path, " line ", line, ": label '", s,
              "' is neither 'entailment' nor 'not_entailment'");
  return -1;
}

TextDataset<SentencePairRow> glue_pair(const char* name, const std::string& root, const std::string& split,
                                       CsvDialect dialect, bool named_labels) {
  detail::check_split(name, split, {"train", "dev", "test"});
  const std::string path = detail::dataset_dir(root, name) + "/" + name + "/" + split + ".tsv";
  const bool test = split == "test";
  return read_rows<SentencePairRow>(name, split, path, dialect, 1, [&](const CsvRow& r) {
    if (test)
      return std::optional<SentencePairRow>(
          SentencePairRow(std::nullopt, field(r, 1, name, path), field(r, 2, name, path)));
    const std::string& label = field(r, 3, name, path);
    const int64_t l =
        named_labels ? entailment_label(label, name, path, r.line) : detail::parse_int(label, name, path, r.line);
    return std::optional<SentencePairRow>(SentencePairRow(l, field(r, 1, name, path), field(r, 2, name, path)));
  });
}

template <typename D>
std::tuple<D, D, D> three(D (*f)(const std::string&, const std::string&), const std::string& root, const char* a,
                          const char* b, const char* c) {
  return {f(root, a), f(root, b), f(root, c)};
}

}  // namespace

TextDataset<SST2Row> SST2(const std::string& root, const std::string& split) {
  detail::check_split("SST2", split, {"train", "dev", "test"});
  const std::string path = detail::dataset_dir(root, "SST2") + "/SST-2/" + split + ".tsv";
  const bool test = split == "test";
  return read_rows<SST2Row>("SST2", split, path, kTsvQuoted, 1, [&](const CsvRow& r) {
    if (test) return std::optional<SST2Row>(SST2Row(detail::python_strip(field(r, 1, "SST2", path)), std::nullopt));
    return std::optional<SST2Row>(SST2Row(detail::python_strip(field(r, 0, "SST2", path)),
                                          detail::parse_int(field(r, 1, "SST2", path), "SST2", path, r.line)));
  });
}

TextDataset<CoLARow> CoLA(const std::string& root, const std::string& split) {
  detail::check_split("CoLA", split, {"train", "dev", "test"});
  const char* file = split == "train" ? "in_domain_train.tsv"
                     : split == "dev" ? "in_domain_dev.tsv"
                                      : "out_of_domain_dev.tsv";
  const std::string path = detail::dataset_dir(root, "CoLA") + "/cola_public/raw/" + file;
  return read_rows<CoLARow>("CoLA", split, path, kTsvQuoteNone, 1, [&](const CsvRow& r) -> std::optional<CoLARow> {
    if (r.fields.size() != 4) return std::nullopt;  // torchtext's _filter_res
    return CoLARow(r.fields[0], detail::parse_int(r.fields[1], "CoLA", path, r.line), r.fields[3]);
  });
}

TextDataset<MRPCRow> MRPC(const std::string& root, const std::string& split) {
  detail::check_split("MRPC", split, {"train", "test"});
  const std::string path = detail::dataset_dir(root, "MRPC") + "/msr_paraphrase_" + split + ".txt";
  return read_rows<MRPCRow>("MRPC", split, path, kTsvQuoteNone, 1, [&](const CsvRow& r) {
    return std::optional<MRPCRow>(MRPCRow(detail::parse_int(field(r, 0, "MRPC", path), "MRPC", path, r.line),
                                          field(r, 3, "MRPC", path), field(r, 4, "MRPC", path)));
  });
}

TextDataset<SentencePairRow> QNLI(const std::string& root, const std::string& split) {
  return glue_pair("QNLI", root, split, kTsvQuoteNone, true);
}
TextDataset<SentencePairRow> RTE(const std::string& root, const std::string& split) {
  return glue_pair("RTE", root, split, kTsvQuoteNone, true);
}
TextDataset<SentencePairRow> WNLI(const std::string& root, const std::string& split) {
  return glue_pair("WNLI", root, split, kTsvQuoted, false);
}

TextDataset<STSBRow> STSB(const std::string& root, const std::string& split) {
  detail::check_split("STSB", split, {"train", "dev", "test"});
  const std::string path = detail::dataset_dir(root, "STSB") + "/sts-" + split + ".csv";
  return read_rows<STSBRow>("STSB", split, path, kTsvQuoteNone, 0, [&](const CsvRow& r) {
    return std::optional<STSBRow>(STSBRow(detail::parse_int(field(r, 3, "STSB", path), "STSB", path, r.line),
                                          detail::parse_float(field(r, 4, "STSB", path), "STSB", path, r.line),
                                          field(r, 5, "STSB", path), field(r, 6, "STSB", path)));
  });
}

TextDataset<MRPCRow> MNLI(const std::string& root, const std::string& split) {
  detail::check_split("MNLI", split, {"train", "dev_matched", "dev_mismatched"});
  const std::string path = detail::dataset_dir(root, "MNLI") + "/multinli_1.0_" + split + ".txt";
  return read_rows<MRPCRow>("MNLI", split, path, kTsvQuoteNone, 1, [&](const CsvRow& r) -> std::optional<MRPCRow> {
    const std::string& label = field(r, 0, "MNLI", path);
    const int64_t l = label == "entailment" ? 0 : label == "neutral" ? 1 : label == "contradiction" ? 2 : -1;
    if (l < 0) return std::nullopt;  // torchtext's _filter_res
    return MRPCRow(l, field(r, 5, "MNLI", path), field(r, 6, "MNLI", path));
  });
}

TextDataset<MRPCRow> QQP(const std::string& root) {
  const std::string path = detail::dataset_dir(root, "QQP") + "/quora_duplicate_questions.tsv";
  return read_rows<MRPCRow>("QQP", "train", path, kTsvQuoted, 1, [&](const CsvRow& r) {
    EMBER_CHECK(!r.fields.empty(), "QQP: ", path, " line ", r.line, ": a row of 0 fields");
    return std::optional<MRPCRow>(MRPCRow(detail::parse_int(r.fields.back(), "QQP", path, r.line),
                                          field(r, 3, "QQP", path), field(r, 4, "QQP", path)));
  });
}

std::tuple<TextDataset<MRPCRow>, TextDataset<MRPCRow>, TextDataset<MRPCRow>> MNLI(const std::string& root) {
  return three<TextDataset<MRPCRow>>(&MNLI, root, "train", "dev_matched", "dev_mismatched");
}

std::tuple<TextDataset<SST2Row>, TextDataset<SST2Row>, TextDataset<SST2Row>> SST2(const std::string& root) {
  return three<TextDataset<SST2Row>>(&SST2, root, "train", "dev", "test");
}
std::tuple<TextDataset<CoLARow>, TextDataset<CoLARow>, TextDataset<CoLARow>> CoLA(const std::string& root) {
  return three<TextDataset<CoLARow>>(&CoLA, root, "train", "dev", "test");
}
std::tuple<TextDataset<MRPCRow>, TextDataset<MRPCRow>> MRPC(const std::string& root) {
  return {MRPC(root, std::string("train")), MRPC(root, std::string("test"))};
}
std::tuple<TextDataset<SentencePairRow>, TextDataset<SentencePairRow>, TextDataset<SentencePairRow>> QNLI(
    const std::string& root) {
  return three<TextDataset<SentencePairRow>>(&QNLI, root, "train", "dev", "test");
}
std::tuple<TextDataset<SentencePairRow>, TextDataset<SentencePairRow>, TextDataset<SentencePairRow>> RTE(
    const std::string& root) {
  return three<TextDataset<SentencePairRow>>(&RTE, root, "train", "dev", "test");
}
std::tuple<TextDataset<SentencePairRow>, TextDataset<SentencePairRow>, TextDataset<SentencePairRow>> WNLI(
    const std::string& root) {
  return three<TextDataset<SentencePairRow>>(&WNLI, root, "train", "dev", "test");
}
std::tuple<TextDataset<STSBRow>, TextDataset<STSBRow>, TextDataset<STSBRow>> STSB(const std::string& root) {
  return three<TextDataset<STSBRow>>(&STSB, root, "train", "dev", "test");
}

}  // namespace torch::text::datasets
