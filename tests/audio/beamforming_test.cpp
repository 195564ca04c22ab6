// Beamforming (psd, MVDR weights, RTFs, apply_beamforming and the PSD /
// SoudenMVDR / RTFMVDR modules) against torchaudio 0.13
// (tools/golden/gen_audio_beamforming.py), values and gradients.
#include <gtest/gtest.h>

#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/functional/beamforming.h"
#include "ember/audio/transforms/beamforming.h"
#include "ember/audio/transforms/mvdr.h"
#include "ember/torch.h"

namespace torch::testing {
namespace {

namespace AF = ::torch::audio::functional;
namespace AT = ::torch::audio::transforms;

const Golden& golden() {
  static const Golden g("audio_beamforming.golden");
  return g;
}
Tensor G(const std::string& name) { return golden()[name]; }

#define EXPECT_GOLDEN(actual, name) EXPECT_TENSOR_CLOSE_TOL((actual), G(name), 1e-7, 1e-9)

TEST(AudioBeamforming, Psd) {
  Tensor spec = G("spec"), m = G("mask_s");
  EXPECT_GOLDEN(AF::psd(spec), "psd.nomask");
  EXPECT_GOLDEN(AF::psd(spec, m), "psd.mask");
  EXPECT_GOLDEN(AF::psd(spec, m, false), "psd.mask_nonorm");
  EXPECT_GOLDEN(AF::psd(spec, m, true, 1e-3), "psd.mask_eps");
  EXPECT_GOLDEN(AT::PSD(AT::PSDOptions().multi_mask(true))(spec, G("mask_multi")), "PSD.multi");
  EXPECT_GOLDEN(AT::PSD()(spec, m), "PSD.single");
  // complex64 stays complex64.
  EXPECT_EQ(AF::psd(spec.to(kComplexFloat), m.to(kFloat)).scalar_type(), kComplexFloat);
}

TEST(AudioBeamforming, Weights) {
  Tensor s = G("psd_s"), n = G("psd_n"), ref = G("ref");
  EXPECT_GOLDEN(AF::mvdr_weights_souden(s, n, 0), "souden.ref0");
  EXPECT_GOLDEN(AF::mvdr_weights_souden(s, n, 2, false), "souden.ref2_noload");
  EXPECT_GOLDEN(AF::mvdr_weights_souden(s, n, ref, true, 1e-5, 1e-6), "souden.tensor");
  Tensor rtf = G("rtf_power.ref0");
  EXPECT_GOLDEN(AF::mvdr_weights_rtf(rtf, n), "rtf.none");
  EXPECT_GOLDEN(AF::mvdr_weights_rtf(rtf, n, 1), "rtf.ref1");
  EXPECT_GOLDEN(AF::mvdr_weights_rtf(rtf, n, ref, false, 1e-7, 1e-6), "rtf.tensor_noload");
  EXPECT_GOLDEN(AF::apply_beamforming(G("souden.ref0"), G("spec")), "apply");
}

TEST(AudioBeamforming, Rtf) {
  Tensor s = G("psd_s"), n = G("psd_n"), ref = G("ref");
  EXPECT_GOLDEN(AF::rtf_power(s, n, 0), "rtf_power.ref0");
  EXPECT_GOLDEN(AF::rtf_power(s, n, 1, 1), "rtf_power.iter1");
  EXPECT_GOLDEN(AF::rtf_power(s, n, 2, 2, false), "rtf_power.iter2_noload");
  EXPECT_GOLDEN(AF::rtf_power(s, n, ref, 5, true, 1e-4), "rtf_power.iter5_tensor");
  Tensor v = AF::rtf_evd(s);
  EXPECT_GOLDEN(v.abs(), "rtf_evd.abs");
  Tensor v0 = v.slice(-1, 0, 1);
  EXPECT_GOLDEN(v * (v0.conj() / v0.abs()), "rtf_evd.aligned");
}

TEST(AudioBeamforming, Modules) {
  Tensor spec = G("spec"), s = G("psd_s"), n = G("psd_n"), ref = G("ref"), rtf = G("rtf_power.ref0");
  EXPECT_GOLDEN(AT::SoudenMVDR()(spec, s, n, 1), "SoudenMVDR");
  EXPECT_GOLDEN(AT::SoudenMVDR()(spec, s, n, ref, false), "SoudenMVDR.tensor");
  EXPECT_GOLDEN(AT::RTFMVDR()(spec, rtf, n, 0), "RTFMVDR");
  EXPECT_GOLDEN(AT::RTFMVDR()(spec, rtf, n, ref, true, 1e-6, 1e-7), "RTFMVDR.tensor");
}

TEST(AudioBeamforming, MvdrModule) {
  Tensor spec32 = G("spec32"), mask32 = G("mask32"), spec = G("spec"), ms = G("mask_s");
  for (const char* sol : {"ref_channel", "stv_evd", "stv_power"}) {
    SCOPED_TRACE(sol);
    Tensor y = AT::MVDR(AT::MVDROptions().ref_channel(1).solution(sol))(spec32, mask32);
    EXPECT_EQ(y.scalar_type(), kComplexFloat);
    EXPECT_TENSOR_CLOSE_TOL(y, G(std::string("MVDR.") + sol), 1e-4, 1e-5);
  }
  Tensor mm = G("mask_multi");
  EXPECT_GOLDEN(AT::MVDR(AT::MVDROptions().solution("stv_power").multi_mask(true))(spec, mm, 1 - mm), "MVDR.multi");
  EXPECT_GOLDEN(AT::MVDR(AT::MVDROptions().diag_loading(false))(spec, ms, G("mask_n")), "MVDR.noload");
  AT::MVDR online(AT::MVDROptions().ref_channel(2).solution("stv_power").online(true));
  EXPECT_GOLDEN(online(spec.slice(-1, 0, 4), ms.slice(-1, 0, 4)), "MVDR.online1");
  EXPECT_GOLDEN(online(spec.slice(-1, 4, 8), ms.slice(-1, 4, 8)), "MVDR.online2");
  auto state = online->named_buffers();
  ASSERT_EQ(state.size(), 4u);
  for (const char* k : {"psd_s", "psd_n", "mask_sum_s", "mask_sum_n"}) {
    SCOPED_TRACE(k);
    EXPECT_GOLDEN(state[k], std::string("MVDR.online.state.") + k);
  }
  EXPECT_EMBER_ERROR(AT::MVDR(AT::MVDROptions().solution("evd")), "MVDR", "evd");
  EXPECT_EMBER_ERROR(AT::MVDR(AT::MVDROptions().ref_channel(3))(spec, ms), "MVDR", "ref_channel 3");
}

TEST(AudioBeamforming, Gradients) {
  expect_golden_case(golden(), "grad.souden_chain", 3, [](const std::vector<Tensor>& in) {
    Tensor x = complex(in[0], in[1]);
    Tensor s = AF::psd(x, in[2]), n = AF::psd(x, 1 - in[2]);
    return view_as_real(AF::apply_beamforming(AF::mvdr_weights_souden(s, n, 0), x));
  });
  expect_golden_case(golden(), "grad.rtf_chain", 3, [](const std::vector<Tensor>& in) {
    Tensor x = complex(in[0], in[1]);
    Tensor s = AF::psd(x, in[2]), n = AF::psd(x, 1 - in[2]);
    Tensor r = AF::rtf_power(s, n, 1);
    return view_as_real(AF::apply_beamforming(AF::mvdr_weights_rtf(r, n, 1), x));
  });
}

TEST(AudioBeamforming, BadArguments) {
  Tensor spec = G("spec"), s = G("psd_s"), n = G("psd_n");
  EXPECT_EMBER_ERROR(AF::psd(spec.abs()), "psd", "complex");
  EXPECT_EMBER_ERROR(AF::psd(spec, G("mask_s").slice(-1, 0, 3)), "psd", "mask");
  EXPECT_EMBER_ERROR(AF::mvdr_weights_souden(s, n.slice(-3, 0, 2), 0), "mvdr_weights_souden", "same");
  EXPECT_EMBER_ERROR(AF::mvdr_weights_souden(s.abs(), n, 0), "mvdr_weights_souden", "complex");
  EXPECT_EMBER_ERROR(AF::mvdr_weights_souden(s, n, 3), "mvdr_weights_souden", "reference_channel 3");
  EXPECT_EMBER_ERROR(AF::mvdr_weights_souden(s[0][0], n[0][0], 0), "mvdr_weights_souden", "3D");
  EXPECT_EMBER_ERROR(AF::mvdr_weights_rtf(G("rtf_power.ref0").slice(-1, 0, 2), n), "mvdr_weights_rtf", "same");
  EXPECT_EMBER_ERROR(AF::rtf_power(s, n, 0, 0), "rtf_power", "greater than 0");
  EXPECT_EMBER_ERROR(AF::rtf_evd(s.abs()), "rtf_evd", "complex");
  EXPECT_EMBER_ERROR(AF::apply_beamforming(G("souden.ref0"), spec[0]), "apply_beamforming", "dimensions");
}

}  // namespace
}  // namespace torch::testing
