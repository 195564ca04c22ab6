// Tokenizer throughput: ember::text's tokenizer.json BPE and WordPiece and
// its SentencePieceProcessor, line by line on one thread (thread CPU time),
// encode_batch on one and two threads (wall time), and the resident memory of
// a loaded tokenizer. With EMBER_BENCH_HAVE_SENTENCEPIECE the sentencepiece
// library encodes the same lines with the same model, and the ids are compared.
//   text_tokenizers_bench corpus.txt bpe.json wordpiece.json model.model [big_bpe.json]
//   text_tokenizers_bench --rss tokenizer.json
//   text_tokenizers_bench --loop tokenizer.json corpus.txt rounds   (line-by-line encode only, for perf)
//   text_tokenizers_bench --batch tokenizer.json corpus.txt rounds  (encode_batch on one thread only)
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ember/core/parallel.h"
#include "ember/text/sentencepiece.h"
#include "ember/text/tokenizers.h"

#ifdef EMBER_BENCH_HAVE_SENTENCEPIECE
#include <sentencepiece_processor.h>
#endif

namespace {

using ember::text::tokenizers::Tokenizer;

double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}
double process_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}
double wall_seconds() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

std::vector<std::string> read_lines(const std::string& path, size_t& bytes) {
  std::ifstream f(path);
  std::vector<std::string> lines;
  bytes = 0;
  for (std::string l; std::getline(f, l);) {
    bytes += l.size() + 1;
    lines.push_back(l);
  }
  return lines;
}

// Best of `rounds` runs of f, in seconds of the given clock.
template <typename F>
double best_of(int rounds, double (*clock)(), F&& f) {
  double best = 1e30;
  for (int r = 0; r < rounds; ++r) {
    const double t0 = clock();
    f();
    best = std::min(best, clock() - t0);
  }
  return best;
}

long rss_kib() {
  std::ifstream f("/proc/self/status");
  for (std::string l; std::getline(f, l);)
    if (l.rfind("VmRSS:", 0) == 0) return std::stol(l.substr(6));
  return -1;
}

void report(const char* name, double seconds, size_t bytes) {
  std::printf("%-34s %8.2f MB/s  (%.3f s)\n", name, static_cast<double>(bytes) / seconds / 1e6, seconds);
}

void bench_tokenizer(const char* name, const std::string& path, const std::vector<std::string>& lines, size_t bytes) {
  const Tokenizer tok = Tokenizer::from_file(path);
  size_t n = 0;
  const double t = best_of(3, thread_seconds, [&] {
    for (const auto& l : lines) n += tok.encode(l, false).ids().size();
  });
  report((std::string(name) + " encode, 1 thread").c_str(), t, bytes);
  // Wall time for the scaling; CPU time of all threads shows the work per byte
  // (on a loaded machine wall time mostly measures the other processes).
  ember::set_num_threads(1);
  const double c1 = best_of(2, process_seconds, [&] { n += tok.encode_batch(lines, false).size(); });
  const double b1 = best_of(2, wall_seconds, [&] { n += tok.encode_batch(lines, false).size(); });
  ember::set_num_threads(2);
  const double c2 = best_of(2, process_seconds, [&] { n += tok.encode_batch(lines, false).size(); });
  const double b2 = best_of(2, wall_seconds, [&] { n += tok.encode_batch(lines, false).size(); });
  report((std::string(name) + " encode_batch, 1 thread, CPU").c_str(), c1, bytes);
  report((std::string(name) + " encode_batch, 2 threads, CPU").c_str(), c2, bytes);
  report((std::string(name) + " encode_batch, 1 thread, wall").c_str(), b1, bytes);
  report((std::string(name) + " encode_batch, 2 threads, wall").c_str(), b2, bytes);
  std::printf("%-34s %8.2fx\n", (std::string(name) + " batch wall 2 threads / 1").c_str(), b1 / b2);
  if (n == 0) std::printf("(no tokens)\n");
}

void bench_sentencepiece(const std::string& path, const std::vector<std::string>& lines, size_t bytes) {
  const ember::text::sentencepiece::SentencePieceProcessor sp(path);
  size_t n = 0;
  const double t = best_of(3, thread_seconds, [&] {
    for (const auto& l : lines) n += sp.encode_as_ids(l).size();
  });
  report("sentencepiece (ember) encode", t, bytes);
#ifdef EMBER_BENCH_HAVE_SENTENCEPIECE
  ::sentencepiece::SentencePieceProcessor ref;
  if (!ref.Load(path).ok()) {
    std::printf("libsentencepiece cannot load %s\n", path.c_str());
    return;
  }
  std::vector<int> ids;
  const double r = best_of(3, thread_seconds, [&] {
    for (const auto& l : lines) {
      ref.Encode(l, &ids);
      n += ids.size();
    }
  });
  report("sentencepiece (library) encode", r, bytes);
  std::printf("%-34s %8.2fx\n", "sentencepiece ember / library", r / t);
  size_t mismatches = 0;
  for (const auto& l : lines) {
    ref.Encode(l, &ids);
    const auto mine = sp.encode_as_ids(l);
    if (!std::equal(mine.begin(), mine.end(), ids.begin(), ids.end())) ++mismatches;
  }
  std::printf("%-34s %zu of %zu lines differ\n", "sentencepiece check", mismatches, lines.size());
#endif
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--rss") == 0) {
    const long before = rss_kib();
    const Tokenizer tok = Tokenizer::from_file(argv[2]);
    const long after = rss_kib();
    std::printf("%-34s %8.2f MiB (vocabulary %lld)\n", "loaded tokenizer resident", (after - before) / 1024.0,
                static_cast<long long>(tok.get_vocab_size()));
    return 0;
  }
  if (argc == 5 && std::strcmp(argv[1], "--batch") == 0) {
    const Tokenizer tok = Tokenizer::from_file(argv[2]);
    size_t bytes = 0, n = 0;
    const auto lines = read_lines(argv[3], bytes);
    ember::set_num_threads(1);
    const double t = best_of(std::atoi(argv[4]), process_seconds, [&] { n += tok.encode_batch(lines, false).size(); });
    report("encode_batch, 1 thread, CPU", t, bytes);
    return n == 0;
  }
  if (argc == 5 && std::strcmp(argv[1], "--loop") == 0) {
    const Tokenizer tok = Tokenizer::from_file(argv[2]);
    size_t bytes = 0, n = 0;
    const auto lines = read_lines(argv[3], bytes);
    const int rounds = std::atoi(argv[4]);
    const double t = best_of(rounds, thread_seconds, [&] {
      for (const auto& l : lines) n += tok.encode(l, false).ids().size();
    });
    report("encode, 1 thread", t, bytes);
    std::printf("%-34s %8.3f per byte\n", "tokens", static_cast<double>(n) / rounds / static_cast<double>(bytes));
    return 0;
  }
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s corpus bpe.json wordpiece.json model.model | --rss tokenizer.json\n", argv[0]);
    return 2;
  }
  size_t bytes = 0;
  const auto lines = read_lines(argv[1], bytes);
  std::printf("corpus: %zu lines, %.2f MB\n", lines.size(), static_cast<double>(bytes) / 1e6);
  bench_tokenizer("byte-level BPE", argv[2], lines, bytes);
  bench_tokenizer("WordPiece", argv[3], lines, bytes);
  bench_sentencepiece(argv[4], lines, bytes);
  return 0;
}
