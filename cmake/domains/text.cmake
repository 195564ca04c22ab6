# ember::text (torchtext + tokenizers + sentencepiece): Unicode properties,
# case mapping, normalization, grapheme breaks and regular expressions (icu-i18n)
# from ICU (Debian: libicu-dev); tokenizer.json
# is parsed with nlohmann-json (Debian: nlohmann-json3-dev, as the core does).
pkg_check_modules(EMBER_TEXT_ICU REQUIRED IMPORTED_TARGET icu-uc icu-i18n)
ember_domain_library(text PRIVATE_DEPS PkgConfig::EMBER_TEXT_ICU nlohmann_json::nlohmann_json)
