// torch::fft, windows, stft/istft against PyTorch 1.13 (tools/golden/gen_fft.py),
// plus round trips and the errors of bad arguments.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

namespace torch::testing {
namespace {

const Golden& golden() {
  static const Golden g("fft.golden");
  return g;
}

std::vector<int64_t> ints(const Tensor& cfg) {
  std::vector<int64_t> v;
  for (double d : to_vector(cfg)) v.push_back(static_cast<int64_t>(std::llround(d)));
  return v;
}

const std::optional<std::string_view> kNorms[] = {std::nullopt, "backward", "ortho", "forward"};
const char* kPads[] = {"reflect", "constant", "replicate", "circular"};

// FFT round-off grows like log(n) eps times the magnitude: compare against the largest value.
::testing::AssertionResult close(const Tensor& got, const Tensor& want) {
  const bool single = want.dtype() == kFloat || want.dtype() == kComplexFloat;
  double mx = 0;
  for (double v : to_vector(want)) mx = std::max(mx, std::fabs(v));
  const double tol = single ? 2e-5 : 1e-11;
  return tensors_close(got, want, tol * 10, tol * (1 + mx));
}

using Fn1 = Tensor (*)(const Tensor&, std::optional<int64_t>, int64_t, std::optional<std::string_view>);
const Fn1 kF1[] = {torch::fft::fft,   torch::fft::ifft, torch::fft::rfft,
                   torch::fft::irfft, torch::fft::hfft, torch::fft::ihfft};

TEST(FftGolden, OneDimensional) {
  const auto names = golden().names_with_prefix("t1_");
  ASSERT_GT(names.size(), 300u);
  int cases = 0;
  for (const std::string& nm : names) {
    if (nm.size() < 4 || nm.substr(nm.size() - 4) != ".cfg") continue;
    const std::string c = nm.substr(0, nm.size() - 4);
    const auto cfg = ints(golden()[nm]);
    const std::optional<int64_t> n = cfg[1] < 0 ? std::nullopt : std::optional<int64_t>(cfg[1]);
    const Tensor out = kF1[cfg[0]](golden()[c + ".x"], n, cfg[2], kNorms[cfg[3]]);
    EXPECT_TRUE(close(out, golden()[c + ".out"])) << c << " func " << cfg[0];
    ++cases;
  }
  EXPECT_GT(cases, 150);
}

TEST(FftGolden, MultiDimensional) {
  const auto names = golden().names_with_prefix("tn_");
  ASSERT_GT(names.size(), 100u);
  for (const std::string& nm : names) {
    if (nm.substr(nm.size() - 4) != ".cfg") continue;
    const std::string c = nm.substr(0, nm.size() - 4);
    const auto cfg = ints(golden()[nm]);
    size_t i = 2;
    std::vector<int64_t> s, dim;
    const int64_t ns = cfg[i++];
    for (int64_t k = 0; k < ns; ++k) s.push_back(cfg[i++]);
    const int64_t nd = cfg[i++];
    for (int64_t k = 0; k < nd; ++k) dim.push_back(cfg[i++]);
    const OptionalIntArrayRef so = ns < 0 ? OptionalIntArrayRef() : OptionalIntArrayRef(s);
    const OptionalIntArrayRef dn = nd < 0 ? OptionalIntArrayRef() : OptionalIntArrayRef(dim);
    const std::vector<int64_t> d2 = nd < 0 ? std::vector<int64_t>{-2, -1} : dim;
    const Tensor x = golden()[c + ".x"];
    const auto norm = kNorms[cfg[1]];
    Tensor out;
    switch (cfg[0]) {
      case 0:
        out = torch::fft::fft2(x, so, d2, norm);
        break;
      case 1:
        out = torch::fft::ifft2(x, so, d2, norm);
        break;
      case 2:
        out = torch::fft::rfft2(x, so, d2, norm);
        break;
      case 3:
        out = torch::fft::irfft2(x, so, d2, norm);
        break;
      case 4:
        out = torch::fft::fftn(x, so, dn, norm);
        break;
      case 5:
        out = torch::fft::ifftn(x, so, dn, norm);
        break;
      case 6:
        out = torch::fft::rfftn(x, so, dn, norm);
        break;
      default:
        out = torch::fft::irfftn(x, so, dn, norm);
        break;
    }
    EXPECT_TRUE(close(out, golden()[c + ".out"])) << c << " func " << cfg[0];
  }
}

TEST(FftGolden, Windows) {
  const auto names = golden().names_with_prefix("win_");
  ASSERT_GT(names.size(), 100u);
  for (const std::string& nm : names) {
    if (nm.substr(nm.size() - 4) != ".cfg") continue;
    const std::string c = nm.substr(0, nm.size() - 4);
    const auto v = to_vector(golden()[nm]);
    const Tensor want = golden()[c + ".out"];
    const int64_t L = static_cast<int64_t>(v[1]);
    const bool p = v[2] != 0;
    const TensorOptions o(want.dtype());
    Tensor got;
    switch (static_cast<int>(v[0])) {
      case 0:
        got = torch::hann_window(L, p, o);
        break;
      case 1:
        got = v[3] < 0 ? torch::hamming_window(L, p, o) : torch::hamming_window(L, p, v[3], v[4], o);
        break;
      case 2:
        got = torch::blackman_window(L, p, o);
        break;
      case 3:
        got = torch::bartlett_window(L, p, o);
        break;
      default:
        got = v[3] < 0 ? torch::kaiser_window(L, p, o) : torch::kaiser_window(L, p, v[3], o);
        break;
    }
    EXPECT_TRUE(tensors_close(got, want, 1e-6, 1e-6)) << c;
  }
  // The one-argument forms are periodic, float32 by default.
  EXPECT_TENSOR_CLOSE(torch::hann_window(8), torch::hann_window(8, true));
  EXPECT_EQ(torch::kaiser_window(5).dtype(), kFloat);
  EXPECT_EMBER_ERROR(torch::hann_window(4, TensorOptions(kLong)), "hann_window", "floating point");
  EXPECT_EMBER_ERROR(torch::blackman_window(-1), "blackman_window", "non-negative");
}

TEST(FftGolden, FreqAndShift) {
  for (const std::string& nm : golden().names_with_prefix("freq_")) {
    if (nm.substr(nm.size() - 4) != ".cfg") continue;
    const std::string c = nm.substr(0, nm.size() - 4);
    const auto v = to_vector(golden()[nm]);
    const Tensor want = golden()[c + ".out"];
    const TensorOptions o(want.dtype());
    const Tensor got = v[0] == 0 ? torch::fft::fftfreq(static_cast<int64_t>(v[1]), v[2], o)
                                 : torch::fft::rfftfreq(static_cast<int64_t>(v[1]), v[2], o);
    EXPECT_TRUE(tensors_close(got, want, 1e-6, 1e-7)) << c;
  }
  for (const std::string& nm : golden().names_with_prefix("shift_")) {
    if (nm.substr(nm.size() - 4) != ".cfg") continue;
    const std::string c = nm.substr(0, nm.size() - 4);
    const auto cfg = ints(golden()[nm]);
    std::vector<int64_t> dims(cfg.begin() + 2, cfg.end());
    const OptionalIntArrayRef d = cfg[1] < 0 ? OptionalIntArrayRef() : OptionalIntArrayRef(dims);
    const Tensor x = golden()[c + ".x"];
    const Tensor got = cfg[0] == 0 ? torch::fft::fftshift(x, d) : torch::fft::ifftshift(x, d);
    EXPECT_TENSOR_EQ(got, golden()[c + ".out"]);
  }
}

TEST(FftGolden, Stft) {
  const auto names = golden().names_with_prefix("stft_");
  ASSERT_GT(names.size(), 10u);
  for (const std::string& nm : names) {
    if (nm.substr(nm.size() - 4) != ".cfg") continue;
    const std::string c = nm.substr(0, nm.size() - 4);
    const auto cfg = ints(golden()[nm]);
    const Tensor x = golden()[c + ".x"];
    const std::optional<Tensor> w = golden().has(c + ".w") ? std::optional<Tensor>(golden()[c + ".w"]) : std::nullopt;
    const auto hop = cfg[1] < 0 ? std::nullopt : std::optional<int64_t>(cfg[1]);
    const auto win = cfg[2] < 0 ? std::nullopt : std::optional<int64_t>(cfg[2]);
    const auto onesided = cfg[6] < 0 ? std::nullopt : std::optional<bool>(cfg[6] != 0);
    const Tensor out =
        cfg[3] < 0 ? torch::stft(x, cfg[0], hop, win, w, cfg[5] != 0, onesided, true)
                   : torch::stft(x, cfg[0], hop, win, w, cfg[3] != 0, kPads[cfg[4]], cfg[5] != 0, onesided, true);
    EXPECT_TRUE(close(out, golden()[c + ".out"])) << c;
  }
}

TEST(FftGolden, Istft) {
  const auto names = golden().names_with_prefix("istft_");
  ASSERT_GT(names.size(), 5u);
  for (const std::string& nm : names) {
    if (nm.substr(nm.size() - 4) != ".cfg") continue;
    const std::string c = nm.substr(0, nm.size() - 4);
    const auto cfg = ints(golden()[nm]);
    const std::optional<Tensor> w = golden().has(c + ".w") ? std::optional<Tensor>(golden()[c + ".w"]) : std::nullopt;
    const auto hop = cfg[1] < 0 ? std::nullopt : std::optional<int64_t>(cfg[1]);
    const auto win = cfg[2] < 0 ? std::nullopt : std::optional<int64_t>(cfg[2]);
    const auto onesided = cfg[5] < 0 ? std::nullopt : std::optional<bool>(cfg[5] != 0);
    const auto length = cfg[6] < 0 ? std::nullopt : std::optional<int64_t>(cfg[6]);
    const Tensor out =
        torch::istft(golden()[c + ".x"], cfg[0], hop, win, w, cfg[3] != 0, cfg[4] != 0, onesided, length, cfg[7] != 0);
    EXPECT_TRUE(close(out, golden()[c + ".out"])) << c;
  }
}

TEST(Fft, RoundTrips) {
  torch::manual_seed(3);
  const Tensor x = torch::randn({3, 101}, TensorOptions(kDouble));
  EXPECT_TENSOR_CLOSE(torch::fft::irfft(torch::fft::rfft(x), 101), x);
  EXPECT_TENSOR_CLOSE(torch::fft::ifft(torch::fft::fft(x)).real(), x);
  EXPECT_TENSOR_CLOSE(torch::fft::irfftn(torch::fft::rfftn(x), x.sizes()), x);
  const Tensor sig = torch::randn({2, 1000});
  const Tensor w = torch::hann_window(64);
  const Tensor spec = torch::stft(sig, 64, 16, 64, w, true, "reflect", false, std::nullopt, true);
  EXPECT_EQ(spec.sizes(), IntArrayRef({2, 33, 63}));
  const Tensor back = torch::istft(spec, 64, 16, 64, w, true, false, std::nullopt, 1000);
  EXPECT_TRUE(tensors_close(back, sig, 1e-4, 1e-5));
}

TEST(Fft, BatchedAlongAnyDimMatchesPerLane) {
  // Large enough to split across threads; each lane must equal its own 1-D transform.
  torch::manual_seed(4);
  const Tensor x = torch::randn({64, 30, 40});
  const Tensor y = torch::fft::fft(x, std::nullopt, 1);
  for (int64_t i : {0, 17, 63}) {
    const Tensor lane = torch::fft::fft(x.select(0, i).select(1, 5).contiguous());
    EXPECT_TRUE(tensors_close(y.select(0, i).select(1, 5), lane, 1e-5, 1e-5));
  }
}

// Batches take the lane-parallel FFT, single lanes KissFFT: the two must agree for every
// length class (radix 4/2, 3, 5, other primes), dtype and transform kind.
TEST(Fft, LaneParallelMatchesKissFft) {
  torch::manual_seed(5);
  for (ScalarType t : {kFloat, kDouble}) {
    const double tol = t == kFloat ? 2e-5 : 1e-11;
    for (int64_t n : {2, 3, 4, 5, 6, 7, 9, 10, 12, 15, 16, 25, 30, 49, 64, 100, 101, 400}) {
      const Tensor x = torch::randn({37, n}, TensorOptions(t));  // 37: full groups plus a partial one
      const Tensor z = torch::randn({37, n}, TensorOptions(to_complex_type(t)));
      const Tensor h = torch::randn({37, n / 2 + 1}, TensorOptions(to_complex_type(t)));
      const Tensor r = torch::fft::rfft(x), c = torch::fft::fft(z), i = torch::fft::ifft(z), f = torch::fft::fft(x);
      const Tensor b = torch::fft::irfft(h, n);
      for (int64_t l : {0, 15, 16, 36}) {
        const double scale = static_cast<double>(n);
        EXPECT_TRUE(tensors_close(r[l], torch::fft::rfft(x[l]), tol, tol * scale)) << "rfft n=" << n << " " << t;
        EXPECT_TRUE(tensors_close(f[l], torch::fft::fft(x[l]), tol, tol * scale)) << "fft(real) n=" << n;
        EXPECT_TRUE(tensors_close(c[l], torch::fft::fft(z[l]), tol, tol * scale)) << "fft n=" << n << " " << t;
        EXPECT_TRUE(tensors_close(i[l], torch::fft::ifft(z[l]), tol, tol)) << "ifft n=" << n << " " << t;
        EXPECT_TRUE(tensors_close(b[l], torch::fft::irfft(h[l], n), tol, tol)) << "irfft n=" << n << " " << t;
      }
    }
  }
}

TEST(Fft, ReturnsLibTorchDtypes) {
  EXPECT_EQ(torch::fft::fft(torch::ones({4})).dtype(), kComplexFloat);
  EXPECT_EQ(torch::fft::rfft(torch::ones({4}, TensorOptions(kDouble))).dtype(), kComplexDouble);
  EXPECT_EQ(torch::fft::irfft(torch::ones({3}, TensorOptions(kComplexFloat))).dtype(), kFloat);
  EXPECT_EQ(torch::fft::fft(torch::ones({4}, TensorOptions(kInt))).dtype(), kComplexFloat);
  EXPECT_EQ(torch::fft::irfft(torch::ones({3}, TensorOptions(kComplexFloat))).size(0), 4);
}

TEST(Fft, BadArguments) {
  const Tensor x = torch::randn({4, 6});
  EXPECT_EMBER_ERROR(torch::fft::fft(x, 0), "fft_fft", "Invalid number of data points (0)");
  EXPECT_EMBER_ERROR(torch::fft::rfft(x, -3), "fft_rfft", "Invalid number of data points");
  EXPECT_EMBER_ERROR(torch::fft::fft(x, std::nullopt, 2), "fft_fft");
  EXPECT_EMBER_ERROR(torch::fft::ifft(x, std::nullopt, -1, "sideways"), "fft_ifft", "Invalid normalization mode",
                     "sideways");
  EXPECT_EMBER_ERROR(torch::fft::irfft(torch::ones({1}, TensorOptions(kComplexFloat))), "fft_irfft",
                     "Invalid number of data points (0)");
  EXPECT_EMBER_ERROR(torch::fft::rfft(torch::ones({4}, TensorOptions(kComplexFloat))), "fft_rfft",
                     "expects a real input");
  EXPECT_EMBER_ERROR(torch::fft::fft(torch::ones({4}, TensorOptions(kHalf))), "fft_fft", "Unsupported dtype");
  EXPECT_EMBER_ERROR(torch::fft::fftn(x, IntArrayRef{4, 4, 4}), "fft_fftn", "only has 2 dimensions");
  EXPECT_EMBER_ERROR(torch::fft::fftn(x, IntArrayRef{4}, IntArrayRef{0, 1}), "fft_fftn", "same length");
  EXPECT_EMBER_ERROR(torch::fft::fft2(x, std::nullopt, IntArrayRef{1, -1}), "fft_fft2", "unique");
  EXPECT_EMBER_ERROR(torch::fft::rfftn(x, std::nullopt, IntArrayRef{}), "fft_rfftn", "at least one axis");
  EXPECT_EMBER_ERROR(torch::fft::fftshift(x, IntArrayRef{3}), "fft_fftshift");

  const Tensor sig = torch::randn({100});
  EXPECT_EMBER_ERROR(torch::stft(sig, 16, 4, 16, torch::hann_window(12), true, "reflect", false, std::nullopt, true),
                     "stft", "window", "win_length=16", "[12]");
  EXPECT_EMBER_ERROR(torch::stft(sig, 16, 4), "stft", "return_complex");
  EXPECT_EMBER_ERROR(torch::stft(sig, 200, 4, std::nullopt, {}, false, std::nullopt, true), "stft", "n_fft");
  EXPECT_EMBER_ERROR(torch::stft(sig, 16, 0, std::nullopt, {}, false, std::nullopt, true), "stft", "hop_length");
  EXPECT_EMBER_ERROR(torch::stft(sig, 16, 4, 20, {}, false, std::nullopt, true), "stft", "win_length");
  EXPECT_EMBER_ERROR(torch::stft(torch::randn({2, 2, 30}), 8, 2, std::nullopt, {}, false, std::nullopt, true), "stft",
                     "1D or 2D");
  const Tensor spec =
      torch::stft(sig, 16, 4, std::nullopt, torch::hann_window(16), true, "reflect", false, std::nullopt, true);
  EXPECT_EMBER_ERROR(torch::istft(spec, 20, 4), "istft", "n_fft / 2 + 1");
  EXPECT_EMBER_ERROR(torch::istft(spec, 16, 4, std::nullopt, torch::hann_window(8)), "istft", "win_length=16");
  EXPECT_EMBER_ERROR(torch::istft(spec.real(), 16, 4), "istft", "complex");
  // A rectangular window with hop > win leaves gaps the overlap-add cannot invert.
  EXPECT_EMBER_ERROR(torch::istft(spec, 16, 4, 2, {}, false), "istft", "hop_length <= win_length");
}

}  // namespace
}  // namespace torch::testing
