#include "ember/audio/models/hdemucs.h"

#include <algorithm>
#include <cmath>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/fft/stft.h"
#include "ember/fft/window.h"
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/activation_extra.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::models {
namespace hdemucs {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Runs one of the layers HEncLayer/HDecLayer hold by base pointer; null is nn.Identity.
Tensor run(const std::shared_ptr<nn::Module>& m, const Tensor& x) {
  if (!m) return x;
  if (auto* c = m->as<nn::Conv1dImpl>()) return c->forward(x);
  if (auto* c = m->as<nn::Conv2dImpl>()) return c->forward(x);
  if (auto* c = m->as<nn::ConvTranspose1dImpl>()) return c->forward(x);
  if (auto* c = m->as<nn::ConvTranspose2dImpl>()) return c->forward(x);
  if (auto* g = m->as<nn::GroupNormImpl>()) return g->forward(x);
  EMBER_ERROR("HDemucs: internal error: unexpected layer type");
}

std::shared_ptr<nn::Module> make_conv(bool freq, int64_t in, int64_t out, int64_t kernel, int64_t stride,
                                      int64_t padding) {
  if (freq) {
    return nn::Conv2d(nn::Conv2dOptions(in, out, {kernel, 1}).stride({stride, 1}).padding({padding, 0})).ptr();
  }
  return nn::Conv1d(nn::Conv1dOptions(in, out, kernel).stride(stride).padding(padding)).ptr();
}

// torchaudio's Conv(chin, chout, k, 1, ctx) with an int kernel: square in 2-D.
std::shared_ptr<nn::Module> rewrite_conv(bool freq, int64_t in, int64_t out, int64_t context) {
  const int64_t k = 1 + 2 * context;
  if (freq) return nn::Conv2d(nn::Conv2dOptions(in, out, k).padding(context)).ptr();
  return nn::Conv1d(nn::Conv1dOptions(in, out, k).padding(context)).ptr();
}

std::shared_ptr<nn::Module> norm(bool group_norm, int64_t groups, int64_t channels) {
  if (!group_norm) return nullptr;
  return nn::GroupNorm(nn::GroupNormOptions(groups, channels)).ptr();
}

// Overlapping frames of the last dim: [..., T] -> [..., ceil(T / stride), kernel] (zero-padded).
Tensor unfold_frames(const Tensor& a, int64_t kernel_size, int64_t stride) {
  const int64_t length = a.size(-1);
  const int64_t n_frames = ceil_div(length, stride);
  const int64_t tgt_length = (n_frames - 1) * stride + kernel_size;
  Tensor padded = constant_pad_nd(a, {0, tgt_length - length}, 0.0).contiguous();
  std::vector<int64_t> shape(a.sizes().begin(), a.sizes().end() - 1), strides;
  for (int64_t d = 0; d + 1 < padded.dim(); ++d) strides.push_back(padded.stride(d));
  shape.push_back(n_frames);
  shape.push_back(kernel_size);
  strides.push_back(stride);
  strides.push_back(1);
  return padded.as_strided(shape, strides, std::nullopt);
}

}  // namespace

ScaledEmbeddingImpl::ScaledEmbeddingImpl(int64_t num_embeddings, int64_t embedding_dim, double scale_, bool smooth)
    : scale(scale_) {
  embedding = register_module("embedding", nn::Embedding(num_embeddings, embedding_dim));
  NoGradGuard no_grad;
  Tensor w = embedding->weight;
  if (smooth) {
    Tensor smoothed = w.cumsum(0) / arange(1, num_embeddings + 1).sqrt().unsqueeze(1);
    w.copy_(smoothed);
  }
  w.div_(scale);
}

Tensor ScaledEmbeddingImpl::weight() const { return embedding->weight * scale; }
Tensor ScaledEmbeddingImpl::forward(const Tensor& x) { return embedding->forward(x) * scale; }

LayerScaleImpl::LayerScaleImpl(int64_t channels, double init) {
  scale = register_parameter("scale", full({channels}, init));
}

Tensor LayerScaleImpl::forward(const Tensor& x) { return scale.unsqueeze(1) * x; }

BLSTMImpl::BLSTMImpl(int64_t dim, int64_t layers, bool skip_) : skip(skip_) {
  lstm = register_module("lstm", nn::LSTM(nn::LSTMOptions(dim, dim).num_layers(layers).bidirectional(true)));
  linear = register_module("linear", nn::Linear(2 * dim, dim));
}

Tensor BLSTMImpl::forward(const Tensor& input) {
  const int64_t B = input.size(0), C = input.size(1), T = input.size(2);
  Tensor x = input;
  const bool framed = T > max_steps;
  const int64_t width = max_steps, stride = max_steps / 2;
  int64_t nframes = 0;
  if (framed) {
    Tensor frames = unfold_frames(x, width, stride);
    nframes = frames.size(2);
    x = frames.permute({0, 2, 1, 3}).reshape({-1, C, width});
  }
  x = linear->forward(std::get<0>(lstm->forward(x.permute({2, 0, 1})))).permute({1, 2, 0});
  if (framed) {
    std::vector<Tensor> out;
    Tensor frames = x.reshape({B, -1, C, width});
    const int64_t limit = stride / 2;
    for (int64_t k = 0; k < nframes; ++k) {
      Tensor f = frames.select(1, k);
      if (k == 0) {
        out.push_back(f.narrow(-1, 0, width - limit));
      } else if (k == nframes - 1) {
        out.push_back(f.narrow(-1, limit, width - limit));
      } else {
        out.push_back(f.narrow(-1, limit, width - 2 * limit));
      }
    }
    x = cat(out, -1).narrow(-1, 0, T);
  }
  return skip ? x + input : x;
}

LocalStateImpl::LocalStateImpl(int64_t channels, int64_t heads_, int64_t ndecay_) : heads(heads_), ndecay(ndecay_) {
  EMBER_CHECK(heads > 0 && channels % heads == 0, "HDemucs: Channels must be divisible by heads, got ", channels,
              " and ", heads);
  content = register_module("content", nn::Conv1d(nn::Conv1dOptions(channels, channels, 1)));
  query = register_module("query", nn::Conv1d(nn::Conv1dOptions(channels, channels, 1)));
  key = register_module("key", nn::Conv1d(nn::Conv1dOptions(channels, channels, 1)));
  query_decay = register_module("query_decay", nn::Conv1d(nn::Conv1dOptions(channels, heads * ndecay, 1)));
  if (ndecay) {
    NoGradGuard no_grad;
    query_decay->weight.mul_(0.01);
    query_decay->bias.fill_(-2.0);
  }
  proj = register_module("proj", nn::Conv1d(nn::Conv1dOptions(channels, channels, 1)));
}

Tensor LocalStateImpl::forward(const Tensor& x) {
  const int64_t B = x.size(0), T = x.size(2);
  Tensor indexes = arange(T, x.options());
  Tensor delta = indexes.unsqueeze(1) - indexes.unsqueeze(0);
  Tensor queries = query->forward(x).view({B, heads, -1, T});
  Tensor keys = key->forward(x).view({B, heads, -1, T});
  Tensor dots = einsum("bhct,bhcs->bhts", {keys, queries}) / std::sqrt(static_cast<double>(keys.size(2)));
  if (ndecay) {
    Tensor decays = arange(1, ndecay + 1, x.options());
    Tensor decay_q = sigmoid(query_decay->forward(x).view({B, heads, -1, T})) / 2;
    Tensor decay_kernel = -decays.view({-1, 1, 1}) * delta.abs() / std::sqrt(static_cast<double>(ndecay));
    dots = dots + einsum("fts,bhfs->bhts", {decay_kernel, decay_q});
  }
  dots = dots.masked_fill(eye(T, TensorOptions(kBool)), -100.0);
  Tensor weights = softmax(dots, 2);
  Tensor content_v = content->forward(x).view({B, heads, -1, T});
  Tensor result = einsum("bhts,bhct->bhcs", {weights, content_v}).reshape({B, -1, T});
  return x + proj->forward(result);
}

DConvImpl::DConvImpl(int64_t channels, double compress, int64_t depth, double init, const std::string& norm_type,
                     bool attn, int64_t heads, int64_t ndecay, bool lstm, int64_t kernel_size) {
  EMBER_CHECK(kernel_size % 2 == 1, "HDemucs: Kernel size should not be divisible by 2, got ", kernel_size);
  const bool dilate = depth > 0;
  const bool group_norm = norm_type == "group_norm";
  const auto hidden = static_cast<int64_t>(static_cast<double>(channels) / compress);
  layers = register_module("layers", nn::ModuleList());
  for (int64_t d = 0; d < std::abs(depth); ++d) {
    const int64_t dilation = dilate ? (int64_t{1} << d) : 1;
    nn::Sequential seq;
    seq->push_back(nn::Conv1d(
        nn::Conv1dOptions(channels, hidden, kernel_size).dilation(dilation).padding(dilation * (kernel_size / 2))));
    if (group_norm) {
      seq->push_back(nn::GroupNorm(nn::GroupNormOptions(1, hidden)));
    } else {
      seq->push_back(nn::Identity());
    }
    seq->push_back(nn::GELU());
    // torchaudio inserts LocalState then BLSTM at index 3, so the LSTM comes first.
    if (lstm) seq->push_back(BLSTM(hidden, 2, true));
    if (attn) seq->push_back(LocalState(hidden, heads, ndecay));
    seq->push_back(nn::Conv1d(nn::Conv1dOptions(hidden, 2 * channels, 1)));
    if (group_norm) {
      seq->push_back(nn::GroupNorm(nn::GroupNormOptions(1, 2 * channels)));
    } else {
      seq->push_back(nn::Identity());
    }
    seq->push_back(nn::GLU(nn::GLUOptions(1)));
    seq->push_back(LayerScale(channels, init));
    layers->push_back(seq);
  }
}

Tensor DConvImpl::forward(const Tensor& input) {
  Tensor x = input;
  for (const auto& layer : *layers) x = x + layer->as<nn::SequentialImpl>()->forward(x);
  return x;
}

HEncLayerImpl::HEncLayerImpl(int64_t chin, int64_t chout, int64_t kernel_size_, int64_t stride_, int64_t norm_groups,
                             bool empty_, bool freq_, const std::string& norm_type, int64_t context,
                             const DConvKw& dconv_kw, bool pad_)
    : freq(freq_), empty(empty_), kernel_size(kernel_size_), stride(stride_), pad(pad_ ? kernel_size_ / 4 : 0) {
  const bool gn = norm_type == "group_norm";
  conv = register_module("conv", make_conv(freq, chin, chout, kernel_size, stride, pad));
  norm1 = norm(gn, norm_groups, chout);
  if (norm1) register_module("norm1", norm1);
  if (!empty) {
    rewrite = register_module("rewrite", rewrite_conv(freq, chout, 2 * chout, context));
    norm2 = norm(gn, norm_groups, 2 * chout);
    if (norm2) register_module("norm2", norm2);
    dconv = register_module("dconv", DConv(chout, dconv_kw.compress, dconv_kw.depth, dconv_kw.init, "group_norm",
                                           dconv_kw.attn, 4, 4, dconv_kw.lstm));
  }
}

Tensor HEncLayerImpl::forward(const Tensor& input, const std::optional<Tensor>& inject_in) {
  Tensor x = input;
  if (!freq && x.dim() == 4) x = x.reshape({x.size(0), -1, x.size(3)});
  if (!freq && x.size(-1) % stride != 0) x = constant_pad_nd(x, {0, stride - x.size(-1) % stride}, 0.0);
  Tensor y = run(conv, x);
  if (empty) return y;
  if (inject_in) {
    Tensor inject = *inject_in;
    EMBER_CHECK(inject.size(-1) == y.size(-1), "HDemucs: Injection shapes do not align: ", inject.sizes(), " vs ",
                y.sizes());
    if (inject.dim() == 3 && y.dim() == 4) inject = inject.unsqueeze(2);
    y = y + inject;
  }
  y = gelu(run(norm1, y));
  if (freq) {
    const int64_t B = y.size(0), C = y.size(1), Fr = y.size(2), T = y.size(3);
    y = dconv->forward(y.permute({0, 2, 1, 3}).reshape({-1, C, T}));
    y = y.view({B, Fr, C, T}).permute({0, 2, 1, 3});
  } else {
    y = dconv->forward(y);
  }
  return glu(run(norm2, run(rewrite, y)), 1);
}

HDecLayerImpl::HDecLayerImpl(int64_t chin_, int64_t chout, bool last_, int64_t kernel_size_, int64_t stride_,
                             int64_t norm_groups, bool empty_, bool freq_, const std::string& norm_type,
                             int64_t context, const DConvKw& /*dconv_kw*/, bool pad_)
    : pad(0), chin(chin_), stride(stride_), kernel_size(kernel_size_), last(last_), freq(freq_), empty(empty_) {
  if (pad_) {
    EMBER_CHECK((kernel_size - stride) % 2 == 0, "HDemucs: Kernel size and stride do not align: ", kernel_size, ", ",
                stride);
    pad = (kernel_size - stride) / 2;
  }
  const bool gn = norm_type == "group_norm";
  if (freq) {
    conv_tr = nn::ConvTranspose2d(nn::ConvTranspose2dOptions(chin, chout, {kernel_size, 1}).stride({stride, 1})).ptr();
  } else {
    conv_tr = nn::ConvTranspose1d(nn::ConvTranspose1dOptions(chin, chout, kernel_size).stride(stride)).ptr();
  }
  register_module("conv_tr", conv_tr);
  norm2 = norm(gn, norm_groups, chout);
  if (norm2) register_module("norm2", norm2);
  if (!empty) {
    rewrite = register_module("rewrite", rewrite_conv(freq, chin, 2 * chin, context));
    norm1 = norm(gn, norm_groups, 2 * chin);
    if (norm1) register_module("norm1", norm1);
  }
}

std::tuple<Tensor, Tensor> HDecLayerImpl::forward(const Tensor& input, const std::optional<Tensor>& skip,
                                                  int64_t length) {
  Tensor x = input;
  if (freq && x.dim() == 3) x = x.view({x.size(0), chin, -1, x.size(2)});
  Tensor y;
  if (!empty) {
    EMBER_CHECK(skip.has_value(), "HDemucs: internal error: a skip connection is missing");
    y = glu(run(norm1, run(rewrite, x + *skip)), 1);
  } else {
    EMBER_CHECK(!skip.has_value(), "HDemucs: Skip must be none when empty is true.");
    y = x;
  }
  Tensor z = run(norm2, run(conv_tr, y));
  if (freq) {
    if (pad) z = z.narrow(-2, pad, z.size(-2) - 2 * pad);
  } else {
    EMBER_CHECK(z.size(-1) >= pad + length, "HDemucs: Last index of z must be equal to length");
    z = z.narrow(-1, pad, length);
  }
  if (!last) z = gelu(z);
  return {z, y};
}

}  // namespace hdemucs

