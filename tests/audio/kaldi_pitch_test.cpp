// compute_kaldi_pitch. Debian's torchaudio has no Kaldi, so there are no
// end-to-end reference values: the pieces (downsampler, lag grid, NCCF
// interpolation, Viterbi, frame counts) are checked against direct
// computations in tools/golden/gen_audio_kaldi_pitch.py, and the whole
// tracker against signals whose pitch is known.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/functional/kaldi_pitch.h"
#include "ember/audio/functional/kaldi_pitch_detail.h"
#include "ember/torch.h"

namespace {

namespace F = ember::audio::functional;
namespace D = ember::audio::functional::kaldi_pitch_detail;
using ember::Tensor;
using ember::testing::Golden;

const Golden& golden() {
  static const Golden g("audio_kaldi_pitch.golden");
  return g;
}

std::vector<float> floats(const Tensor& t) {
  Tensor c = t.to(ember::kFloat).contiguous();
  return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

Tensor as_tensor(const std::vector<float>& v) {
  return ember::tensor(ember::ArrayRef<float>(v.data(), v.size())).to(ember::kDouble);
}

constexpr double kPi = 3.14159265358979323846;

// A waveform [1, n] at `rate` from a phase function.
template <typename Phase>
Tensor synth(int64_t n, double rate, Phase phase) {
  std::vector<float> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(phase(i / rate));
  return ember::tensor(ember::ArrayRef<float>(x.data(), x.size())).unsqueeze(0);
}

TEST(AudioKaldiPitch, DownsamplerMatchesDirectSum) {
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    std::string tag = "resample" + std::to_string(i);
    Tensor p = golden()[tag + ".params"];
    auto rate_in = static_cast<int32_t>(p[0].item<double>()), rate_out = static_cast<int32_t>(p[1].item<double>());
    double cutoff = p[2].item<double>();
    auto zeros = static_cast<int32_t>(p[3].item<double>());
    D::LinearResampler r(rate_in, rate_out, cutoff, zeros);
    std::vector<float> x = floats(golden()[tag + ".x"]);
    Tensor want = golden()[tag + ".y"];
    auto n = static_cast<int64_t>(x.size());
    ASSERT_EQ(r.num_output_samples(n, true), want.numel());
    EXPECT_TENSOR_CLOSE_TOL(as_tensor(r.resample(x.data(), n, want.numel())), want, 0, 2e-5);
    Tensor counts = golden()[tag + ".counts"];
    const int64_t ms[] = {0, 1, 7, 100, n};
    for (int k = 0; k < 5; ++k) {
      EXPECT_EQ(r.num_output_samples(ms[k], false), counts[2 * k].item<int64_t>()) << ms[k];
      EXPECT_EQ(r.num_output_samples(ms[k], true), counts[2 * k + 1].item<int64_t>()) << ms[k];
    }
  }
}

TEST(AudioKaldiPitch, LagGridIsGeometric) {
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    Tensor p = golden()["lags" + std::to_string(i) + ".params"];
    D::PitchOptions o;
    o.min_f0 = static_cast<float>(p[0].item<double>());
    o.max_f0 = static_cast<float>(p[1].item<double>());
    o.delta_pitch = static_cast<float>(p[2].item<double>());
    Tensor want = golden()["lags" + std::to_string(i) + ".y"];
    std::vector<float> lags = D::select_lags(o);
    ASSERT_EQ(static_cast<int64_t>(lags.size()), want.numel());
    EXPECT_TENSOR_CLOSE_TOL(as_tensor(lags), want, 1e-4, 0);
  }
}

