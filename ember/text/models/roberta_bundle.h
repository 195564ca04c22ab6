#pragma once
// torchtext.models.RobertaBundle and its four bundles (XLMR_BASE_ENCODER,
// XLMR_LARGE_ENCODER, ROBERTA_BASE_ENCODER, ROBERTA_LARGE_ENCODER).
//
// Nothing is downloaded. A bundle names its checkpoint (_path, torchtext's url)
// and loads it from the file the user points at with with_path(); its text
// transform is torchtext's composition over the tokenizer files and vocabulary
// the user gives with with_sentencepiece() (XLM-R) or with_gpt2_bpe() (RoBERTa).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/nn/modules/container/any.h"
#include "ember/text/models/roberta_encoder_conf.h"
#include "ember/text/models/roberta_model.h"
#include "ember/text/transforms.h"
#include "ember/text/vocab.h"

namespace torch::text::models {

using StateDict = std::vector<std::pair<std::string, Tensor>>;
// A checkpoint as build_model takes it: a file (.pt/.pth from torch.save, or
// .safetensors) or the tensors themselves.
using Checkpoint = std::variant<std::string, StateDict>;
// Python's dl_kwargs for torch.hub; accepted for the signature, unused (no downloads).
using DlKwargs = std::map<std::string, std::string>;

// Which text transform a bundle composes (torchtext's lambdas).
enum class RobertaTokenizerKind { SentencePiece, GPT2BPE };

struct RobertaBundle {
  RobertaBundle(std::string name, RobertaEncoderConf encoder_conf, std::optional<std::string> path = std::nullopt,
                nn::AnyModule head = {}, RobertaTokenizerKind tokenizer = RobertaTokenizerKind::SentencePiece,
                int64_t truncate_to = 254);
  // Python's RobertaBundle(_encoder_conf, _path=None, _head=None), named "RobertaBundle".
  explicit RobertaBundle(RobertaEncoderConf encoder_conf, std::optional<std::string> path = std::nullopt,
                         nn::AnyModule head = {})
      : RobertaBundle("RobertaBundle", encoder_conf, std::move(path), std::move(head)) {}

  // get_model(head=None, load_weights=True, freeze_encoder=False, dl_kwargs=None):
  // the model, its encoder loaded from the file given with with_path() (raises
  // naming the checkpoint when there is none); head replaces the bundle's own.
  RobertaModel get_model(nn::AnyModule head = {}, bool load_weights = true, bool freeze_encoder = false,
                         const DlKwargs& dl_kwargs = {}) const;
  template <typename Head, typename = std::enable_if_t<nn::detail::is_module_holder_v<std::decay_t<Head>>>>
  RobertaModel get_model(Head head, bool load_weights = true, bool freeze_encoder = false,
                         const DlKwargs& dl_kwargs = {}) const {
    return get_model(nn::AnyModule(std::move(head)), load_weights, freeze_encoder, dl_kwargs);
  }

  // RobertaBundle.build_model(encoder_conf, head=None, freeze_encoder=False,
  // checkpoint=None, override_checkpoint_head=False, strict=False, dl_kwargs=None).
  // Checkpoints in torchtext's pre-0.13 layout ("layers.0.attention.input_projection.weight")
  // load under today's names, as torchtext's _load_from_state_dict renames them.
  static RobertaModel build_model(const RobertaEncoderConf& encoder_conf, nn::AnyModule head = {},
                                  bool freeze_encoder = false,
                                  const std::optional<Checkpoint>& checkpoint = std::nullopt,
                                  bool override_checkpoint_head = false, bool strict = false,
                                  const DlKwargs& dl_kwargs = {});

  template <typename Head, typename = std::enable_if_t<nn::detail::is_module_holder_v<std::decay_t<Head>>>>
  static RobertaModel build_model(const RobertaEncoderConf& encoder_conf, Head head, bool freeze_encoder = false,
                                  const std::optional<Checkpoint>& checkpoint = std::nullopt,
                                  bool override_checkpoint_head = false, bool strict = false,
                                  const DlKwargs& dl_kwargs = {}) {
    return build_model(encoder_conf, nn::AnyModule(std::move(head)), freeze_encoder, checkpoint,
                       override_checkpoint_head, strict, dl_kwargs);
  }

  // The bundle's text transform: Sequential(tokenizer, VocabTransform(vocab),
  // Truncate(254 or 510), AddToken(0, begin), AddToken(2, end)). Raises when the
  // tokenizer files were not given.
  transforms::Sequential transform() const;

  const RobertaEncoderConf& encoderConf() const { return _encoder_conf; }

  // A copy that loads its weights from `checkpoint_file`.
  RobertaBundle with_path(std::string checkpoint_file) const;
  // A copy whose transform() uses this SentencePiece model and vocabulary (XLM-R's
  // xlmr.sentencepiece.bpe.model and the vocabulary of xlmr.vocab.pt).
  RobertaBundle with_sentencepiece(std::string sp_model_path, vocab::Vocab vocab) const;
  // A copy whose transform() uses GPT-2's BPE files and this vocabulary (RoBERTa's
  // gpt2_bpe_encoder.json, gpt2_bpe_vocab.bpe and the vocabulary of roberta.vocab.pt).
  RobertaBundle with_gpt2_bpe(std::string encoder_json_path, std::string vocab_bpe_path, vocab::Vocab vocab) const;

  std::string name;  // "XLMR_BASE_ENCODER"
  RobertaEncoderConf _encoder_conf;
  std::optional<std::string> _path;  // torchtext's url of the checkpoint
  nn::AnyModule _head;
  RobertaTokenizerKind tokenizer_kind;
  int64_t truncate_to;
  // Set by with_path / with_sentencepiece / with_gpt2_bpe.
  std::optional<std::string> checkpoint_file;
  std::vector<std::string> tokenizer_files;
  std::optional<vocab::Vocab> vocab;
};

extern const RobertaBundle XLMR_BASE_ENCODER;
extern const RobertaBundle XLMR_LARGE_ENCODER;
extern const RobertaBundle ROBERTA_BASE_ENCODER;
extern const RobertaBundle ROBERTA_LARGE_ENCODER;

namespace roberta::modules {
// torchtext's renaming of pre-0.13 checkpoint keys: "<p>layers.<i>.<old>" ->
// "<p>layers.layers.<i>.<new>" (attention.input_projection -> self_attn.in_proj_*,
// residual_mlp.mlp.0/3 -> linear1/2, attention_layer_norm/final_layer_norm -> norm1/2).
StateDict translate_legacy_state_dict(StateDict state_dict);
// The same renaming for a standalone TransformerEncoderLayer under `prefix`
// ("<prefix>attention.input_projection.weight" -> "<prefix>better_transformer.self_attn.in_proj_weight").
StateDict translate_legacy_layer_state_dict(StateDict state_dict, const std::string& prefix = "");
}  // namespace roberta::modules

}  // namespace torch::text::models
