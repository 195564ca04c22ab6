// text_classify: torchtext's text classification tutorial in C++. Reads an
// AG_NEWS-layout folder (root/datasets/AG_NEWS/{train,test}.csv) with
// ember::text::datasets::AG_NEWS, tokenizes with a tokenizer.json
// (ember::text::tokenizers), builds the vocabulary from the training tokens,
// trains EmbeddingBag(mean) + Linear with SGD and prints the accuracy.
//
//   text_classify [root] [tokenizer.json] [epochs] [min_test_accuracy]
//
// The exit status is 1 when the test accuracy stays below min_test_accuracy
// (the ctest's check that it learns).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include "ember/text/datasets.h"
#include "ember/text/tokenizers.h"
#include "ember/text/vocab.h"
#include "ember/torch.h"

namespace {

namespace text = ember::text;

struct Batch {
  ember::Tensor labels, tokens, offsets;
};

// The tutorial's collate_batch: labels 1..4 -> 0..3, token ids concatenated, offsets of each line.
Batch collate(const std::vector<text::datasets::LabelTextRow>& rows, const text::tokenizers::Tokenizer& tokenizer,
              const text::vocab::Vocab& vocab) {
  std::vector<int64_t> labels, ids, offsets;
  for (const auto& [label, line] : rows) {
    labels.push_back(label - 1);
    offsets.push_back(static_cast<int64_t>(ids.size()));
    for (int64_t id : vocab.lookup_indices(tokenizer.encode(line, false).tokens())) ids.push_back(id);
  }
  auto as_tensor = [](const std::vector<int64_t>& v) { return ember::tensor(v, ember::kLong); };
  return {as_tensor(labels), as_tensor(ids), as_tensor(offsets)};
}

class TextClassificationModelImpl : public ember::nn::Module {
 public:
  TextClassificationModelImpl(int64_t vocab_size, int64_t embed_dim, int64_t num_class)
      : embedding(register_module(
            "embedding",
            ember::nn::EmbeddingBag(ember::nn::EmbeddingBagOptions(vocab_size, embed_dim).mode(ember::kMean)))),
        fc(register_module("fc", ember::nn::Linear(embed_dim, num_class))) {
    // The tutorial's init_weights: uniform(-0.5, 0.5), zero bias.
    ember::NoGradGuard no_grad;
    embedding->weight.uniform_(-0.5, 0.5);
    fc->weight.uniform_(-0.5, 0.5);
    fc->bias.zero_();
  }
  ember::Tensor forward(const ember::Tensor& tokens, const ember::Tensor& offsets) {
    return fc->forward(embedding->forward(tokens, offsets));
  }
  ember::nn::EmbeddingBag embedding;
  ember::nn::Linear fc;
};
TORCH_MODULE(TextClassificationModel);

double accuracy(TextClassificationModel& model, const std::vector<Batch>& batches) {
  ember::NoGradGuard no_grad;
  model->eval();
  int64_t right = 0, total = 0;
  for (const Batch& b : batches) {
    right += model->forward(b.tokens, b.offsets).argmax(1).eq(b.labels).sum().item<int64_t>();
    total += b.labels.size(0);
  }
  return total == 0 ? 0.0 : static_cast<double>(right) / static_cast<double>(total);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string root = argc > 1 ? argv[1] : EMBER_TEXT_CLASSIFY_DEFAULT_ROOT;
    const std::string tokenizer_path = argc > 2 ? argv[2] : EMBER_TEXT_CLASSIFY_DEFAULT_TOKENIZER;
    const int epochs = argc > 3 ? std::atoi(argv[3]) : 10;
    const double min_accuracy = argc > 4 ? std::atof(argv[4]) : 0.0;
    ember::manual_seed(0);

    const auto tokenizer = text::tokenizers::Tokenizer::from_file(tokenizer_path);
    auto [train, test] = text::datasets::AG_NEWS(root);
    std::vector<std::vector<std::string>> train_tokens;
    int64_t num_class = 0;
    for (const auto& [label, line] : train) {
      train_tokens.push_back(tokenizer.encode(line, false).tokens());
      num_class = std::max(num_class, label);
    }
    text::vocab::Vocab vocab = text::vocab::build_vocab_from_iterator(train_tokens, 1, {"<unk>"});
    vocab.set_default_index(vocab["<unk>"]);
    std::printf("train %zu lines, test %zu lines, %lld classes, vocabulary %lld tokens\n", *train.size(), *test.size(),
                static_cast<long long>(num_class), static_cast<long long>(vocab.size()));

    // Shuffled training batches each epoch through the DataLoader; the test set batched once.
    auto loader = ember::data::make_data_loader<ember::data::samplers::RandomSampler>(
        train, ember::data::DataLoaderOptions().batch_size(16));
    std::vector<Batch> test_batches;
    for (size_t i = 0; i < *test.size(); i += 64) {
      std::vector<text::datasets::LabelTextRow> rows;
      for (size_t j = i; j < std::min(*test.size(), i + 64); ++j) rows.push_back(test.get(j));
      test_batches.push_back(collate(rows, tokenizer, vocab));
    }

    TextClassificationModel model(vocab.size(), 32, num_class);
    ember::optim::SGD optimizer(model->parameters(), ember::optim::SGDOptions(5.0));
    for (int epoch = 1; epoch <= epochs; ++epoch) {
      model->train();
      double loss_sum = 0;
      int steps = 0;
      for (const auto& rows : *loader) {
        const Batch b = collate(rows, tokenizer, vocab);
        optimizer.zero_grad();
        const ember::Tensor loss = ember::nn::functional::cross_entropy(model->forward(b.tokens, b.offsets), b.labels);
        loss.backward();
        ember::nn::utils::clip_grad_norm_(model->parameters(), 0.1);
        optimizer.step();
        loss_sum += loss.item<double>();
        ++steps;
      }
      std::printf("epoch %d  loss %.4f  test accuracy %.3f\n", epoch, loss_sum / std::max(steps, 1),
                  accuracy(model, test_batches));
    }
    const double final_accuracy = accuracy(model, test_batches);
    std::printf("test accuracy %.3f (chance %.3f)\n", final_accuracy, 1.0 / static_cast<double>(num_class));
    if (final_accuracy < min_accuracy) {
      std::fprintf(stderr, "text_classify: test accuracy %.3f is below %.3f\n", final_accuracy, min_accuracy);
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "text_classify: %s\n", e.what());
    return 2;
  }
}