TEST(AudioKaldiPitch, NccfInterpolationMatchesKernel) {
  for (int i = 0; i < 2; ++i) {
    SCOPED_TRACE(i);
    std::string tag = "lagw" + std::to_string(i);
    Tensor p = golden()[tag + ".params"];
    D::PitchOptions o;
    o.min_f0 = static_cast<float>(p[0].item<double>());
    o.max_f0 = static_cast<float>(p[1].item<double>());
    o.delta_pitch = static_cast<float>(p[2].item<double>());
    o.resample_freq = static_cast<float>(p[3].item<double>());
    o.upsample_filter_width = static_cast<int32_t>(p[4].item<double>());
    Tensor range = golden()[tag + ".range"];
    EXPECT_EQ(D::first_measured_lag(o), range[0].item<int64_t>());
    EXPECT_EQ(D::last_measured_lag(o), range[1].item<int64_t>());
    Tensor want = golden()[tag + ".w"];
    std::vector<float> lags = D::select_lags(o);
    ASSERT_EQ(static_cast<int64_t>(lags.size()), want.size(1));
    D::LagResampler r(o, lags);
    ASSERT_EQ(r.num_in(), want.size(0));
    Tensor got = as_tensor(r.dense()).reshape({r.num_in(), r.num_out()});
    // The C++ side evaluates the kernel at float time offsets, as Kaldi does (weights are at most 1).
    EXPECT_TENSOR_CLOSE_TOL(got, want, 0, 2e-5);
    // A row sampled from a smooth function is interpolated onto the grid.
    std::vector<float> row(r.num_in()), out(r.num_out());
    const double first = D::first_measured_lag(o);
    for (int64_t k = 0; k < r.num_in(); ++k) row[k] = static_cast<float>(std::cos(2 * kPi * 0.01 * (first + k)));
    r.apply(row.data(), out.data());
    for (size_t j = 0; j < lags.size(); ++j) {
      double lag_samples = lags[j] * o.resample_freq;
      EXPECT_NEAR(out[j], std::cos(2 * kPi * 0.01 * lag_samples), 0.02) << j;
    }
  }
}

TEST(AudioKaldiPitch, ViterbiMatchesBruteForce) {
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    std::string tag = "viterbi" + std::to_string(i);
    Tensor p = golden()[tag + ".params"];
    D::PitchOptions o;
    o.penalty_factor = static_cast<float>(p[0].item<double>());
    o.soft_min_f0 = static_cast<float>(p[1].item<double>());
    o.delta_pitch = static_cast<float>(p[2].item<double>());
    std::vector<float> lags = floats(golden()[tag + ".lags"]);
    Tensor nccf = golden()[tag + ".nccf"];
    std::vector<std::vector<float>> rows;
    for (int64_t t = 0; t < nccf.size(0); ++t) rows.push_back(floats(nccf[t]));
    std::vector<int32_t> path = D::best_path(rows, lags, o);
    Tensor want = golden()[tag + ".path"];
    ASSERT_EQ(static_cast<int64_t>(path.size()), want.numel());
    int transitions = 0;
    for (size_t t = 0; t < path.size(); ++t) {
      EXPECT_EQ(path[t], want[t].item<int64_t>()) << "frame " << t;
      if (t > 0 && path[t] != path[t - 1]) ++transitions;
    }
    if (i == 0) EXPECT_GT(transitions, 3);  // the cases exercise real moves
  }
}

TEST(AudioKaldiPitch, ViterbiStepIsExactMinimum) {
  std::vector<double> prev = {0.3, 0.1, 0.7, 0.05, 0.9, 0.2, 0.0, 0.4};
  for (double factor : {0.0, 0.001, 0.05, 1.0, 100.0}) {
    std::vector<double> cost;
    std::vector<int32_t> bp;
    D::viterbi_step(prev, factor, cost, bp);
    for (size_t i = 0; i < prev.size(); ++i) {
      double best = 1e300;
      for (size_t j = 0; j < prev.size(); ++j) {
        double d = static_cast<double>(i) - static_cast<double>(j);
        best = std::min(best, prev[j] + factor * d * d);
      }
      EXPECT_NEAR(cost[i], best, 1e-12) << factor << " " << i;
      double d = static_cast<double>(i) - bp[i];
      EXPECT_NEAR(prev[bp[i]] + factor * d * d, best, 1e-12);
    }
  }
}

TEST(AudioKaldiPitch, FrameCountsFollowKaldi) {
  Tensor cases = golden()["frames"];
  Tensor tone = synth(44100, 44100, [](double t) { return 0.5 * std::sin(2 * kPi * 200 * t); });
  for (int64_t c = 0; c < cases.size(0); ++c) {
    auto rate = cases[c][0].item<int64_t>(), n = cases[c][1].item<int64_t>();
    bool snip = cases[c][2].item<int64_t>() != 0;
    Tensor out = F::compute_kaldi_pitch(tone.narrow(1, 0, n), static_cast<double>(rate), 25.0, 10.0, 50, 400, 10.0, 0.1,
                                        1000, 4000, 0.005, 7000, 1, 5, 0, 0, false, 500, snip);
    EXPECT_EQ(out.size(1), cases[c][3].item<int64_t>()) << "rate " << rate << " n " << n << " snip " << snip;
    EXPECT_EQ(out.size(2), 2);
  }
}

