// Times ctc_decoder (beam 50, 1,000-word lexicon, 3-gram ARPA LM, 29 tokens)
// on peaky synthetic emissions and prints the time per frame. The lexicon and
// the LM are generated from a fixed seed into a temporary directory.
//   bench_audio_decoder [frames=2000] [utterances=5]
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "ember/audio/models/decoder.h"
#include "ember/ops/all_ops.h"

namespace {

namespace D = ::torch::audio::models::decoder;
namespace fs = std::filesystem;

struct Fixture {
  fs::path dir;
  std::vector<std::string> tokens;
  ~Fixture() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

void write_fixture(Fixture& f, std::mt19937& rng) {
  f.tokens = {"-", "|"};
  for (char c = 'a'; c <= 'z'; ++c) f.tokens.emplace_back(1, c);
  f.tokens.emplace_back("'");
  std::uniform_int_distribution<int> letter(2, 28), len(2, 8);
  std::set<std::string> words;
  std::vector<std::string> spell;
  while (words.size() < 1000) {
    std::string w;
    for (int i = len(rng); i > 0; --i) w += f.tokens[letter(rng)];
    words.insert(w);
  }
  std::vector<std::string> vocab(words.begin(), words.end());
  {
    std::ofstream lex(f.dir / "lexicon.txt");
    for (const auto& w : vocab) {
      lex << w;
      for (char c : w) lex << ' ' << c;
      lex << " |\n";
    }
    std::ofstream tok(f.dir / "tokens.txt");
    for (const auto& t : f.tokens) tok << t << '\n';
  }
  std::uniform_real_distribution<double> prob(-3.5, -0.5), bo(-0.6, 0.0);
  std::uniform_int_distribution<size_t> pick(0, vocab.size() - 1);
  std::set<std::pair<size_t, size_t>> bigrams;
  while (bigrams.size() < 20000) bigrams.insert({pick(rng), pick(rng)});
  std::vector<std::pair<size_t, size_t>> bg(bigrams.begin(), bigrams.end());
  std::uniform_int_distribution<size_t> pick_bg(0, bg.size() - 1);
  std::set<std::tuple<size_t, size_t, size_t>> trigrams;
  while (trigrams.size() < 30000) {
    auto [a, b] = bg[pick_bg(rng)];
    trigrams.insert({a, b, pick(rng)});
  }
  std::ofstream arpa(f.dir / "lm.arpa");
  arpa << "\\data\\\nngram 1=" << vocab.size() + 3 << "\nngram 2=" << bg.size() << "\nngram 3=" << trigrams.size()
       << "\n\n\\1-grams:\n-99\t<s>\t-0.3\n-1.5\t</s>\n-4\t<unk>\n";
  for (const auto& w : vocab) arpa << prob(rng) << '\t' << w << '\t' << bo(rng) << '\n';
  arpa << "\n\\2-grams:\n";
  for (auto [a, b] : bg) arpa << prob(rng) << '\t' << vocab[a] << ' ' << vocab[b] << '\t' << bo(rng) << '\n';
  arpa << "\n\\3-grams:\n";
  for (auto [a, b, c] : trigrams) arpa << prob(rng) << '\t' << vocab[a] << ' ' << vocab[b] << ' ' << vocab[c] << '\n';
  arpa << "\n\\end\\\n";
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t frames = argc > 1 ? std::stoll(argv[1]) : 2000;
  const int64_t utterances = argc > 2 ? std::stoll(argv[2]) : 5;
  std::mt19937 rng(1234);
  Fixture f;
  f.dir = fs::temp_directory_path() / ("ember_bench_decoder_" + std::to_string(std::random_device{}()));
  fs::create_directories(f.dir);
  write_fixture(f, rng);
  auto t0 = std::chrono::steady_clock::now();
  auto decoder = D::ctc_decoder((f.dir / "lexicon.txt").string(), (f.dir / "tokens.txt").string(),
                                (f.dir / "lm.arpa").string(), std::nullopt, 1, 50);
  auto t1 = std::chrono::steady_clock::now();
  // Peaky emissions: a dominant token (often blank) per frame, as a CTC model's.
  torch::manual_seed(0);
  const int64_t n = static_cast<int64_t>(f.tokens.size());
  torch::Tensor logits = torch::randn({utterances, frames, n}) * 2.0;
  torch::Tensor peak = torch::randint(0, n, {utterances, frames, 1});
  logits.scatter_add_(2, peak, torch::full({utterances, frames, 1}, 6.0));
  torch::Tensor emissions = torch::log_softmax(logits, -1);
  decoder(emissions.slice(0, 0, 1).slice(1, 0, std::min<int64_t>(frames, 100)));  // warm-up
  auto t2 = std::chrono::steady_clock::now();
  const std::clock_t c2 = std::clock();
  auto out = decoder(emissions);
  const std::clock_t c3 = std::clock();
  auto t3 = std::chrono::steady_clock::now();
  // CPU time too: on a shared machine the wall clock also counts waiting for a core.
  const double cpu_us = 1e6 * static_cast<double>(c3 - c2) / CLOCKS_PER_SEC;
  const double build_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  const double us = std::chrono::duration<double, std::micro>(t3 - t2).count();
  std::printf("ctc_decoder build (1000-word lexicon, 3-gram with 20000 bigrams, 30000 trigrams): %.1f ms\n", build_ms);
  const auto total = static_cast<double>(utterances * frames);
  std::printf(
      "beam 50, %lld tokens, %lld utterances x %lld frames: %.2f us/frame wall, %.2f us/frame CPU (best score %.2f)\n",
      static_cast<long long>(n), static_cast<long long>(utterances), static_cast<long long>(frames), us / total,
      cpu_us / total, out[0][0].score);
  return 0;
}
