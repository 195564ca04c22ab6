#pragma once
// ember::text::tokenizers — Hugging Face `tokenizers` in C++ (Tokenizer,
// Encoding, ByteLevelBPETokenizer, BertWordPieceTokenizer).
#include "ember/text/tokenizers/encoding.h"
#include "ember/text/tokenizers/tokenizer.h"