HDemucsImpl::HDemucsImpl(const HDemucsOptions& options_) : options(options_) {
  const auto& o = options;
  EMBER_CHECK(!o.sources().empty(), "HDemucs: sources must not be empty");
  EMBER_CHECK(o.audio_channels() > 0 && o.channels() > 0 && o.depth() > 0 && o.nfft() >= 4 && o.growth() > 0,
              "HDemucs: audio_channels, channels, depth, growth must be positive and nfft at least 4");
  hop_length = o.nfft() / 4;
  freq_encoder = register_module("freq_encoder", nn::ModuleList());
  freq_decoder = register_module("freq_decoder", nn::ModuleList());
  time_encoder = register_module("time_encoder", nn::ModuleList());
  time_decoder = register_module("time_decoder", nn::ModuleList());
  std::vector<std::shared_ptr<nn::Module>> freq_dec, time_dec;  // built innermost-last, stored innermost-first
  int64_t chin = o.audio_channels(), chin_z = chin * 2, chout = o.channels(), chout_z = o.channels();
  int64_t freqs = o.nfft() / 2;
  for (int64_t index = 0; index < o.depth(); ++index) {
    hdemucs::DConvKw dkw;
    dkw.lstm = index >= o.dconv_lstm();
    dkw.attn = index >= o.dconv_attn();
    dkw.depth = o.dconv_depth();
    dkw.compress = static_cast<double>(o.dconv_comp());
    dkw.init = o.dconv_init();
    const std::string norm_type = index >= o.norm_starts() ? "group_norm" : "none";
    const bool freq = freqs > 1;
    int64_t stri = o.stride(), ker = o.kernel_size();
    if (!freq) {
      EMBER_CHECK(freqs == 1, "HDemucs: When freq is false, freqs must be 1.");
      ker = o.time_stride() * 2;
      stri = o.time_stride();
    }
    bool pad = true, last_freq = false;
    if (freq && freqs <= o.kernel_size()) {
      ker = freqs;
      pad = false;
      last_freq = true;
    }
    if (last_freq) {
      chout_z = std::max(chout, chout_z);
      chout = chout_z;
    }
    auto enc = hdemucs::HEncLayer(chin_z, chout_z, ker, stri, o.norm_groups(), false, freq, norm_type, o.context_enc(),
                                  dkw, pad);
    // torchaudio's kwt: the time branch's kernel and stride (2048-point models shrink the innermost one).
    int64_t t_stride = o.stride(), t_kernel = o.kernel_size();
    if (freq && last_freq && o.nfft() == 2048) {
      t_stride = 2;
      t_kernel = 4;
    }
    if (freq) {
      time_encoder->push_back(hdemucs::HEncLayer(chin, chout, t_kernel, t_stride, o.norm_groups(), last_freq, false,
                                                 norm_type, o.context_enc(), dkw, true));
    }
    freq_encoder->push_back(enc);
    if (index == 0) {
      chin = o.audio_channels() * static_cast<int64_t>(o.sources().size());
      chin_z = chin * 2;
    }
    freq_dec.push_back(hdemucs::HDecLayer(chout_z, chin_z, index == 0, ker, stri, o.norm_groups(), false, freq,
                                          norm_type, o.context(), dkw, pad)
                           .ptr());
    if (freq) {
      time_dec.push_back(hdemucs::HDecLayer(chout, chin, index == 0, t_kernel, t_stride, o.norm_groups(), last_freq,
                                            false, norm_type, o.context(), dkw, true)
                             .ptr());
    }
    chin = chout;
    chin_z = chout_z;
    chout = o.growth() * chout;
    chout_z = o.growth() * chout_z;
    if (freq) freqs = freqs <= o.kernel_size() ? 1 : freqs / o.stride();
    if (index == 0 && o.freq_emb() != 0.0) {
      freq_emb = register_module(
          "freq_emb", hdemucs::ScaledEmbedding(freqs, chin_z, static_cast<double>(o.emb_scale()), o.emb_smooth()));
      freq_emb_scale = o.freq_emb();
    }
  }
  for (auto it = freq_dec.rbegin(); it != freq_dec.rend(); ++it) freq_decoder->push_back(*it);
  for (auto it = time_dec.rbegin(); it != time_dec.rend(); ++it) time_decoder->push_back(*it);
  // torchaudio's _rescale_module: every convolution's weight std brought towards 0.1.
  NoGradGuard no_grad;
  for (const auto& item : named_modules("", false)) {
    Tensor w, b;
    const auto& m = item.value();
    if (auto* c = m->as<nn::Conv1dImpl>()) w = c->weight, b = c->bias;
    if (auto* c = m->as<nn::Conv2dImpl>()) w = c->weight, b = c->bias;
    if (auto* c = m->as<nn::ConvTranspose1dImpl>()) w = c->weight, b = c->bias;
    if (auto* c = m->as<nn::ConvTranspose2dImpl>()) w = c->weight, b = c->bias;
    if (!w.defined()) continue;
    const double scale = std::sqrt(w.std().item<double>() / 0.1);
    w.div_(scale);
    if (b.defined()) b.div_(scale);
  }
}

