# ember::text (torchtext + tokenizers + sentencepiece).
ember_domain_library(text)
