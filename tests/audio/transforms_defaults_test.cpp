// Every transform built with torchaudio's defaults: output shapes as torchaudio
// documents them, clone() and the module holders' call syntax.
#include <gtest/gtest.h>

#include <vector>

#include "common/test_util.h"
#include "ember/audio/transforms.h"
#include "ember/torch.h"

namespace torch::testing {
namespace {

namespace AT = ::torch::audio::transforms;
using Shape = std::vector<int64_t>;

TEST(AudioTransformsDefaults, ShapesAndClone) {
  manual_seed(0);
  Tensor x = randn({2, 4000}) * 0.1;
  Tensor spec = AT::Spectrogram()(x);
  EXPECT_EQ(spec.sizes(), (Shape{2, 201, 21}));
  EXPECT_EQ(AT::MelSpectrogram()(x).sizes(), (Shape{2, 128, 21}));
  EXPECT_EQ(AT::MFCC()(x).sizes(), (Shape{2, 40, 21}));
  EXPECT_EQ(AT::LFCC()(x).sizes(), (Shape{2, 40, 21}));
  EXPECT_EQ(AT::MelScale()(spec).sizes(), (Shape{2, 128, 21}));
  EXPECT_EQ(AT::AmplitudeToDB()(spec).sizes(), spec.sizes());
  Tensor g = AT::GriffinLim(AT::GriffinLimOptions().n_iter(2))(spec);
  EXPECT_EQ(g.sizes(), (Shape{2, 4000}));
  EXPECT_TRUE(isfinite(g).all().item<bool>());
  Tensor cspec = AT::Spectrogram(AT::SpectrogramOptions().power(std::nullopt))(x);
  EXPECT_TRUE(cspec.is_complex());
  EXPECT_EQ(AT::InverseSpectrogram()(cspec, 4000).sizes(), (Shape{2, 4000}));
  EXPECT_EQ(AT::TimeStretch(AT::TimeStretchOptions().fixed_rate(2.0))(cspec).sizes(), (Shape{2, 201, 11}));
  EXPECT_EQ(AT::Resample()(x).sizes(), x.sizes());
  EXPECT_EQ(AT::Resample(16000, 8000)(x).sizes(), (Shape{2, 2000}));
  EXPECT_EQ(AT::ComputeDeltas()(spec).sizes(), spec.sizes());
  EXPECT_EQ(AT::Fade()(x).sizes(), x.sizes());
  EXPECT_EQ(AT::SlidingWindowCmn()(spec.transpose(-1, -2)).sizes(), (Shape{2, 21, 201}));
  EXPECT_EQ(AT::SpectralCentroid(16000)(x).sizes(), (Shape{2, 21}));
  EXPECT_EQ(AT::PitchShift(16000, 12)(x).sizes(), x.sizes());
  EXPECT_EQ(AT::MuLawEncoding()(x).scalar_type(), kLong);
  EXPECT_EQ(AT::MuLawDecoding()(AT::MuLawEncoding()(x)).sizes(), x.sizes());
  EXPECT_EQ(AT::FrequencyMasking(10)(spec).sizes(), spec.sizes());
  EXPECT_EQ(AT::TimeMasking(5)(spec).sizes(), spec.sizes());
  EXPECT_EQ(AT::Vol(0.5)(x).sizes(), x.sizes());
  EXPECT_LE(AT::Vad(16000)(x).size(-1), 4000);
  EXPECT_EQ(AT::Convolve()(x, x.slice(1, 0, 10)).sizes(), (Shape{2, 4009}));
  EXPECT_EQ(AT::Preemphasis()(x).sizes(), x.sizes());
  AT::MelSpectrogram mel;
  auto copy = std::dynamic_pointer_cast<AT::MelSpectrogramImpl>(mel->clone());
  ASSERT_NE(copy, nullptr);
  EXPECT_TENSOR_EQ(copy->forward(x), mel(x));
  EXPECT_EQ(copy->state_dict().size(), 2u);
}

TEST(AudioTransformsDefaults, Float64InputsWithFloat32Windows) {
  Tensor x = randn({1, 2000}, kDouble) * 0.1;
  Tensor spec = AT::Spectrogram()(x);
  EXPECT_EQ(spec.scalar_type(), kDouble);
  EXPECT_EQ(AT::GriffinLim(AT::GriffinLimOptions().n_iter(1))(spec).scalar_type(), kDouble);
  Tensor cspec = AT::Spectrogram(AT::SpectrogramOptions().power(std::nullopt))(x);
  EXPECT_EQ(AT::InverseSpectrogram()(cspec).scalar_type(), kDouble);
  EXPECT_EQ(AT::PitchShift(16000, 12)(x).scalar_type(), kDouble);
  EXPECT_EQ(AT::MFCC()(x).scalar_type(), kDouble);
}

}  // namespace
}  // namespace torch::testing