Tensor HDemucsImpl::spec(const Tensor& x) const {
  const int64_t hl = hop_length, nfft = options.nfft(), T = x.size(-1);
  const int64_t le = hdemucs::ceil_div(T, hl);
  const int64_t pad = hl / 2 * 3, pad_right = pad + le * hl - T;
  Tensor padded = x;
  const int64_t max_pad = std::max(pad, pad_right);
  if (T <= max_pad) padded = constant_pad_nd(padded, {0, max_pad - T + 1}, 0.0);
  padded = ::torch::pad(padded, {pad, pad_right}, "reflect");
  auto other = padded.sizes().vec();
  const int64_t L = other.back();
  other.pop_back();
  Tensor z = stft(padded.reshape({-1, L}), nfft, hl, nfft, hann_window(nfft, padded.options()), true, "reflect", true,
                  std::nullopt, true);
  other.push_back(z.size(1));
  other.push_back(z.size(2));
  z = z.view(other);
  z = z.narrow(-2, 0, z.size(-2) - 1);
  EMBER_CHECK(z.size(-1) == le + 4, "HDemucs: Spectrogram's last dimension must be 4 + input size divided by stride");
  return z.narrow(-1, 2, le);
}

Tensor HDemucsImpl::ispec(const Tensor& z_in, int64_t length) const {
  const int64_t hl = hop_length;
  Tensor z = constant_pad_nd(z_in, {0, 0, 0, 1}, 0.0);
  z = constant_pad_nd(z, {2, 2}, 0.0);
  const int64_t pad = hl / 2 * 3;
  const int64_t le = hl * hdemucs::ceil_div(length, hl) + 2 * pad;
  auto other = z.sizes().vec();
  const int64_t frames = other.back();
  other.pop_back();
  const int64_t freqs = other.back();
  other.pop_back();
  const int64_t n_fft = 2 * freqs - 2;
  Tensor x = istft(z.reshape({-1, freqs, frames}), n_fft, hl, n_fft,
                   hann_window(n_fft, TensorOptions(z.scalar_type() == kComplexDouble ? kFloat64 : kFloat)), true, true,
                   std::nullopt, le);
  other.push_back(x.size(-1));
  return x.view(other).narrow(-1, pad, length);
}