// The whole offline tracker against gen_audio_kaldi_pitch.py's float64
// re-derivation of it (downsampling, ballasted NCCF, interpolation,
// brute-force Viterbi) on a noisy harmonic tone and a noisy glide, whole and
// in chunks (the swelling tone's first frames rescored).
TEST(AudioKaldiPitch, PipelineMatchesDirectComputation) {
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    std::string tag = "pipeline" + std::to_string(i);
    Tensor p = golden()[tag + ".params"];
    Tensor x = golden()[tag + ".x"];
    Tensor want = golden()[tag + ".y"];
    bool snip = p[1].item<int64_t>() != 0;
    Tensor got = F::compute_kaldi_pitch(x, static_cast<double>(p[0].item<int64_t>()), 25.0, 10.0, 50, 400, 10.0, 0.1,
                                        1000, 4000, 0.005, 7000, 1, 5, 0, p[2].item<int64_t>(), false, 500, snip);
    ASSERT_EQ(got.sizes(), want.sizes());
    // Same states on the path (pitch to float rounding), NCCF to float accumulation.
    EXPECT_TENSOR_CLOSE_TOL(got.select(1, 1).to(ember::kDouble), want.select(1, 1), 1e-5, 0);
    EXPECT_TENSOR_CLOSE_TOL(got.select(1, 0).to(ember::kDouble), want.select(1, 0), 0, 2e-4);
  }
}

// First-pass online output (each frame as it stood when it first became
// ready, given the traceback latency bound) against the same re-derivation.
TEST(AudioKaldiPitch, FirstPassOnlineMatchesDirectComputation) {
  for (int i = 0; i < 2; ++i) {
    SCOPED_TRACE(i);
    std::string tag = "online" + std::to_string(i);
    Tensor p = golden()[tag + ".params"];
    Tensor x = golden()[tag + ".x"];
    auto run = [&](bool online) {
      return F::compute_kaldi_pitch(x, static_cast<double>(p[0].item<int64_t>()), 25.0, 10.0, 50, 400, 10.0, 0.1, 1000,
                                    4000, 0.005, 7000, 1, 5, online ? p[3].item<int64_t>() : 0, p[2].item<int64_t>(),
                                    online, 500, p[1].item<int64_t>() != 0);
    };
    for (bool online : {true, false}) {
      Tensor want = golden()[tag + (online ? ".y" : ".final")];
      Tensor got = run(online);
      ASSERT_EQ(got.sizes(), want.sizes());
      EXPECT_TENSOR_CLOSE_TOL(got.select(1, 1).to(ember::kDouble), want.select(1, 1), 1e-5, 0);
      EXPECT_TENSOR_CLOSE_TOL(got.select(1, 0).to(ember::kDouble), want.select(1, 0), 0, 2e-4);
    }
  }
}

// Median relative pitch error over the frames after the first few.
void expect_tracks(const Tensor& out, const std::function<double(double)>& f0_at, double tol, double min_nccf) {
  ASSERT_EQ(out.dim(), 3);
  const int64_t frames = out.size(1);
  ASSERT_GT(frames, 20);
  int bad = 0;
  for (int64_t t = 3; t < frames - 3; ++t) {
    double nccf = out[0][t][0].item<float>(), pitch = out[0][t][1].item<float>();
    double centre = (t * 10.0 + 12.5) / 1000.0;  // snip_edges frames: 25 ms windows every 10 ms
    if (std::fabs(pitch - f0_at(centre)) > tol * f0_at(centre)) ++bad;
    EXPECT_GT(nccf, min_nccf) << "frame " << t;
  }
  EXPECT_EQ(bad, 0);
}

TEST(AudioKaldiPitch, PureToneIsTracked) {
  for (double f0 : {80.0, 150.0, 310.0}) {
    SCOPED_TRACE(f0);
    Tensor x = synth(16000, 16000, [&](double t) { return 0.5 * std::sin(2 * kPi * f0 * t); });
    Tensor out = F::compute_kaldi_pitch(x, 16000);
    EXPECT_EQ(out.scalar_type(), ember::kFloat);
    expect_tracks(
        out, [&](double) { return f0; }, 0.01, 0.9);
  }
}

