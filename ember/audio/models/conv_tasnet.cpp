#include "ember/audio/models/conv_tasnet.h"

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::models {
namespace conv_tasnet {

ConvBlockImpl::ConvBlockImpl(int64_t io_channels, int64_t hidden_channels, int64_t kernel_size, int64_t padding,
                             int64_t dilation, bool no_residual) {
  conv_layers = register_module(
      "conv_layers", nn::Sequential(nn::Conv1d(nn::Conv1dOptions(io_channels, hidden_channels, 1)), nn::PReLU(),
                                    nn::GroupNorm(nn::GroupNormOptions(1, hidden_channels).eps(1e-8)),
                                    nn::Conv1d(nn::Conv1dOptions(hidden_channels, hidden_channels, kernel_size)
                                                   .padding(padding)
                                                   .dilation(dilation)
                                                   .groups(hidden_channels)),
                                    nn::PReLU(), nn::GroupNorm(nn::GroupNormOptions(1, hidden_channels).eps(1e-8))));
  if (!no_residual)
    res_out = register_module("res_out", nn::Conv1d(nn::Conv1dOptions(hidden_channels, io_channels, 1)));
  skip_out = register_module("skip_out", nn::Conv1d(nn::Conv1dOptions(hidden_channels, io_channels, 1)));
}

std::tuple<std::optional<Tensor>, Tensor> ConvBlockImpl::forward(const Tensor& input) {
  Tensor feature = conv_layers->forward(input);
  std::optional<Tensor> residual;
  if (!res_out.is_empty()) residual = res_out->forward(feature);
  return {residual, skip_out->forward(feature)};
}

MaskGeneratorImpl::MaskGeneratorImpl(int64_t input_dim_, int64_t num_sources_, int64_t kernel_size, int64_t num_feats,
                                     int64_t num_hidden, int64_t num_layers, int64_t num_stacks,
                                     const std::string& msk_activate)
    : input_dim(input_dim_), num_sources(num_sources_), relu_mask(msk_activate == "relu") {
  EMBER_CHECK(msk_activate == "sigmoid" || msk_activate == "relu", "ConvTasNet: unsupported msk_activate \"",
              msk_activate, "\" (expected \"sigmoid\" or \"relu\")");
  input_norm = register_module("input_norm", nn::GroupNorm(nn::GroupNormOptions(1, input_dim).eps(1e-8)));
  input_conv = register_module("input_conv", nn::Conv1d(nn::Conv1dOptions(input_dim, num_feats, 1)));
  conv_layers = register_module("conv_layers", nn::ModuleList());
  for (int64_t s = 0; s < num_stacks; ++s) {
    for (int64_t l = 0; l < num_layers; ++l) {
      const int64_t multi = int64_t{1} << l;
      conv_layers->push_back(
          ConvBlock(num_feats, num_hidden, kernel_size, multi, multi, l == num_layers - 1 && s == num_stacks - 1));
      receptive_field += (s == 0 && l == 0) ? kernel_size : (kernel_size - 1) * multi;
    }
  }
  output_prelu = register_module("output_prelu", nn::PReLU());
  output_conv = register_module("output_conv", nn::Conv1d(nn::Conv1dOptions(num_feats, input_dim * num_sources, 1)));
}

Tensor MaskGeneratorImpl::forward(const Tensor& input) {
  const int64_t batch = input.size(0);
  Tensor feats = input_conv->forward(input_norm->forward(input));
  Tensor output;
  for (const auto& module : *conv_layers) {
    auto [residual, skip] = module->as<ConvBlockImpl>()->forward(feats);
    if (residual) feats = feats + *residual;
    output = output.defined() ? output + skip : skip;
  }
  output = output_conv->forward(output_prelu->forward(output));
  output = relu_mask ? relu(output) : sigmoid(output);
  return output.view({batch, num_sources, input_dim, -1});
}

}  // namespace conv_tasnet

ConvTasNetImpl::ConvTasNetImpl(const ConvTasNetOptions& options_)
    : options(options_), enc_stride(options_.enc_kernel_size() / 2) {
  EMBER_CHECK(options.enc_kernel_size() >= 2, "ConvTasNet: enc_kernel_size must be at least 2, got ",
              options.enc_kernel_size());
  EMBER_CHECK(options.num_sources() > 0 && options.enc_num_feats() > 0 && options.msk_num_feats() > 0 &&
                  options.msk_num_hidden_feats() > 0 && options.msk_num_layers() > 0 && options.msk_num_stacks() > 0,
              "ConvTasNet: every size must be positive");
  encoder =
      register_module("encoder", nn::Conv1d(nn::Conv1dOptions(1, options.enc_num_feats(), options.enc_kernel_size())
                                                .stride(enc_stride)
                                                .padding(enc_stride)
                                                .bias(false)));
  mask_generator = register_module(
      "mask_generator",
      conv_tasnet::MaskGenerator(options.enc_num_feats(), options.num_sources(), options.msk_kernel_size(),
                                 options.msk_num_feats(), options.msk_num_hidden_feats(), options.msk_num_layers(),
                                 options.msk_num_stacks(), options.msk_activate()));
  decoder = register_module(
      "decoder", nn::ConvTranspose1d(nn::ConvTranspose1dOptions(options.enc_num_feats(), 1, options.enc_kernel_size())
                                         .stride(enc_stride)
                                         .padding(enc_stride)
                                         .bias(false)));
}

Tensor ConvTasNetImpl::forward(const Tensor& input) {
  EMBER_CHECK(input.dim() == 3 && input.size(1) == 1,
              "ConvTasNet: expected a 3D tensor (batch, channel==1, frames), got ", input.sizes());
  EMBER_CHECK(input.is_floating_point(), "ConvTasNet: expected a floating-point input, got ", input.scalar_type());
  const int64_t batch = input.size(0), frames = input.size(2);
  // Pad so the encoder's strides tile the signal exactly; the padding is cut from the output.
  const int64_t is_odd = options.enc_kernel_size() % 2;
  EMBER_CHECK(frames > is_odd, "ConvTasNet: the input has too few frames: ", frames);
  const int64_t num_strides = (frames - is_odd) / enc_stride;
  const int64_t remaining = frames - (is_odd + num_strides * enc_stride);
  const int64_t num_pads = remaining == 0 ? 0 : enc_stride - remaining;
  Tensor padded = num_pads == 0 ? input : cat({input, zeros({batch, 1, num_pads}, input.options())}, 2);
  const int64_t padded_frames = padded.size(2);
  Tensor feats = encoder->forward(padded);
  Tensor masked = mask_generator->forward(feats) * feats.unsqueeze(1);
  masked = masked.view({batch * options.num_sources(), options.enc_num_feats(), -1});
  Tensor output = decoder->forward(masked).view({batch, options.num_sources(), padded_frames});
  if (num_pads > 0) output = output.narrow(2, 0, padded_frames - num_pads);
  return output;
}

ConvTasNet conv_tasnet_base(int64_t num_sources) {
  return ConvTasNet(ConvTasNetOptions()
                        .num_sources(num_sources)
                        .enc_kernel_size(16)
                        .enc_num_feats(512)
                        .msk_kernel_size(3)
                        .msk_num_feats(128)
                        .msk_num_hidden_feats(512)
                        .msk_num_layers(8)
                        .msk_num_stacks(3)
                        .msk_activate("relu"));
}

}  // namespace torch::audio::models