Tensor HDemucsImpl::forward(const Tensor& input) {
  EMBER_CHECK(input.dim() == 3,
              "HDemucs: Expected 3D tensor with dimensions (batch, channel, frames). Found: ", input.sizes());
  EMBER_CHECK(input.size(1) == options.audio_channels(),
              "HDemucs: The channel dimension of input Tensor must match `audio_channels` of HDemucs model. Found:",
              input.size(1));
  EMBER_CHECK(input.is_floating_point(), "HDemucs: expected a floating-point input, got ", input.scalar_type());
  EMBER_CHECK(input.size(2) > 0, "HDemucs: the input has no frames");
  const int64_t length = input.size(-1);
  Tensor z = spec(input);
  // Magnitude: real and imaginary parts as channels.
  const int64_t B = z.size(0), Cz = z.size(1), Fq = z.size(2), T = z.size(3);
  Tensor x = view_as_real(z).permute({0, 1, 4, 2, 3}).reshape({B, Cz * 2, Fq, T});
  Tensor mean = x.mean({1, 2, 3}, true), std_ = x.std({1, 2, 3}, true, true);
  x = (x - mean) / (std_ + 1e-5);
  Tensor meant = input.mean({1, 2}, true), stdt = input.std({1, 2}, true, true);
  Tensor xt = (input - meant) / (stdt + 1e-5);
  std::vector<Tensor> saved, saved_t;
  std::vector<int64_t> lengths, lengths_t;
  const size_t n_time = time_encoder->size();
  for (size_t idx = 0; idx < freq_encoder->size(); ++idx) {
    lengths.push_back(x.size(-1));
    std::optional<Tensor> inject;
    if (idx < n_time) {
      lengths_t.push_back(xt.size(-1));
      auto* tenc = time_encoder->ptr(idx)->as<hdemucs::HEncLayerImpl>();
      xt = tenc->forward(xt);
      if (!tenc->empty) {
        saved_t.push_back(xt);
      } else {
        inject = xt;
      }
    }
    x = freq_encoder->ptr(idx)->as<hdemucs::HEncLayerImpl>()->forward(x, inject);
    if (idx == 0 && !freq_emb.is_empty()) {
      Tensor frs = arange(x.size(-2), TensorOptions(kInt64));
      Tensor emb = freq_emb->forward(frs).t().unsqueeze(0).unsqueeze(-1).expand_as(x);
      x = x + emb * freq_emb_scale;
    }
    saved.push_back(x);
  }
  x = zeros_like(x);
  xt = zeros_like(x);
  const int64_t offset = options.depth() - static_cast<int64_t>(time_decoder->size());
  for (size_t idx = 0; idx < freq_decoder->size(); ++idx) {
    Tensor skip = saved.back();
    saved.pop_back();
    const int64_t len = lengths.back();
    lengths.pop_back();
    auto [xo, pre] = freq_decoder->ptr(idx)->as<hdemucs::HDecLayerImpl>()->forward(x, skip, len);
    x = xo;
    if (static_cast<int64_t>(idx) >= offset) {
      auto* tdec = time_decoder->ptr(idx - static_cast<size_t>(offset))->as<hdemucs::HDecLayerImpl>();
      const int64_t length_t = lengths_t.back();
      lengths_t.pop_back();
      if (tdec->empty) {
        EMBER_CHECK(pre.size(2) == 1, "HDemucs: If tdec empty is True, pre shape does not match ", pre.sizes());
        xt = std::get<0>(tdec->forward(pre.select(2, 0), std::nullopt, length_t));
      } else {
        Tensor skip_t = saved_t.back();
        saved_t.pop_back();
        xt = std::get<0>(tdec->forward(xt, skip_t, length_t));
      }
    }
  }
  const auto S = static_cast<int64_t>(options.sources().size());
  x = x.view({B, S, -1, Fq, T}) * std_.unsqueeze(1) + mean.unsqueeze(1);
  // Back to complex: [B, S, C, 2 (re, im), Fq, T] -> [B, S, C, Fq, T] complex.
  Tensor zout = view_as_complex(x.view({B, S, -1, 2, Fq, T}).permute({0, 1, 2, 4, 5, 3}).contiguous());
  Tensor wave = ispec(zout, length);
  xt = xt.view({B, S, -1, length}) * stdt.unsqueeze(1) + meant.unsqueeze(1);
  return xt + wave;
}

HDemucs hdemucs_low(std::vector<std::string> sources) {
  return HDemucs(HDemucsOptions(std::move(sources)).nfft(1024).depth(5));
}
HDemucs hdemucs_medium(std::vector<std::string> sources) {
  return HDemucs(HDemucsOptions(std::move(sources)).nfft(2048).depth(6));
}
HDemucs hdemucs_high(std::vector<std::string> sources) {
  return HDemucs(HDemucsOptions(std::move(sources)).nfft(4096).depth(6));
}

}  // namespace torch::audio::models