TEST(AudioKaldiPitch, HarmonicToneIsTrackedAtItsFundamental) {
  const double f0 = 120;
  Tensor x = synth(24000, 8000, [&](double t) {
    double s = 0;
    for (int k = 1; k <= 12 && k * f0 < 3900; ++k) s += std::sin(2 * kPi * k * f0 * t + 0.3 * k) / k;
    return 0.3 * s;
  });
  expect_tracks(
      F::compute_kaldi_pitch(x, 8000), [&](double) { return f0; }, 0.01, 0.8);
}

TEST(AudioKaldiPitch, ChirpIsTrackedMonotonically) {
  // f(t) = 100 + 100 t over 2 s: phase 2 pi (100 t + 50 t^2).
  Tensor x = synth(32000, 16000, [](double t) { return 0.5 * std::sin(2 * kPi * (100 * t + 50 * t * t)); });
  Tensor out = F::compute_kaldi_pitch(x, 16000);
  expect_tracks(
      out, [](double t) { return 100 + 100 * t; }, 0.03, 0.8);
  int decreases = 0;
  for (int64_t t = 4; t < out.size(1) - 3; ++t)
    if (out[0][t][1].item<float>() < out[0][t - 1][1].item<float>() - 0.5) ++decreases;
  EXPECT_EQ(decreases, 0);
}

TEST(AudioKaldiPitch, SilenceAndNoiseAreUnvoiced) {
  Tensor silence = ember::zeros({1, 16000});
  Tensor out = F::compute_kaldi_pitch(silence, 16000);
  EXPECT_TRUE(out.select(2, 0).abs().max().item<float>() == 0.0f);
  EXPECT_TRUE(ember::isfinite(out).all().item<bool>());
  ember::manual_seed(3);
  Tensor noise = ember::rand({1, 16000}) * 2 - 1;
  Tensor nccf = F::compute_kaldi_pitch(noise, 16000).select(2, 0);
  EXPECT_LT(nccf.mean().item<float>(), 0.5f);
  Tensor tone = synth(16000, 16000, [](double t) { return 0.5 * std::sin(2 * kPi * 200 * t); });
  EXPECT_GT(F::compute_kaldi_pitch(tone, 16000).select(2, 0).mean().item<float>(), 0.9f);
}

TEST(AudioKaldiPitch, BatchedOverLeadingDimsAndOptions) {
  Tensor a = synth(8000, 8000, [](double t) { return 0.5 * std::sin(2 * kPi * 140 * t); });
  Tensor b = synth(8000, 8000, [](double t) { return 0.4 * std::sin(2 * kPi * 220 * t); });
  Tensor batch = ember::stack({ember::cat({a, b}), ember::cat({b, a})});  // [2, 2, time]
  Tensor out = F::compute_kaldi_pitch(batch, 8000);
  ASSERT_EQ(out.dim(), 4);
  EXPECT_EQ(out.size(0), 2);
  EXPECT_EQ(out.size(1), 2);
  EXPECT_TENSOR_EQ(out[0][0], F::compute_kaldi_pitch(a.squeeze(0), 8000));
  EXPECT_TENSOR_EQ(out[1][0], F::compute_kaldi_pitch(b, 8000)[0]);
  // float64 input, not snipped edges, chunked and first-pass online: same frame counts, same steady pitch.
  Tensor d = F::compute_kaldi_pitch(a.to(ember::kDouble), 8000);
  EXPECT_TENSOR_CLOSE_TOL(d, F::compute_kaldi_pitch(a, 8000), 0, 1e-6);
  Tensor chunked = F::compute_kaldi_pitch(a, 8000, 25, 10, 50, 400, 10, 0.1, 1000, 4000, 0.005, 7000, 1, 5, 0, 10);
  EXPECT_EQ(chunked.sizes(), d.sizes());
  Tensor online =
      F::compute_kaldi_pitch(a, 8000, 25, 10, 50, 400, 10, 0.1, 1000, 4000, 0.005, 7000, 1, 5, 20, 10, true);
  EXPECT_EQ(online.sizes(), d.sizes());
  for (const Tensor& o : {chunked, online}) {
    Tensor mid = o[0].narrow(0, 5, o.size(1) - 10).select(1, 1);
    EXPECT_LT((mid - 140).abs().max().item<float>(), 1.4f);
  }
  Tensor full =
      F::compute_kaldi_pitch(a, 8000, 25, 10, 50, 400, 10, 0.1, 1000, 4000, 0.005, 7000, 1, 5, 0, 0, false, 500, false);
  EXPECT_EQ(full.size(1), 100);  // 1 s at a 10 ms hop without snipping
}

