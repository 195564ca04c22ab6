// Differential check of ember::text::sentencepiece against Debian's
// libsentencepiece 0.1.97: random strings assembled from hostile atoms
// (combining marks, bidi controls, ZWJ, astral and full-width characters,
// invalid UTF-8, special-piece spellings) are encoded to ids and pieces and
// decoded by both; every random id sequence is decoded too.
//   sentencepiece_diff model.model [...]   (prints mismatches, exits 1 on any)
#include <sentencepiece_processor.h>
#include <cstdio>
#include <random>
#include <string>
#include <vector>
#include "ember/text/sentencepiece.h"
int main(int argc, char** argv) {
  std::mt19937 rng(7);
  const std::vector<std::string> atoms = {"a",
                                          "b",
                                          "e",
                                          "the",
                                          "▁",
                                          " ",
                                          "  ",
                                          "\t",
                                          "\n",
                                          "\x00",
                                          "\xcc\x81",
                                          "\xe2\x80\xae",
                                          "\xe2\x80\x8d",
                                          "\xf0\x9f\x91\xa8",
                                          "\xf0\x9f\x8f\xbd",
                                          "\xef\xbc\xa1",
                                          "\xef\xac\x81",
                                          "\xe2\x85\xab",
                                          "日",
                                          "本",
                                          "語",
                                          "\xc3\xa9",
                                          "E",
                                          "\xc3\x89",
                                          "<sep>",
                                          "[MASK]",
                                          "<cls>",
                                          "<s>",
                                          "</s>",
                                          "<unk>",
                                          "\xff",
                                          "\xc3",
                                          "\xed\xa0\x80",
                                          "\xf0\x9f\x98",
                                          "\xc0\xaf",
                                          "\x80",
                                          "1",
                                          "23",
                                          "4.5",
                                          "\xc2\xa0",
                                          "\xe3\x80\x80",
                                          "\xef\xbb\xbf",
                                          "\xc2\xad",
                                          "ß",
                                          "İ",
                                          "ς",
                                          "Σ",
                                          "\xea\xb0\x80",
                                          "\xe1\x84\x80",
                                          "\xe1\x85\xa1",
                                          "hello",
                                          "world",
                                          "ing",
                                          "tion",
                                          " the ",
                                          "\xef\xbf\xbd",
                                          "x",
                                          "\r\n",
                                          "\x7f",
                                          "\x01"};
  long bad = 0, total = 0;
  for (int m = 1; m < argc; ++m) {
    sentencepiece::SentencePieceProcessor ref;
    if (!ref.Load(argv[m]).ok()) {
      std::printf("cannot load %s\n", argv[m]);
      continue;
    }
    ember::text::sentencepiece::SentencePieceProcessor mine(argv[m]);
    for (int it = 0; it < 20000; ++it) {
      std::string s;
      int n = rng() % 12;
      for (int k = 0; k < n; ++k) s += atoms[rng() % atoms.size()];
      std::vector<int> ids;
      std::vector<std::string> pieces;
      std::string text, text2;
      ref.Encode(s, &ids);
      ref.Encode(s, &pieces);
      auto my_ids = mine.encode_as_ids(s);
      auto my_pieces = mine.encode_as_pieces(s);
      ref.Decode(ids, &text);
      ref.Decode(pieces, &text2);
      std::vector<int64_t> ids64(ids.begin(), ids.end());
      bool ok = my_ids == ids64 && my_pieces == pieces && mine.decode_ids(ids64) == text &&
                mine.decode_pieces(pieces) == text2;
      // random id decode
      std::vector<int> rid;
      for (int k = 0; k < (int)(rng() % 6); ++k) rid.push_back(rng() % ref.GetPieceSize());
      std::string t3;
      ref.Decode(rid, &t3);
      ok = ok && mine.decode_ids(std::vector<int64_t>(rid.begin(), rid.end())) == t3;
      ++total;
      if (!ok && bad++ < 5) {
        std::printf("MISMATCH %s input:", argv[m]);
        for (unsigned char c : s) std::printf(" %02x", c);
        std::printf("\n");
      }
    }
  }
  std::printf("sentencepiece differential: %ld of %ld inputs differ\n", bad, total);
  return bad == 0 ? 0 : 1;
}
