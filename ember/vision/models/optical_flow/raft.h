#pragma once
// torchvision.models.optical_flow.raft: RAFT (arXiv:2003.12039) with its
// feature/context encoders, correlation pyramid, recurrent update block and
// convex upsampling, and the raft_large / raft_small builders. The module tree
// equals torchvision's, so state_dict() keys match its checkpoints.
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/optical_flow/weights_enums.h"
#include "ember/vision/ops/misc.h"

namespace torch::vision::models::optical_flow {

// norm_layer nullopt: no normalization (Python's None).
using OptionalNormLayer = std::optional<ops::NormLayer>;
ops::NormLayer instance_norm2d_layer();  // nn.InstanceNorm2d (no affine, no running stats)
ops::NormLayer batch_norm2d_layer();     // nn.BatchNorm2d

struct ResidualBlockOptions {
  ResidualBlockOptions(int64_t in_channels, int64_t out_channels)
      : in_channels_(in_channels), out_channels_(out_channels) {}
  TORCH_ARG(int64_t, in_channels);
  TORCH_ARG(int64_t, out_channels);
  TORCH_ARG(OptionalNormLayer, norm_layer) = std::nullopt;
  TORCH_ARG(int64_t, stride) = 1;
  TORCH_ARG(bool, always_project) = false;
};

// relu(downsample(x) + convnormrelu2(convnormrelu1(x))), 3x3 convolutions.
class ResidualBlockImpl : public nn::Cloneable<ResidualBlockImpl> {
 public:
  explicit ResidualBlockImpl(const ResidualBlockOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "ResidualBlock"; }
  Tensor forward(const Tensor& x);
  ResidualBlockOptions options;
  ops::Conv2dNormActivation convnormrelu1 = nullptr, convnormrelu2 = nullptr;
  nn::AnyModule downsample;
};
TORCH_MODULE(ResidualBlock);

// 1x1 -> 3x3 (stride) -> 1x1 with out_channels / 4 in the middle.
class BottleneckBlockImpl : public nn::Cloneable<BottleneckBlockImpl> {
 public:
  explicit BottleneckBlockImpl(const ResidualBlockOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "BottleneckBlock"; }
  Tensor forward(const Tensor& x);
  ResidualBlockOptions options;
  ops::Conv2dNormActivation convnormrelu1 = nullptr, convnormrelu2 = nullptr, convnormrelu3 = nullptr;
  nn::AnyModule downsample;
};
TORCH_MODULE(BottleneckBlock);

// block(in_channels, out_channels, norm_layer, stride): ResidualBlock or BottleneckBlock.
using BlockFactory = std::function<nn::AnyModule(int64_t, int64_t, const OptionalNormLayer&, int64_t)>;
BlockFactory residual_block();
BlockFactory bottleneck_block();

struct FeatureEncoderOptions {
  TORCH_ARG(BlockFactory, block) = residual_block();
  TORCH_ARG(std::vector<int64_t>, layers) = std::vector<int64_t>{64, 64, 96, 128, 256};
  TORCH_ARG(std::vector<int64_t>, strides) = std::vector<int64_t>{2, 1, 2, 2};
  TORCH_ARG(OptionalNormLayer, norm_layer) = batch_norm2d_layer();
};

class FeatureEncoderImpl : public nn::Cloneable<FeatureEncoderImpl> {
 public:
  explicit FeatureEncoderImpl(const FeatureEncoderOptions& options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "FeatureEncoder"; }
  Tensor forward(const Tensor& x);
  FeatureEncoderOptions options;
  ops::Conv2dNormActivation convnormrelu = nullptr;
  nn::Sequential layer1 = nullptr, layer2 = nullptr, layer3 = nullptr;
  nn::Conv2d conv = nullptr;
  int64_t output_dim = 0;
  int64_t downsample_factor = 1;
};
TORCH_MODULE(FeatureEncoder);

struct MotionEncoderOptions {
  /* implicit */ MotionEncoderOptions(int64_t in_channels_corr) : in_channels_corr_(in_channels_corr) {}  // NOLINT
  TORCH_ARG(int64_t, in_channels_corr);
  TORCH_ARG(std::vector<int64_t>, corr_layers) = std::vector<int64_t>{256, 192};
  TORCH_ARG(std::vector<int64_t>, flow_layers) = std::vector<int64_t>{128, 64};
  TORCH_ARG(int64_t, out_channels) = 128;
};

class MotionEncoderImpl : public nn::Cloneable<MotionEncoderImpl> {
 public:
  explicit MotionEncoderImpl(const MotionEncoderOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "MotionEncoder"; }
  // Returns cat(conv(cat(corr, flow features)), flow): out_channels channels.
  Tensor forward(const Tensor& flow, const Tensor& corr_features);
  MotionEncoderOptions options;
  ops::Conv2dNormActivation convcorr1 = nullptr, convflow1 = nullptr, convflow2 = nullptr, conv = nullptr;
  nn::AnyModule convcorr2;
  int64_t out_channels = 0;
};
TORCH_MODULE(MotionEncoder);

struct ConvGRUOptions {
  ConvGRUOptions(int64_t input_size, int64_t hidden_size, ExpandingArray<2> kernel_size, ExpandingArray<2> padding)
      : input_size_(input_size), hidden_size_(hidden_size), kernel_size_(kernel_size), padding_(padding) {}
  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(ExpandingArray<2>, kernel_size);
  TORCH_ARG(ExpandingArray<2>, padding);
};

class ConvGRUImpl : public nn::Cloneable<ConvGRUImpl> {
 public:
  explicit ConvGRUImpl(const ConvGRUOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "ConvGRU"; }
  Tensor forward(const Tensor& h, const Tensor& x);
  ConvGRUOptions options;
  nn::Conv2d convz = nullptr, convr = nullptr, convq = nullptr;
};
TORCH_MODULE(ConvGRU);

struct RecurrentBlockOptions {
  RecurrentBlockOptions(int64_t input_size, int64_t hidden_size) : input_size_(input_size), hidden_size_(hidden_size) {}
  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  // One or two (kernel, padding) pairs: one ConvGRU each.
  TORCH_ARG(std::vector<std::vector<int64_t>>, kernel_size) = std::vector<std::vector<int64_t>>{{1, 5}, {5, 1}};
  TORCH_ARG(std::vector<std::vector<int64_t>>, padding) = std::vector<std::vector<int64_t>>{{0, 2}, {2, 0}};
};

class RecurrentBlockImpl : public nn::Cloneable<RecurrentBlockImpl> {
 public:
  explicit RecurrentBlockImpl(const RecurrentBlockOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "RecurrentBlock"; }
  Tensor forward(const Tensor& h, const Tensor& x);
  RecurrentBlockOptions options;
  ConvGRU convgru1 = nullptr;
  ConvGRU convgru2 = nullptr;  // null: h passes through
  int64_t hidden_size = 0;
};
TORCH_MODULE(RecurrentBlock);

class FlowHeadImpl : public nn::Cloneable<FlowHeadImpl> {
 public:
  FlowHeadImpl(int64_t in_channels, int64_t hidden_size);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "FlowHead"; }
  Tensor forward(const Tensor& x);
  int64_t in_channels, hidden_size;
  nn::Conv2d conv1 = nullptr, conv2 = nullptr;
};
TORCH_MODULE(FlowHead);

