#pragma once
// torchtext.datasets' GLUE tasks and MRPC over extracted files (nothing is
// downloaded), under root/datasets/<NAME>/, yielding torchtext's rows in its
// order. Where torchtext's test split yields a row without the label (SST2,
// QNLI, RTE, WNLI), the label is std::nullopt, so every split has one row type.
//   SST2   SST-2/{train,dev,test}.tsv            (text, label); test (text,)
//   CoLA   cola_public/raw/in_domain_{train,dev}.tsv, out_of_domain_dev.tsv (test)
//                                                (source, label, sentence); rows of 4 fields only
//   MRPC   msr_paraphrase_{train,test}.txt       (label, sentence1, sentence2)
//   QNLI   QNLI/{train,dev,test}.tsv             (label, question, sentence); entailment 0
//   RTE    RTE/{train,dev,test}.tsv              (label, sentence1, sentence2); entailment 0
//   WNLI   WNLI/{train,dev,test}.tsv             (label, sentence1, sentence2)
//   STSB   sts-{train,dev,test}.csv              (index, score, sentence1, sentence2)
//   MNLI   multinli_1.0_{train,dev_matched,dev_mismatched}.txt
//                                                (label, sentence1, sentence2); entailment 0,
//                                                neutral 1, contradiction 2; other labels dropped
//   QQP    quora_duplicate_questions.tsv         (is_duplicate, question1, question2); no split
// Tab-separated; the first line skipped except for STSB; quote characters are
// plain text except in SST2, WNLI and QQP (csv.QUOTE_NONE vs Python's default quoting,
// as torchtext reads each).
#include <optional>
#include <string>
#include <tuple>

#include "ember/text/datasets/text_dataset.h"

namespace torch::text::datasets {

using SST2Row = std::tuple<std::string, std::optional<int64_t>>;
using CoLARow = std::tuple<std::string, int64_t, std::string>;
using MRPCRow = std::tuple<int64_t, std::string, std::string>;
using SentencePairRow = std::tuple<std::optional<int64_t>, std::string, std::string>;
using STSBRow = std::tuple<int64_t, double, std::string, std::string>;

TextDataset<SST2Row> SST2(const std::string& root, const std::string& split);
std::tuple<TextDataset<SST2Row>, TextDataset<SST2Row>, TextDataset<SST2Row>> SST2(const std::string& root);
TextDataset<CoLARow> CoLA(const std::string& root, const std::string& split);
std::tuple<TextDataset<CoLARow>, TextDataset<CoLARow>, TextDataset<CoLARow>> CoLA(const std::string& root);
TextDataset<MRPCRow> MRPC(const std::string& root, const std::string& split);
std::tuple<TextDataset<MRPCRow>, TextDataset<MRPCRow>> MRPC(const std::string& root);
TextDataset<SentencePairRow> QNLI(const std::string& root, const std::string& split);
std::tuple<TextDataset<SentencePairRow>, TextDataset<SentencePairRow>, TextDataset<SentencePairRow>> QNLI(
    const std::string& root);
TextDataset<SentencePairRow> RTE(const std::string& root, const std::string& split);
std::tuple<TextDataset<SentencePairRow>, TextDataset<SentencePairRow>, TextDataset<SentencePairRow>> RTE(
    const std::string& root);
TextDataset<SentencePairRow> WNLI(const std::string& root, const std::string& split);
std::tuple<TextDataset<SentencePairRow>, TextDataset<SentencePairRow>, TextDataset<SentencePairRow>> WNLI(
    const std::string& root);
TextDataset<STSBRow> STSB(const std::string& root, const std::string& split);
std::tuple<TextDataset<STSBRow>, TextDataset<STSBRow>, TextDataset<STSBRow>> STSB(const std::string& root);
TextDataset<MRPCRow> MNLI(const std::string& root, const std::string& split);
std::tuple<TextDataset<MRPCRow>, TextDataset<MRPCRow>, TextDataset<MRPCRow>> MNLI(const std::string& root);
TextDataset<MRPCRow> QQP(const std::string& root);

}  // namespace torch::text::datasets
