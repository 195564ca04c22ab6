// roberta_scores: tokenizes sentences with a RoBERTa tokenizer.json, pads them
// with its <pad> id and prints the class scores of a small RobertaModel
// (torchtext's architecture, 2 layers, dim 16, a 4-class head) whose weights are
// deterministic (the formula of tools/golden/gen_text_models.py), or loaded from
// a torchtext checkpoint when one is given.
//
//   roberta_scores [tokenizer.json] [--check expected.txt] [--weights file.pt]
//
// With --check, the ids and scores must equal the reference's
// (tools/golden/gen_text_models_example.py: the Hugging Face tokenizer and
// torchtext's RobertaModel); the exit status is 1 when they do not.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "ember/text/models.h"
#include "ember/text/tokenizers.h"
#include "ember/torch.h"

namespace {

namespace models = ember::text::models;

const std::vector<std::string> kSentences = {"Hello world, how are you?", "The quick brown fox.",
                                             "A fortune: you will be happy"};

// Tensor k of the state_dict, element i: a hash of (i, k) mapped to [-1, 1),
// scaled like a fan-in initialisation.
void fill_deterministic(ember::nn::Module& model) {
  ember::NoGradGuard no_grad;
  int64_t k = 0;
  for (const auto& item : model.state_dict()) {
    ember::Tensor t = item.value();
    const int64_t n = t.numel();
    ember::Tensor h = (ember::arange(n, ember::TensorOptions().dtype(ember::kLong)) * 1103515245 + 12345 + 7919 * k)
                          .remainder(2147483648LL);
    h = (h * 1103515245 + 12345).remainder(2147483648LL);
    const ember::Tensor b = (h.to(ember::kDouble) / 1073741824.0 - 1.0).reshape(t.sizes());
    const std::string& name = item.key();
    const bool weight = name.size() >= 6 && name.compare(name.size() - 6, 6, "weight") == 0;
    const ember::Tensor v = t.dim() == 1 ? (weight ? 1 + 0.2 * b : 0.1 * b)
                                         : std::sqrt(3.0) * b / std::sqrt(static_cast<double>(n) / t.size(0));
    t.copy_(v.to(t.scalar_type()));
    ++k;
  }
}

std::vector<std::vector<double>> read_rows(std::istream& in, size_t n) {
  std::vector<std::vector<double>> rows;
  std::string line;
  while (rows.size() < n && std::getline(in, line)) {
    std::istringstream ls(line);
    std::vector<double> row;
    for (double v; ls >> v;) row.push_back(v);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string tokenizer_path = EMBER_TEXT_CLASSIFY_DEFAULT_ROBERTA_TOKENIZER;
    std::optional<std::string> check, weights;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--check" && i + 1 < argc) {
        check = argv[++i];
      } else if (a == "--weights" && i + 1 < argc) {
        weights = argv[++i];
      } else {
        tokenizer_path = a;
      }
    }
    const auto tokenizer = ember::text::tokenizers::Tokenizer::from_file(tokenizer_path);
    const auto pad = tokenizer.token_to_id("<pad>");
    if (!pad.has_value()) throw std::runtime_error(tokenizer_path + " has no <pad> token");

    std::vector<std::vector<int64_t>> ids;
    size_t longest = 0;
    for (const std::string& s : kSentences) {
      const auto encoding = tokenizer.encode(s);
      ids.emplace_back(encoding.ids().begin(), encoding.ids().end());
      longest = std::max(longest, ids.back().size());
    }
    std::vector<int64_t> flat;
    for (const auto& row : ids) {
      for (size_t j = 0; j < longest; ++j) flat.push_back(j < row.size() ? row[j] : static_cast<int64_t>(*pad));
    }
    const ember::Tensor tokens =
        ember::tensor(flat, ember::kLong).reshape({static_cast<int64_t>(ids.size()), static_cast<int64_t>(longest)});

    const models::RobertaEncoderConf conf(tokenizer.get_vocab_size(), 16, 32, static_cast<int64_t>(*pad),
                                          static_cast<int64_t>(*pad) + 1 + 64, 2, 2);
    models::RobertaModel model =
        weights ? models::RobertaBundle::build_model(conf, models::RobertaClassificationHead(4, 16), false, *weights)
                : models::RobertaModel(conf, models::RobertaClassificationHead(4, 16));
    if (!weights) fill_deterministic(*model);
    model->eval();
    ember::NoGradGuard no_grad;
    const ember::Tensor scores = model->forward(tokens).to(ember::kDouble).contiguous();

    for (size_t i = 0; i < kSentences.size(); ++i) {
      std::printf("%-32s", ("\"" + kSentences[i] + "\"").c_str());
      for (int64_t c = 0; c < scores.size(1); ++c) {
        std::printf(" %+.5f", scores[static_cast<int64_t>(i)][c].item<double>());
      }
      std::printf("   (%zu tokens)\n", ids[i].size());
    }
    if (!check) return 0;
    std::ifstream in(*check);
    if (!in) throw std::runtime_error("cannot open " + *check);
    const auto expected_ids = read_rows(in, kSentences.size());
    const auto expected_scores = read_rows(in, kSentences.size());
    bool ok = expected_ids.size() == ids.size() && expected_scores.size() == ids.size();
    for (size_t i = 0; ok && i < ids.size(); ++i) {
      ok = expected_ids[i].size() == ids[i].size();
      for (size_t j = 0; ok && j < ids[i].size(); ++j) ok = expected_ids[i][j] == static_cast<double>(ids[i][j]);
      if (!ok) std::fprintf(stderr, "roberta_scores: the ids of sentence %zu differ from the reference's\n", i);
      for (size_t c = 0; ok && c < expected_scores[i].size(); ++c) {
        const double ours = scores[static_cast<int64_t>(i)][static_cast<int64_t>(c)].item<double>();
        ok = std::abs(ours - expected_scores[i][c]) <= 1e-4 + 1e-4 * std::abs(expected_scores[i][c]);
        if (!ok)
          std::fprintf(stderr, "roberta_scores: score %zu,%zu is %.6f, the reference's %.6f\n", i, c, ours,
                       expected_scores[i][c]);
      }
    }
    std::printf(ok ? "ids and scores match the reference\n" : "MISMATCH with the reference\n");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "roberta_scores: %s\n", e.what());
    return 2;
  }
}
