#include "ember/text/models/roberta_bundle.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>

#include "ember/core/error.h"
#include "ember/serialize/pt_reader.h"
#include "ember/serialize/safetensors.h"

namespace torch::text::models {

namespace {

constexpr const char* kTextBucket = "https://download.pytorch.org/models/text/";

StateDict read_checkpoint(const std::string& path) {
  const bool safetensors = path.size() >= 12 && path.compare(path.size() - 12, 12, ".safetensors") == 0;
  return safetensors ? serialize::load_safetensors(path) : serialize::load_pytorch_state_dict(path);
}

std::string base_name(const std::string& url) {
  const size_t slash = url.find_last_of('/');
  return slash == std::string::npos ? url : url.substr(slash + 1);
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

}  // namespace

namespace roberta::modules {

namespace {
constexpr std::array<std::pair<const char*, const char*>, 12> kOldToNew{{
    {"attention.input_projection.weight", "self_attn.in_proj_weight"},
    {"attention.input_projection.bias", "self_attn.in_proj_bias"},
    {"attention.output_projection.weight", "self_attn.out_proj.weight"},
    {"attention.output_projection.bias", "self_attn.out_proj.bias"},
    {"residual_mlp.mlp.0.weight", "linear1.weight"},
    {"residual_mlp.mlp.0.bias", "linear1.bias"},
    {"residual_mlp.mlp.3.weight", "linear2.weight"},
    {"residual_mlp.mlp.3.bias", "linear2.bias"},
    {"attention_layer_norm.weight", "norm1.weight"},
    {"attention_layer_norm.bias", "norm1.bias"},
    {"final_layer_norm.weight", "norm2.weight"},
    {"final_layer_norm.bias", "norm2.bias"},
}};
}  // namespace

StateDict translate_legacy_layer_state_dict(StateDict state_dict, const std::string& prefix) {
  for (auto& [key, tensor] : state_dict) {
    for (const auto& [old_suffix, new_suffix] : kOldToNew) {
      if (key == prefix + old_suffix) {
        key = prefix + "better_transformer." + new_suffix;
        break;
      }
    }
  }
  return state_dict;
}

StateDict translate_legacy_state_dict(StateDict state_dict) {
  for (auto& [key, tensor] : state_dict) {
    for (const auto& [old_suffix, new_suffix] : kOldToNew) {
      const std::string old_s = old_suffix;
      if (key.size() <= old_s.size() + 1 || key.compare(key.size() - old_s.size(), old_s.size(), old_s) != 0 ||
          key[key.size() - old_s.size() - 1] != '.') {
        continue;
      }
      // key = <p>layers.<i>.<old>
      const std::string head = key.substr(0, key.size() - old_s.size() - 1);  // <p>layers.<i>
      const size_t dot = head.find_last_of('.');
      if (dot == std::string::npos) continue;
      const std::string index = head.substr(dot + 1);
      const std::string stem = head.substr(0, dot + 1);  // <p>layers.
      const bool numeric = !index.empty() && std::all_of(index.begin(), index.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
      });
      if (!numeric || stem.size() < 7 || stem.compare(stem.size() - 7, 7, "layers.") != 0) continue;
      key = stem + "layers." + index + "." + new_suffix;
      break;
    }
  }
  return state_dict;
}

}  // namespace roberta::modules

RobertaBundle::RobertaBundle(std::string name_, RobertaEncoderConf encoder_conf, std::optional<std::string> path,
                             nn::AnyModule head, RobertaTokenizerKind tokenizer, int64_t truncate_to_)
    : name(std::move(name_)),
      _encoder_conf(encoder_conf),
      _path(std::move(path)),
      _head(std::move(head)),
      tokenizer_kind(tokenizer),
      truncate_to(truncate_to_) {}

RobertaModel RobertaBundle::get_model(nn::AnyModule head, bool load_weights, bool freeze_encoder,
                                      const DlKwargs& dl_kwargs) const {
  if (load_weights) {
    EMBER_CHECK(_path.has_value() || checkpoint_file.has_value(), name,
                ".get_model: load_weights cannot be True. The pre-trained model weights are not available for the "
                "current object");
    EMBER_CHECK(checkpoint_file.has_value(), name, ".get_model: Ember downloads nothing; fetch ", base_name(*_path),
                " from ", *_path, " and pass its location with ", name, ".with_path(\"/path/to/", base_name(*_path),
                "\")");
  }
  nn::AnyModule input_head = head.is_empty() ? _head : std::move(head);
  std::optional<Checkpoint> checkpoint;
  if (load_weights) checkpoint = Checkpoint(*checkpoint_file);
  return build_model(_encoder_conf, std::move(input_head), freeze_encoder, checkpoint, true, false, dl_kwargs);
}

RobertaModel RobertaBundle::build_model(const RobertaEncoderConf& encoder_conf, nn::AnyModule head, bool freeze_encoder,
                                        const std::optional<Checkpoint>& checkpoint, bool override_checkpoint_head,
                                        bool strict, const DlKwargs& /*dl_kwargs*/) {
  const bool has_head = !head.is_empty();
  RobertaModel model(encoder_conf, std::move(head), freeze_encoder);
  if (!checkpoint.has_value()) return model;
  StateDict state_dict = std::holds_alternative<std::string>(*checkpoint)
                             ? read_checkpoint(std::get<std::string>(*checkpoint))
                             : std::get<StateDict>(*checkpoint);
  state_dict = roberta::modules::translate_legacy_state_dict(std::move(state_dict));
  if (has_head) {
    // The checkpoint's head is replaced by the given head's own weights when it
    // lacks any of them, or when asked to (get_model always asks).
    StateDict head_state;
    for (const auto& item : model->state_dict()) {
      if (starts_with(item.key(), "head.")) head_state.emplace_back(item.key(), item.value().clone());
    }
    std::set<std::string> present;
    for (const auto& kv : state_dict) present.insert(kv.first);
    bool available = true;
    for (const auto& kv : head_state) available = available && present.count(kv.first) != 0;
    if (!available || override_checkpoint_head) {
      std::set<std::string> replaced;
      for (const auto& kv : head_state) replaced.insert(kv.first);
      StateDict merged;
      for (auto& kv : state_dict) {
        if (replaced.count(kv.first) == 0) merged.push_back(std::move(kv));
      }
      for (auto& kv : head_state) merged.push_back(std::move(kv));
      state_dict = std::move(merged);
    }
  }
  model->load_state_dict(state_dict, strict);
  return model;
}

transforms::Sequential RobertaBundle::transform() const {
  EMBER_CHECK(vocab.has_value() && !tokenizer_files.empty(), name,
              ".transform: Ember downloads nothing; give the tokenizer files and vocabulary with ", name,
              tokenizer_kind == RobertaTokenizerKind::SentencePiece
                  ? ".with_sentencepiece(\"/path/to/xlmr.sentencepiece.bpe.model\", vocab)"
                  : ".with_gpt2_bpe(\"/path/to/gpt2_bpe_encoder.json\", \"/path/to/gpt2_bpe_vocab.bpe\", vocab)");
  transforms::Sequential seq;
  if (tokenizer_kind == RobertaTokenizerKind::SentencePiece) {
    seq->push_back(transforms::SentencePieceTokenizer(tokenizer_files.at(0)).ptr());
  } else {
    EMBER_CHECK(tokenizer_files.size() == 2, name, ".transform: GPT-2 BPE needs encoder json and vocab bpe files");
    seq->push_back(transforms::GPT2BPETokenizer(tokenizer_files[0], tokenizer_files[1]).ptr());
  }
  seq->push_back(transforms::VocabTransform(*vocab).ptr());
  seq->push_back(transforms::Truncate(truncate_to).ptr());
  seq->push_back(transforms::AddToken(int64_t{0}, true).ptr());
  seq->push_back(transforms::AddToken(int64_t{2}, false).ptr());
  return seq;
}

RobertaBundle RobertaBundle::with_path(std::string file) const {
  RobertaBundle copy = *this;
  copy.checkpoint_file = std::move(file);
  return copy;
}

RobertaBundle RobertaBundle::with_sentencepiece(std::string sp_model_path, vocab::Vocab v) const {
  EMBER_CHECK(tokenizer_kind == RobertaTokenizerKind::SentencePiece, name,
              ".with_sentencepiece: this bundle tokenizes with GPT-2 BPE; use with_gpt2_bpe");
  RobertaBundle copy = *this;
  copy.tokenizer_files = {std::move(sp_model_path)};
  copy.vocab = std::move(v);
  return copy;
}

RobertaBundle RobertaBundle::with_gpt2_bpe(std::string encoder_json_path, std::string vocab_bpe_path,
                                           vocab::Vocab v) const {
  EMBER_CHECK(tokenizer_kind == RobertaTokenizerKind::GPT2BPE, name,
              ".with_gpt2_bpe: this bundle tokenizes with SentencePiece; use with_sentencepiece");
  RobertaBundle copy = *this;
  copy.tokenizer_files = {std::move(encoder_json_path), std::move(vocab_bpe_path)};
  copy.vocab = std::move(v);
  return copy;
}

const RobertaBundle XLMR_BASE_ENCODER("XLMR_BASE_ENCODER", RobertaEncoderConf(250002),
                                      std::string(kTextBucket) + "xlmr.base.encoder.pt", {},
                                      RobertaTokenizerKind::SentencePiece, 254);
const RobertaBundle XLMR_LARGE_ENCODER(
    "XLMR_LARGE_ENCODER",
    RobertaEncoderConf(250002).embedding_dim(1024).ffn_dimension(4096).num_attention_heads(16).num_encoder_layers(24),
    std::string(kTextBucket) + "xlmr.large.encoder.pt", {}, RobertaTokenizerKind::SentencePiece, 510);
const RobertaBundle ROBERTA_BASE_ENCODER("ROBERTA_BASE_ENCODER", RobertaEncoderConf(50265),
                                         std::string(kTextBucket) + "roberta.base.encoder.pt", {},
                                         RobertaTokenizerKind::GPT2BPE, 254);
const RobertaBundle ROBERTA_LARGE_ENCODER(
    "ROBERTA_LARGE_ENCODER",
    RobertaEncoderConf(50265).embedding_dim(1024).ffn_dimension(4096).num_attention_heads(16).num_encoder_layers(24),
    std::string(kTextBucket) + "roberta.large.encoder.pt", {}, RobertaTokenizerKind::GPT2BPE, 510);

}  // namespace torch::text::models