// Chunked input whose energy changes: the first frames' ballast is rescored
// when the input ends (fewer than recompute_frame frames) or at frame
// recompute_frame - 1 (more).
TEST(AudioKaldiPitch, ChunkedInputRescoresTheFirstFrames) {
  auto tone = [](double t) { return (t < 0.3 ? 0.005 : 0.5) * std::sin(2 * kPi * 200 * t); };
  for (int64_t n : {12000, 48000}) {
    SCOPED_TRACE(n);
    Tensor x = synth(n, 8000, tone);
    Tensor offline = F::compute_kaldi_pitch(x, 8000);
    for (bool online : {false, true}) {
      Tensor out = F::compute_kaldi_pitch(x, 8000, 25, 10, 50, 400, 10, 0.1, 1000, 4000, 0.005, 7000, 1, 5,
                                          online ? 5 : 0, 7, online, n > 20000 ? 500 : 100);
      ASSERT_EQ(out.sizes(), offline.sizes());
      Tensor loud = out[0].narrow(0, 35, out.size(1) - 40);
      EXPECT_LT((loud.select(1, 1) - 200).abs().max().item<float>(), 2.0f);
      EXPECT_GT(loud.select(1, 0).min().item<float>(), 0.9f);
    }
  }
}

TEST(AudioKaldiPitch, BadArgumentsRaise) {
  Tensor x = ember::zeros({1, 4000});
  EXPECT_EMBER_ERROR(F::compute_kaldi_pitch(x, 0), "compute_kaldi_pitch", "sample_rate");
  EXPECT_EMBER_ERROR(F::compute_kaldi_pitch(ember::zeros({4000}, ember::kLong), 8000), "compute_kaldi_pitch",
                     "floating-point");
  EXPECT_EMBER_ERROR(F::compute_kaldi_pitch(ember::zeros({}), 8000), "compute_kaldi_pitch", "waveform");
  EXPECT_EMBER_ERROR(F::compute_kaldi_pitch(x, 8000, 25, 10, 400, 50), "compute_kaldi_pitch", "min_f0");
  EXPECT_EMBER_ERROR(F::compute_kaldi_pitch(x, 1000), "compute_kaldi_pitch", "lowpass_cutoff");
  EXPECT_EMBER_ERROR(F::compute_kaldi_pitch(x, 8000, 0.1), "compute_kaldi_pitch", "frame_length");
  EXPECT_EMBER_ERROR(F::compute_kaldi_pitch(x, 8000, 25, 10, 50, 400, 10, 0.1, 1000, 4000, 0.0), "compute_kaldi_pitch",
                     "delta_pitch");
  EXPECT_EMBER_ERROR(F::compute_kaldi_pitch(x, 8000, 25, 10, 50, 400, 10, 0.1, 1000, 4000, 1e-9), "compute_kaldi_pitch",
                     "pitch states");
  EXPECT_EMBER_ERROR(F::compute_kaldi_pitch(x, 8000, 25, 10, 1e-6, 400), "compute_kaldi_pitch", "lag range");
  EXPECT_EMBER_ERROR(F::compute_kaldi_pitch(x, 8000, 25, 10, 50, 3000), "compute_kaldi_pitch", "lag range");
  EXPECT_EMBER_ERROR(
      F::compute_kaldi_pitch(x, 8000, 25, 10, 50, 400, 10, 0.1, 1000, 4000, 0.005, 7000, 1, 5, 0, 0, true),
      "compute_kaldi_pitch", "simulate_first_pass_online");
  EXPECT_EMBER_ERROR(F::compute_kaldi_pitch(x, 8000, 25, 10, 50, 400, 10, 0.1, 1000, 4000, 0.005, 7000, 0),
                     "compute_kaldi_pitch", "lowpass_filter_width");
  // Too short for a frame: no frames, not an error.
  EXPECT_EQ(F::compute_kaldi_pitch(ember::zeros({2, 10}), 8000).sizes(), (std::vector<int64_t>{2, 0, 2}));
}

}  // namespace
