#pragma once
// ember::text — torchtext, Hugging Face tokenizers and sentencepiece in C++
// (libember_text, target Ember::text; DOMAIN_API.md gives the spelling rule:
// torchtext.X.f is ember::text::X::f, tokenizers.Tokenizer is
// ember::text::tokenizers::Tokenizer).
#include "ember/text/datasets.h"
#include "ember/text/functional.h"
#include "ember/text/models.h"
#include "ember/text/sentencepiece.h"
#include "ember/text/tokenizers.h"
#include "ember/text/transforms.h"
#include "ember/text/vocab.h"