class UpdateBlockImpl : public nn::Cloneable<UpdateBlockImpl> {
 public:
  UpdateBlockImpl(MotionEncoder motion_encoder, RecurrentBlock recurrent_block, FlowHead flow_head);
  void reset() override;
  // reset() re-registers the given blocks, so the deep copy clones them first.
  std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const override;
  void pretty_print(std::ostream& stream) const override { stream << "UpdateBlock"; }
  // Returns (hidden_state, delta_flow).
  std::tuple<Tensor, Tensor> forward(const Tensor& hidden_state, const Tensor& context, const Tensor& corr_features,
                                     const Tensor& flow);
  MotionEncoder motion_encoder;
  RecurrentBlock recurrent_block;
  FlowHead flow_head;
  int64_t hidden_state_size = 0;
};
TORCH_MODULE(UpdateBlock);

// The 8 * 8 * 9 convex-upsampling weights, scaled by multiplier.
class MaskPredictorImpl : public nn::Cloneable<MaskPredictorImpl> {
 public:
  MaskPredictorImpl(int64_t in_channels, int64_t hidden_size, double multiplier = 0.25);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "MaskPredictor"; }
  Tensor forward(const Tensor& x);
  int64_t in_channels, hidden_size;
  double multiplier;
  ops::Conv2dNormActivation convrelu = nullptr;
  nn::Conv2d conv = nullptr;
};
TORCH_MODULE(MaskPredictor);

// All-pairs correlation pyramid of num_levels levels, looked up in a
// (2 radius + 1)^2 neighbourhood per level. Holds the pyramid of the last
// build_pyramid call, as torchvision's.
class CorrBlockImpl : public nn::Cloneable<CorrBlockImpl> {
 public:
  explicit CorrBlockImpl(int64_t num_levels = 4, int64_t radius = 4);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  void build_pyramid(const Tensor& fmap1, const Tensor& fmap2);
  // centroids_coords: [N, 2, h, w] (x, y); returns [N, out_channels, h, w].
  Tensor index_pyramid(const Tensor& centroids_coords);
  Tensor _compute_corr_volume(const Tensor& fmap1, const Tensor& fmap2);
  int64_t num_levels, radius, out_channels;
  std::vector<Tensor> corr_pyramid;
};
TORCH_MODULE(CorrBlock);

class RAFTImpl : public nn::Cloneable<RAFTImpl> {
 public:
  // mask_predictor may be null (raft_small): flows are upsampled bilinearly.
  RAFTImpl(FeatureEncoder feature_encoder, FeatureEncoder context_encoder, CorrBlock corr_block,
           UpdateBlock update_block, MaskPredictor mask_predictor = nullptr);
  void reset() override;
  // reset() re-registers the given modules, so the deep copy clones them first.
  std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const override;
  void pretty_print(std::ostream& stream) const override { stream << "RAFT"; }
  // image1, image2: [N, 3, H, W] float with H and W divisible by 8. Returns
  // the num_flow_updates flow predictions, each [N, 2, H, W].
  std::vector<Tensor> forward(const Tensor& image1, const Tensor& image2, int64_t num_flow_updates = 12);
  FeatureEncoder feature_encoder, context_encoder;
  CorrBlock corr_block;
  UpdateBlock update_block;
  MaskPredictor mask_predictor;
};
TORCH_MODULE(RAFT);

// `weights` (Raft_Large_Weights::C_T_SKHT_V2.with_path(file), ...) are loaded
// strictly from their file (nothing is downloaded; `progress` is accepted for
// Python's signature only).
RAFT raft_large(std::optional<Weights> weights = std::nullopt, bool progress = true);
RAFT raft_small(std::optional<Weights> weights = std::nullopt, bool progress = true);

}  // namespace torch::vision::models::optical_flow
