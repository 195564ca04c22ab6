// Registers the classification CNNs in the model registry: each entry reads
// the builder's keyword arguments from ModelKwargs into its <Family>Kwargs.
#include "ember/vision/models/efficientnet.h"
#include "ember/vision/models/mobilenetv2.h"
#include "ember/vision/models/mobilenetv3.h"
#include "ember/vision/models/registry.h"
#include "ember/vision/models/regnet.h"
#include "ember/vision/models/resnet.h"

namespace torch::vision::models::detail {

namespace {

using ResNetFn = ResNet (*)(std::optional<Weights>, bool, const ResNetKwargs&);
using EfficientNetFn = EfficientNet (*)(std::optional<Weights>, bool, const EfficientNetKwargs&);
using RegNetFn = RegNet (*)(std::optional<Weights>, bool, const RegNetKwargs&);
using MobileNetV3Fn = MobileNetV3 (*)(std::optional<Weights>, bool, const MobileNetV3Kwargs&);

void add(const std::string& name, const std::string& module, const std::string& weights_enum, ModelBuilder builder) {
  register_model(ModelEntry{name, "torchvision.models." + module, std::move(builder), weights_enum});
}

void add_resnet(const std::string& name, const std::string& weights_enum, ResNetFn fn) {
  add(name, "resnet", weights_enum, [=](const ModelKwargs& kw) {
    KwargReader r(name, kw);
    std::optional<Weights> weights = r.get_weights(weights_enum);
    ResNetKwargs k;
    k.num_classes(r.get_int("num_classes"))
        .zero_init_residual(r.get_bool("zero_init_residual").value_or(false))
        .groups(r.get_int("groups"))
        .width_per_group(r.get_int("width_per_group"))
        .replace_stride_with_dilation(r.get_bool_list("replace_stride_with_dilation"));
    r.finish();
    return nn::AnyModule(fn(weights, true, k));
  });
}

void add_efficientnet(const std::string& name, const std::string& weights_enum, EfficientNetFn fn) {
  add(name, "efficientnet", weights_enum, [=](const ModelKwargs& kw) {
    KwargReader r(name, kw);
    std::optional<Weights> weights = r.get_weights(weights_enum);
    EfficientNetKwargs k;
    k.num_classes(r.get_int("num_classes")).stochastic_depth_prob(r.get_double("stochastic_depth_prob").value_or(0.2));
    r.finish();
    return nn::AnyModule(fn(weights, true, k));
  });
}

void add_regnet(const std::string& name, const std::string& weights_enum, RegNetFn fn) {
  add(name, "regnet", weights_enum, [=](const ModelKwargs& kw) {
    KwargReader r(name, kw);
    std::optional<Weights> weights = r.get_weights(weights_enum);
    RegNetKwargs k;
    k.num_classes(r.get_int("num_classes")).stem_width(r.get_int("stem_width").value_or(32));
    r.finish();
    return nn::AnyModule(fn(weights, true, k));
  });
}

void add_mobilenet_v3(const std::string& name, const std::string& weights_enum, MobileNetV3Fn fn) {
  add(name, "mobilenetv3", weights_enum, [=](const ModelKwargs& kw) {
    KwargReader r(name, kw);
    std::optional<Weights> weights = r.get_weights(weights_enum);
    MobileNetV3Kwargs k;
    k.num_classes(r.get_int("num_classes"))
        .width_mult(r.get_double("width_mult").value_or(1.0))
        .reduced_tail(r.get_bool("reduced_tail").value_or(false))
        .dilated(r.get_bool("dilated").value_or(false))
        .dropout(r.get_double("dropout").value_or(0.2));
    r.finish();
    return nn::AnyModule(fn(weights, true, k));
  });
}

}  // namespace

void register_classification_cnns() {
  for (const WeightsEnum* e : cnn_weights_enums()) register_weights_enum(*e);
  add_resnet("resnet18", "ResNet18_Weights", &resnet18);
  add_resnet("resnet34", "ResNet34_Weights", &resnet34);
  add_resnet("resnet50", "ResNet50_Weights", &resnet50);
  add_resnet("resnet101", "ResNet101_Weights", &resnet101);
  add_resnet("resnet152", "ResNet152_Weights", &resnet152);
  add_resnet("resnext50_32x4d", "ResNeXt50_32X4D_Weights", &resnext50_32x4d);
  add_resnet("resnext101_32x8d", "ResNeXt101_32X8D_Weights", &resnext101_32x8d);
  add_resnet("resnext101_64x4d", "ResNeXt101_64X4D_Weights", &resnext101_64x4d);
  add_resnet("wide_resnet50_2", "Wide_ResNet50_2_Weights", &wide_resnet50_2);
  add_resnet("wide_resnet101_2", "Wide_ResNet101_2_Weights", &wide_resnet101_2);
  add("mobilenet_v2", "mobilenetv2", "MobileNet_V2_Weights", [](const ModelKwargs& kw) {
    KwargReader r("mobilenet_v2", kw);
    std::optional<Weights> weights = r.get_weights("MobileNet_V2_Weights");
    MobileNetV2Kwargs k;
    k.num_classes(r.get_int("num_classes"))
        .width_mult(r.get_double("width_mult").value_or(1.0))
        .round_nearest(r.get_int("round_nearest").value_or(8))
        .dropout(r.get_double("dropout").value_or(0.2));
    r.finish();
    return nn::AnyModule(mobilenet_v2(weights, true, k));
  });
  add_mobilenet_v3("mobilenet_v3_large", "MobileNet_V3_Large_Weights", &mobilenet_v3_large);
  add_mobilenet_v3("mobilenet_v3_small", "MobileNet_V3_Small_Weights", &mobilenet_v3_small);
  add_efficientnet("efficientnet_b0", "EfficientNet_B0_Weights", &efficientnet_b0);
  add_efficientnet("efficientnet_b1", "EfficientNet_B1_Weights", &efficientnet_b1);
  add_efficientnet("efficientnet_b2", "EfficientNet_B2_Weights", &efficientnet_b2);
  add_efficientnet("efficientnet_b3", "EfficientNet_B3_Weights", &efficientnet_b3);
  add_efficientnet("efficientnet_b4", "EfficientNet_B4_Weights", &efficientnet_b4);
  add_efficientnet("efficientnet_b5", "EfficientNet_B5_Weights", &efficientnet_b5);
  add_efficientnet("efficientnet_b6", "EfficientNet_B6_Weights", &efficientnet_b6);
  add_efficientnet("efficientnet_b7", "EfficientNet_B7_Weights", &efficientnet_b7);
  add_efficientnet("efficientnet_v2_s", "EfficientNet_V2_S_Weights", &efficientnet_v2_s);
  add_efficientnet("efficientnet_v2_m", "EfficientNet_V2_M_Weights", &efficientnet_v2_m);
  add_efficientnet("efficientnet_v2_l", "EfficientNet_V2_L_Weights", &efficientnet_v2_l);
  add_regnet("regnet_y_400mf", "RegNet_Y_400MF_Weights", &regnet_y_400mf);
  add_regnet("regnet_y_800mf", "RegNet_Y_800MF_Weights", &regnet_y_800mf);
  add_regnet("regnet_y_1_6gf", "RegNet_Y_1_6GF_Weights", &regnet_y_1_6gf);
  add_regnet("regnet_y_3_2gf", "RegNet_Y_3_2GF_Weights", &regnet_y_3_2gf);
  add_regnet("regnet_y_8gf", "RegNet_Y_8GF_Weights", &regnet_y_8gf);
  add_regnet("regnet_y_16gf", "RegNet_Y_16GF_Weights", &regnet_y_16gf);
  add_regnet("regnet_y_32gf", "RegNet_Y_32GF_Weights", &regnet_y_32gf);
  add_regnet("regnet_y_128gf", "RegNet_Y_128GF_Weights", &regnet_y_128gf);
  add_regnet("regnet_x_400mf", "RegNet_X_400MF_Weights", &regnet_x_400mf);
  add_regnet("regnet_x_800mf", "RegNet_X_800MF_Weights", &regnet_x_800mf);
  add_regnet("regnet_x_1_6gf", "RegNet_X_1_6GF_Weights", &regnet_x_1_6gf);
  add_regnet("regnet_x_3_2gf", "RegNet_X_3_2GF_Weights", &regnet_x_3_2gf);
  add_regnet("regnet_x_8gf", "RegNet_X_8GF_Weights", &regnet_x_8gf);
  add_regnet("regnet_x_16gf", "RegNet_X_16GF_Weights", &regnet_x_16gf);
  add_regnet("regnet_x_32gf", "RegNet_X_32GF_Weights", &regnet_x_32gf);
}

}  // namespace torch::vision::models::detail
