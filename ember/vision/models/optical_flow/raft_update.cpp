// RAFT's recurrent update: MotionEncoder, ConvGRU, RecurrentBlock, FlowHead,
// UpdateBlock and the convex-upsampling MaskPredictor
// (torchvision.models.optical_flow.raft).
#include "ember/core/error.h"
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/linear.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/models/optical_flow/raft.h"

namespace torch::vision::models::optical_flow {

namespace {

// Conv2dNormActivation(in, out, norm_layer=None, kernel_size=k): conv with bias, then ReLU.
ops::Conv2dNormActivation conv_relu(int64_t in, int64_t out, int64_t kernel) {
  return ops::Conv2dNormActivation(
      ops::Conv2dNormActivationOptions(in, out).kernel_size(kernel).norm_layer(std::nullopt));
}

void check_map(const Tensor& x, int64_t c, const char* op, const char* what) {
  EMBER_CHECK(x.defined() && x.dim() == 4 && x.size(1) == c, op, ": expected ", what, " of shape (N, ", c,
              ", H, W), got ", x.defined() ? x.sizes() : IntArrayRef{});
}

ExpandingArray<2> pair_of(const std::vector<int64_t>& v, const char* what) {
  EMBER_CHECK(v.size() == 1 || v.size() == 2, "RecurrentBlock: each ", what, " must have 1 or 2 values, got ",
              IntArrayRef(v));
  return v.size() == 1 ? ExpandingArray<2>(v[0]) : ExpandingArray<2>({v[0], v[1]});
}

}  // namespace

MotionEncoderImpl::MotionEncoderImpl(const MotionEncoderOptions& options_) : options(options_) { reset(); }

void MotionEncoderImpl::reset() {
  const auto& o = options;
  EMBER_CHECK(o.flow_layers().size() == 2, "MotionEncoder: The expected number of flow_layers is 2, instead got ",
              o.flow_layers().size());
  EMBER_CHECK(o.corr_layers().size() == 1 || o.corr_layers().size() == 2,
              "MotionEncoder: The number of corr_layers should be 1 or 2, instead got ", o.corr_layers().size());
  EMBER_CHECK(o.out_channels() > 2, "MotionEncoder: out_channels must exceed 2, got ", o.out_channels());
  convcorr1 = register_module("convcorr1", conv_relu(o.in_channels_corr(), o.corr_layers()[0], 1));
  if (o.corr_layers().size() == 2) {
    convcorr2 = nn::AnyModule(conv_relu(o.corr_layers()[0], o.corr_layers()[1], 3));
  } else {
    convcorr2 = nn::AnyModule(nn::Identity());
  }
  register_module("convcorr2", convcorr2.ptr());
  convflow1 = register_module("convflow1", conv_relu(2, o.flow_layers()[0], 7));
  convflow2 = register_module("convflow2", conv_relu(o.flow_layers()[0], o.flow_layers()[1], 3));
  conv = register_module("conv", conv_relu(o.corr_layers().back() + o.flow_layers().back(), o.out_channels() - 2, 3));
  out_channels = o.out_channels();
}

Tensor MotionEncoderImpl::forward(const Tensor& flow, const Tensor& corr_features) {
  check_map(flow, 2, "MotionEncoder", "flow");
  check_map(corr_features, options.in_channels_corr(), "MotionEncoder", "corr_features");
  const Tensor corr = convcorr2.forward(convcorr1->forward(corr_features));
  const Tensor f = convflow2->forward(convflow1->forward(flow));
  const Tensor corr_flow = conv->forward(cat({corr, f}, 1));
  return cat({corr_flow, flow}, 1);
}

ConvGRUImpl::ConvGRUImpl(const ConvGRUOptions& options_) : options(options_) { reset(); }

void ConvGRUImpl::reset() {
  const auto& o = options;
  EMBER_CHECK(o.input_size() > 0 && o.hidden_size() > 0, "ConvGRU: input_size and hidden_size must be positive, got ",
              o.input_size(), " and ", o.hidden_size());
  auto make = [&] {
    return nn::Conv2d(
        nn::Conv2dOptions(o.hidden_size() + o.input_size(), o.hidden_size(), o.kernel_size()).padding(o.padding()));
  };
  convz = register_module("convz", make());
  convr = register_module("convr", make());
  convq = register_module("convq", make());
}

Tensor ConvGRUImpl::forward(const Tensor& h, const Tensor& x) {
  check_map(h, options.hidden_size(), "ConvGRU", "h");
  check_map(x, options.input_size(), "ConvGRU", "x");
  const Tensor hx = cat({h, x}, 1);
  const Tensor z = sigmoid(convz->forward(hx));
  const Tensor r = sigmoid(convr->forward(hx));
  const Tensor q = tanh(convq->forward(cat({r * h, x}, 1)));
  return (1.0 - z) * h + z * q;
}

RecurrentBlockImpl::RecurrentBlockImpl(const RecurrentBlockOptions& options_) : options(options_) { reset(); }

void RecurrentBlockImpl::reset() {
  const auto& o = options;
  EMBER_CHECK(o.kernel_size().size() == o.padding().size(),
              "RecurrentBlock: kernel_size should have the same length as padding, instead got len(kernel_size) = ",
              o.kernel_size().size(), " and len(padding) = ", o.padding().size());
  EMBER_CHECK(o.kernel_size().size() == 1 || o.kernel_size().size() == 2,
              "RecurrentBlock: kernel_size should either 1 or 2, instead got ", o.kernel_size().size());
  convgru1 = register_module(
      "convgru1", ConvGRU(ConvGRUOptions(o.input_size(), o.hidden_size(), pair_of(o.kernel_size()[0], "kernel_size"),
                                         pair_of(o.padding()[0], "padding"))));
  if (o.kernel_size().size() == 2) {
    convgru2 = register_module(
        "convgru2", ConvGRU(ConvGRUOptions(o.input_size(), o.hidden_size(), pair_of(o.kernel_size()[1], "kernel_size"),
                                           pair_of(o.padding()[1], "padding"))));
  }
  hidden_size = o.hidden_size();
}

Tensor RecurrentBlockImpl::forward(const Tensor& h, const Tensor& x) {
  Tensor out = convgru1->forward(h, x);
  if (!convgru2.is_empty()) out = convgru2->forward(out, x);
  return out;
}

FlowHeadImpl::FlowHeadImpl(int64_t in_channels_, int64_t hidden_size_)
    : in_channels(in_channels_), hidden_size(hidden_size_) {
  reset();
}

void FlowHeadImpl::reset() {
  EMBER_CHECK(in_channels > 0 && hidden_size > 0, "FlowHead: in_channels and hidden_size must be positive, got ",
              in_channels, " and ", hidden_size);
  conv1 = register_module("conv1", nn::Conv2d(nn::Conv2dOptions(in_channels, hidden_size, 3).padding(1)));
  conv2 = register_module("conv2", nn::Conv2d(nn::Conv2dOptions(hidden_size, 2, 3).padding(1)));
  register_module("relu", nn::ReLU(nn::ReLUOptions(true)));
}

Tensor FlowHeadImpl::forward(const Tensor& x) { return conv2->forward(relu(conv1->forward(x))); }

UpdateBlockImpl::UpdateBlockImpl(MotionEncoder motion_encoder_, RecurrentBlock recurrent_block_, FlowHead flow_head_)
    : motion_encoder(std::move(motion_encoder_)),
      recurrent_block(std::move(recurrent_block_)),
      flow_head(std::move(flow_head_)) {
  reset();
}

void UpdateBlockImpl::reset() {
  EMBER_CHECK(!motion_encoder.is_empty() && !recurrent_block.is_empty() && !flow_head.is_empty(),
              "UpdateBlock: motion_encoder, recurrent_block and flow_head must not be null");
  register_module("motion_encoder", motion_encoder);
  register_module("recurrent_block", recurrent_block);
  register_module("flow_head", flow_head);
  hidden_state_size = recurrent_block->hidden_size;
}

std::shared_ptr<nn::Module> UpdateBlockImpl::clone(const std::optional<Device>& device) const {
  auto copy = std::make_shared<UpdateBlockImpl>(
      MotionEncoder(std::dynamic_pointer_cast<MotionEncoderImpl>(motion_encoder->clone(device))),
      RecurrentBlock(std::dynamic_pointer_cast<RecurrentBlockImpl>(recurrent_block->clone(device))),
      FlowHead(std::dynamic_pointer_cast<FlowHeadImpl>(flow_head->clone(device))));
  copy->train(is_training());
  return copy;
}

std::tuple<Tensor, Tensor> UpdateBlockImpl::forward(const Tensor& hidden_state, const Tensor& context,
                                                    const Tensor& corr_features, const Tensor& flow) {
  const Tensor motion_features = motion_encoder->forward(flow, corr_features);
  const Tensor x = cat({context, motion_features}, 1);
  Tensor h = recurrent_block->forward(hidden_state, x);
  Tensor delta_flow = flow_head->forward(h);
  return {std::move(h), std::move(delta_flow)};
}

MaskPredictorImpl::MaskPredictorImpl(int64_t in_channels_, int64_t hidden_size_, double multiplier_)
    : in_channels(in_channels_), hidden_size(hidden_size_), multiplier(multiplier_) {
  reset();
}

void MaskPredictorImpl::reset() {
  EMBER_CHECK(in_channels > 0 && hidden_size > 0, "MaskPredictor: in_channels and hidden_size must be positive, got ",
              in_channels, " and ", hidden_size);
  convrelu = register_module("convrelu", conv_relu(in_channels, hidden_size, 3));
  conv = register_module("conv", nn::Conv2d(nn::Conv2dOptions(hidden_size, 8 * 8 * 9, 1).padding(0)));
}

Tensor MaskPredictorImpl::forward(const Tensor& x) { return conv->forward(convrelu->forward(x)) * multiplier; }

}  // namespace torch::vision::models::optical_flow
