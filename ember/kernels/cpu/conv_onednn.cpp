// float32 convolutions on oneDNN (Note [Convolution kernels]).
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <dnnl.hpp>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_map>

#include "ember/core/parallel.h"
#include "ember/kernels/cpu/conv_kernels.h"
#include "ember/kernels/cpu/onednn.h"

namespace torch::conv {

namespace {

using dnnl::memory;
using tag = memory::format_tag;
using dt = memory::data_type;

using kernels::onednn_engine;
using kernels::OnednnBuffers;

memory::dims to_dims(IntArrayRef s) { return memory::dims(s.begin(), s.end()); }

memory::desc plain_desc(const Tensor& t) { return memory::desc(to_dims(t.sizes()), dt::f32, to_dims(t.strides())); }

// Weight as oneDNN sees it: ([G,] O/G, I/G, *k), O = channels of the primitive's dst.
// A convolution's weight (G*Og, Cg, *k) is that layout already; a
// transposed convolution's weight (G*Ig, Og, *k) swaps the two channel dims.
memory::desc weight_desc(const Tensor& w, int64_t groups, bool transposed) {
  const int64_t ks = w.numel() / (w.size(0) * w.size(1));  // elements per kernel
  memory::dims dims, strides;
  const int64_t a = w.size(0) / groups, b = w.size(1);  // per-group dim0, dim1
  if (groups > 1) {
    dims.push_back(groups);
    strides.push_back(a * b * ks);
  }
  if (!transposed) {
    dims.insert(dims.end(), {a, b});
    strides.insert(strides.end(), {b * ks, ks});
  } else {
    dims.insert(dims.end(), {b, a});
    strides.insert(strides.end(), {ks, b * ks});
  }
  for (int64_t d = 2; d < w.dim(); ++d) {
    dims.push_back(w.size(d));
    strides.push_back(w.stride(d));
  }
  return memory::desc(dims, dt::f32, strides);
}

memory::desc any_like(const memory::desc& d) { return memory::desc(d.dims(), dt::f32, tag::any); }

memory::dims odims(IntArrayRef v, int64_t minus = 0) {
  memory::dims r;
  for (int64_t x : v) r.push_back(x - minus);
  return r;
}

// Memory in the layout `want`, reordered from `user` when it differs.
memory as_layout(memory user, const memory::desc& want, dnnl::stream& s, OnednnBuffers& b) {
  if (user.get_desc() == want) return user;
  memory m = b.make(want);
  dnnl::reorder(user, m).execute(s, user, m);
  return m;
}

memory wrap(const Tensor& t) { return memory(plain_desc(t), onednn_engine(), t.data_ptr()); }

// Whether oneDNN's shape rule (dst - kr + pl + pr) / s + 1 == src holds with
// pr = pl for each spatial dim of a (large, small) pair of sizes.
bool shapes_consistent(IntArrayRef big, IntArrayRef small, IntArrayRef kernel, const ConvParams& p) {
  for (size_t i = 0; i < p.stride.size(); ++i) {
    const int64_t kr = (kernel[i] - 1) * p.dilation[i] + 1;
    const int64_t v = big[i + 2] - kr + 2 * p.padding[i];
    if (v < 0 || v / p.stride[i] + 1 != small[i + 2]) return false;
  }
  return true;
}

// oneDNN refuses strides, paddings and dilations beyond int32 (a stride of
// INT64_MAX gives a single window); the im2col path computes those exactly.
bool onednn_supports(const Tensor& input, const ConvParams& p) {
  const auto fits = [](IntArrayRef v) {
    return std::all_of(v.begin(), v.end(), [](int64_t x) { return x <= std::numeric_limits<int32_t>::max(); });
  };
  return input.scalar_type() == ScalarType::Float && fits(p.stride) && fits(p.padding) && fits(p.dilation) &&
         fits(p.output_padding);
}

// The primitive descriptors, one place for the argument order. A zero bias descriptor
// (memory::desc()) means no bias to oneDNN.
dnnl::convolution_forward::primitive_desc forward_pd(dnnl::prop_kind prop, dnnl::algorithm algo,
                                                     const memory::desc& src, const memory::desc& w,
                                                     const memory::desc& b, const memory::desc& dst,
                                                     const ConvParams& p) {
  const memory::dims pad = odims(p.padding);
  dnnl::convolution_forward::desc d(prop, algo, src, w, b, dst, odims(p.stride), odims(p.dilation, 1), pad, pad);
  return {d, onednn_engine()};
}
dnnl::deconvolution_forward::primitive_desc deconvolution_pd(dnnl::prop_kind prop, const memory::desc& src,
                                                             const memory::desc& w, const memory::desc& b,
                                                             const memory::desc& dst, const ConvParams& p) {
  const memory::dims pad = odims(p.padding);
  dnnl::deconvolution_forward::desc d(prop, dnnl::algorithm::deconvolution_direct, src, w, b, dst, odims(p.stride),
                                      odims(p.dilation, 1), pad, pad);
  return {d, onednn_engine()};
}

}  // namespace

// Whether this CPU has oneDNN's Winograd kernels (AVX-512 ones only): probed once on
// a small case, so a CPU without them does not pay a refused descriptor every call.
bool winograd_available() {
  static const bool available = [] {
    try {
      const memory::desc x({1, 16, 8, 8}, dt::f32, tag::any), w({16, 16, 3, 3}, dt::f32, tag::any);
      dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_winograd, x, w,
                                        x, {1, 1}, {1, 1}, {1, 1});
      dnnl::convolution_forward::primitive_desc pd(d, onednn_engine());
      return true;
    } catch (const dnnl::error&) {
      return false;
    }
  }();
  return available;
}

namespace {

// Note [Packed convolution weights]
// oneDNN computes in blocked layouts, so every call reordered the weight from
// PyTorch's (O, I, *k) into the primitive's and built the primitive descriptor
// anew. At batch 1 deep in a ResNet the reorder costs more than the convolution
// (512 x 512 x 3 x 3, 9.4 MB: 1.2 ms beside 0.76 ms), and building a Winograd
// descriptor took 0.6 ms. When no gradient is recorded (inference), the packed
// weight and the descriptor of the primitive that reads it are kept beside the
// weight's storage (Note [Derived copies of a storage]) and reused while the
// storage's version, the weight's address and layout, the input and output layouts,
// the parameters and the thread count stay the same; another shape, thread count or
// a write to the weight builds them anew (a descriptor built at one thread ran at
// one thread when reused at two). A write through a raw pointer (a loader's memcpy
// into data_ptr()) bumps no version, and a stale packing gives silently wrong outputs
// (PackedWeightsFollowEveryWrite: off by the output's own scale), so the bits of 64
// elements spread over the weight are kept too and compared on every call: a whole
// new weight changes them; a raw edit of a few elements can pass unseen, as it does
// autograd's saved-tensor check. 64 loads beside a convolution's millions.
// A weight used twice unchanged is then repacked for Winograd (oneDNN's
// convolution_winograd, F(2x2, 3x3) or F(4x4, 3x3)) when the convolution is
// 3 x 3, stride 1, dilation 1, ungrouped, with channels in multiples of 16: fewer
// multiplies. In ResNet-18 at batch 1 (oneDNN's own timings inside the network,
// where the weights come from memory) 0.49-0.68 ms against direct's 0.76-0.91 ms
// at 56 x 56, 28 x 28 and 14 x 14, and 0.93 against 1.2 ms at 7 x 7, though its
// packed weight is 1.8-4 x larger.
// Against a float64 reference its error (rms 2-7e-7 relative) is no larger than
// direct's (4-9e-7). Packing for it is slow (27 ms for 512 x 512 x 3 x 3), hence
// the wait for a second use: weights that change between no-grad calls (a policy
// acting between updates) stay on direct, whose packing costs what the per-call
// reorder did.
using WeightSample = std::array<uint32_t, 64>;

// The bits of 64 elements of a contiguous float32 weight, at the middles of 64 equal spans.
WeightSample sample_of(const Tensor& w) {
  WeightSample r{};
  const auto* p = static_cast<const unsigned char*>(w.data_ptr());
  const int64_t n = w.numel(), k = static_cast<int64_t>(r.size());
  for (int64_t i = 0; i < k; ++i) std::memcpy(&r[static_cast<size_t>(i)], p + (2 * i + 1) * n / (2 * k) * 4, 4);
  return r;
}

struct PackedConv : DerivedData {
  // What it was made for.
  uint32_t version = 0;
  const void* data = nullptr;
  memory::desc user, src, dst;  // the weight's, input's and output's plain layouts
  bool bias = false;
  ConvParams params;
  int threads = 0;  // oneDNN splits the work for the thread count when the descriptor is built
  WeightSample sample{};
  bool winograd = false;
  // What it holds. The descriptor, not the primitive: one primitive object executed
  // from two threads at once gave wrong outputs (PackedWeightsUnderConcurrentInference),
  // so each call makes its own from this one, which oneDNN's primitive cache makes cheap.
  dnnl::primitive_desc pd;
  memory::desc src_want, dst_want;
  // Reorders of the input into src_want and of dst_want into the output, when they
  // differ: building a reorder's descriptor cost more than running it at batch 1.
  std::optional<dnnl::reorder::primitive_desc> src_reorder, dst_reorder;
  memory weights;
  std::shared_ptr<OnednnBuffers> buffer;  // owns the packed weight's bytes
  mutable std::atomic<int> uses{0};
  mutable std::atomic<bool> winograd_refused{false};  // oneDNN has no Winograd kernel for this case
};

bool same_params(const ConvParams& a, const ConvParams& b) {
  return a.stride == b.stride && a.padding == b.padding && a.dilation == b.dilation &&
         a.output_padding == b.output_padding && a.transposed == b.transposed && a.groups == b.groups;
}

bool winograd_shape(const Tensor& weight, const ConvParams& p) {
  if (p.transposed || p.groups != 1 || weight.dim() != 4 || weight.size(2) != 3 || weight.size(3) != 3) return false;
  for (size_t i = 0; i < 2; ++i)
    if (p.stride[i] != 1 || p.dilation[i] != 1 || p.padding[i] > 1) return false;
  return weight.size(0) % 16 == 0 && weight.size(1) % 16 == 0;
}

// Note [Winograd in training]
// With a graph recorded the weight changes every step, so nothing is kept: oneDNN's
// F(4x4, 3x3) forward, backward-data and backward-weights transform the weight on
// each call, and still cost less than direct for the shapes Winograd applies to
// (winograd_shape). The small CNN step's Conv2d(32, 64) on 16 x 16 at batch 64, one
// thread: forward 2.29 -> 1.09 ms, backward-data 2.25 -> 1.41, backward-weights
// 2.36 -> 1.72; Fashion-MNIST's on 14 x 14: 1.83 -> 1.11, 1.80 -> 1.47, 1.80 ->
// 1.77. The error against float64 is direct's (Note [Packed convolution weights]).
dnnl::algorithm training_algorithm(const Tensor& weight, const ConvParams& p) {
  return winograd_shape(weight, p) && winograd_available() ? dnnl::algorithm::convolution_winograd
                                                           : dnnl::algorithm::convolution_direct;
}

// The primitive and packed weight of an inference convolution; reused when current.
void forward_inference(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out,
                       const ConvParams& p) {
  dnnl::stream s(onednn_engine());
  OnednnBuffers b;
  memory src = wrap(input), dst = wrap(out);
  memory wts(weight_desc(weight, p.groups, p.transposed), onednn_engine(), weight.data_ptr());
  const StorageImpl& storage = *weight.impl()->storage();
  auto known = std::dynamic_pointer_cast<const PackedConv>(storage.derived());
  // The stored weight is this one, unchanged; the stored call is this call; at this thread count.
  const WeightSample sample = sample_of(weight);
  const bool same_weight = known != nullptr && known->version == weight._version() &&
                           known->data == weight.data_ptr() && known->user == wts.get_desc() && known->sample == sample;
  const bool same_call = same_weight && known->src == src.get_desc() && known->dst == dst.get_desc() &&
                         known->bias == bias.defined() && same_params(known->params, p);
  const bool refused = same_call && known->winograd_refused.load(std::memory_order_relaxed);
  const bool winograd = same_call && winograd_shape(weight, p) && winograd_available() && !refused &&
                        (known->winograd || known->uses.load(std::memory_order_relaxed) > 0);
  if (!same_call || known->threads != get_num_threads() || known->winograd != winograd) {
    auto made = std::make_shared<PackedConv>();
    made->version = weight._version();
    made->data = weight.data_ptr();
    made->sample = sample;
    made->user = wts.get_desc();
    made->src = src.get_desc();
    made->dst = dst.get_desc();
    made->bias = bias.defined();
    made->params = p;
    made->threads = get_num_threads();
    made->winograd_refused.store(refused, std::memory_order_relaxed);
    // Uses of this weight, unchanged, before this call (another thread count or input
    // size is the same weight used again).
    made->uses.store(same_weight ? known->uses.load(std::memory_order_relaxed) + 1 : 0, std::memory_order_relaxed);
    const memory::desc src_any = any_like(src.get_desc()), dst_any = any_like(dst.get_desc());
    const memory::desc w_any = any_like(wts.get_desc());
    const memory::desc b_md = bias.defined() ? plain_desc(bias) : memory::desc();
    const auto prop = dnnl::prop_kind::forward_inference;
    auto keep = [&](const auto& pd) {
      made->pd = pd;
      made->src_want = pd.src_desc();
      made->dst_want = pd.dst_desc();
      const dnnl::engine& e = onednn_engine();
      if (made->src_want != made->src) made->src_reorder.emplace(e, made->src, e, made->src_want);
      if (made->dst_want != made->dst) made->dst_reorder.emplace(e, made->dst_want, e, made->dst);
      if (same_weight && known->weights.get_desc() == pd.weights_desc()) {
        // Only the descriptor is new (another thread count or input size): the packing
        // stands (a Winograd one took 27 ms to make).
        made->weights = known->weights;
        made->buffer = known->buffer;
        return;
      }
      made->buffer = std::make_shared<OnednnBuffers>();
      made->weights = made->buffer->make(pd.weights_desc());
      dnnl::reorder(wts, made->weights).execute(s, wts, made->weights);
    };
    if (p.transposed) {
      keep(deconvolution_pd(prop, src_any, w_any, b_md, dst_any, p));
    } else {
      std::optional<dnnl::convolution_forward::primitive_desc> pd;
      if (winograd) {
        try {
          pd = forward_pd(prop, dnnl::algorithm::convolution_winograd, src_any, w_any, b_md, dst_any, p);
          made->winograd = true;
        } catch (const dnnl::error&) {
          made->winograd_refused.store(true, std::memory_order_relaxed);
        }
      }
      if (!pd) pd = forward_pd(prop, dnnl::algorithm::convolution_direct, src_any, w_any, b_md, dst_any, p);
      keep(*pd);
    }
    s.wait();
    storage.set_derived(made);
    known = made;
  } else {
    known->uses.fetch_add(1, std::memory_order_relaxed);
  }
  memory src_m = as_layout(src, known->src_want, s, b);
  const bool dst_plain = known->dst_want == dst.get_desc();
  memory dst_m = dst_plain ? dst : b.make(known->dst_want);
  std::unordered_map<int, memory> args{
      {DNNL_ARG_SRC, src_m}, {DNNL_ARG_WEIGHTS, known->weights}, {DNNL_ARG_DST, dst_m}};
  if (bias.defined()) args.emplace(DNNL_ARG_BIAS, memory(plain_desc(bias), onednn_engine(), bias.data_ptr()));
  dnnl::primitive(known->pd).execute(s, args);
  if (!dst_plain) dnnl::reorder(dst_m, dst).execute(s, dst_m, dst);
  s.wait();
}

void forward_batch(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out,
                   const ConvParams& p, bool inference) {
  if (inference) return forward_inference(input, weight, bias, out, p);
  dnnl::stream s(onednn_engine());
  OnednnBuffers b;
  memory src = wrap(input), dst = wrap(out);
  memory wts(weight_desc(weight, p.groups, p.transposed), onednn_engine(), weight.data_ptr());
  const memory::desc src_any = any_like(src.get_desc()), dst_any = any_like(dst.get_desc());
  const memory::desc w_any = any_like(wts.get_desc());
  const memory::desc b_md = bias.defined() ? plain_desc(bias) : memory::desc();
  const auto prop = dnnl::prop_kind::forward_training;

  auto run = [&](const auto& pd, auto prim) {
    memory src_m = as_layout(src, pd.src_desc(), s, b);
    memory w_m = as_layout(wts, pd.weights_desc(), s, b);
    const bool dst_plain = pd.dst_desc() == dst.get_desc();
    memory dst_m = dst_plain ? dst : b.make(pd.dst_desc());
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, src_m}, {DNNL_ARG_WEIGHTS, w_m}, {DNNL_ARG_DST, dst_m}};
    if (bias.defined()) args.emplace(DNNL_ARG_BIAS, memory(b_md, onednn_engine(), bias.data_ptr()));
    prim.execute(s, args);
    if (!dst_plain) dnnl::reorder(dst_m, dst).execute(s, dst_m, dst);
    s.wait();
  };

  if (p.transposed) {
    const auto pd = deconvolution_pd(prop, src_any, w_any, b_md, dst_any, p);
    return run(pd, dnnl::deconvolution_forward(pd));
  }
  std::optional<dnnl::convolution_forward::primitive_desc> pd;
  if (training_algorithm(weight, p) == dnnl::algorithm::convolution_winograd) {
    try {
      pd = forward_pd(prop, dnnl::algorithm::convolution_winograd, src_any, w_any, b_md, dst_any, p);
    } catch (const dnnl::error&) {
    }
  }
  if (!pd) pd = forward_pd(prop, dnnl::algorithm::convolution_direct, src_any, w_any, b_md, dst_any, p);
  run(*pd, dnnl::convolution_forward(*pd));
}

// Note [Convolutions in batch chunks]
// oneDNN computes in blocked layouts (nChw16c), so a call reorders the input into a
// blocked copy, writes a blocked output and reorders that into the NCHW result.
// Over a whole large batch those copies do not fit in cache: an evaluation batch of
// 1000 28 x 28 images through Conv2d(1, 32) writes a 100 MB blocked output to memory
// and reads it back. Run in chunks of about kChunkBytes of output, each chunk's
// copies stay in cache (that case: 15.8 -> 5.4 ms; Conv2d(32, 64) on 14 x 14, 37.8
// -> 33 ms). Samples are independent, so
// the chunks compute the same values. Only outputs beyond kWholeBytes are cut: a
// training batch whose output fits in the last-level cache ran slower in chunks
// (Conv2d(1, 32) at batch 64 inside a training step: 0.49 -> 0.97 ms, the relu after
// it 0.14 -> 0.30 ms), though a lone call of it was not.
constexpr int64_t kChunkBytes = int64_t(4) << 20;
constexpr int64_t kWholeBytes = int64_t(16) << 20;

}  // namespace

void forward_onednn(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out,
                    const ConvParams& p, bool inference) {
  const int64_t n = out.size(0);
  const int64_t sample_bytes = std::max<int64_t>(1, out.numel() / std::max<int64_t>(n, 1)) * 4;
  const int64_t chunk = std::max<int64_t>(1, kChunkBytes / sample_bytes);
  if (n * sample_bytes <= kWholeBytes || n <= chunk) return forward_batch(input, weight, bias, out, p, inference);
  for (int64_t b = 0; b < n; b += chunk) {
    const int64_t len = std::min(chunk, n - b);
    forward_batch(input.narrow(0, b, len), weight, bias, out.narrow(0, b, len), p, inference);
  }
}

PackedWeightState packed_weight_state(const Tensor& weight) {
  auto d = std::dynamic_pointer_cast<const PackedConv>(weight.impl()->storage()->derived());
  if (d == nullptr || d->version != weight._version() || d->data != weight.data_ptr() ||
      d->sample != sample_of(weight.contiguous()))
    return PackedWeightState::kNone;
  return d->winograd ? PackedWeightState::kWinograd : PackedWeightState::kDirect;
}

bool onednn_forward_ok(const Tensor& input, const Tensor& weight, const Tensor& out, const ConvParams& p) {
  if (!onednn_supports(input, p)) return false;
  IntArrayRef k = weight.sizes().slice(2);
  return p.transposed ? shapes_consistent(out.sizes(), input.sizes(), k, p)
                      : shapes_consistent(input.sizes(), out.sizes(), k, p);
}

bool onednn_weight_grad_ok(const Tensor& input, const Tensor& grad_out, IntArrayRef kernel, const ConvParams& p) {
  return onednn_supports(input, p) && shapes_consistent(input.sizes(), grad_out.sizes(), kernel, p);
}

bool onednn_backward_ok(const Tensor& input, const Tensor& grad_out, IntArrayRef kernel, const ConvParams& p) {
  return !p.transposed && onednn_weight_grad_ok(input, grad_out, kernel, p);
}

void backward_onednn(const Tensor& input, const Tensor& weight, const Tensor& grad_out, const Tensor& gx,
                     const Tensor& gw, const Tensor& gb, const ConvParams& p) {
  dnnl::stream s(onednn_engine());
  OnednnBuffers b;
  memory src = wrap(input), ddst = wrap(grad_out);
  memory wts(weight_desc(weight, p.groups, false), onednn_engine(), weight.data_ptr());
  const memory::desc src_any = any_like(src.get_desc()), ddst_any = any_like(ddst.get_desc());
  const memory::desc w_any = any_like(wts.get_desc());
  const memory::desc b_md = gb.defined() ? plain_desc(gb) : memory::desc();
  // The three descriptors for one algorithm (Note [Winograd in training]): Winograd
  // when it applies and oneDNN takes all that are needed, else direct.
  struct Pds {
    std::optional<dnnl::convolution_backward_data::primitive_desc> data;
    std::optional<dnnl::convolution_backward_weights::primitive_desc> weights;
  };
  auto pds_for = [&](dnnl::algorithm algo) {
    const auto fpd = forward_pd(dnnl::prop_kind::forward_training, algo, src_any, w_any, b_md, ddst_any, p);
    const memory::dims strides = odims(p.stride), dil = odims(p.dilation, 1), pad = odims(p.padding);
    Pds r;
    if (gx.defined())
      r.data.emplace(dnnl::convolution_backward_data::desc(algo, src_any, w_any, ddst_any, strides, dil, pad, pad),
                     onednn_engine(), fpd);
    if (gw.defined())
      r.weights.emplace(
          dnnl::convolution_backward_weights::desc(algo, src_any, w_any, b_md, ddst_any, strides, dil, pad, pad),
          onednn_engine(), fpd);
    return r;
  };
  std::optional<Pds> pds;
  if (training_algorithm(weight, p) == dnnl::algorithm::convolution_winograd) {
    try {
      pds = pds_for(dnnl::algorithm::convolution_winograd);
    } catch (const dnnl::error&) {
    }
  }
  if (!pds) pds = pds_for(dnnl::algorithm::convolution_direct);
  // grad_out reordered once for both primitives when they want the same layout.
  std::optional<memory> ddst_blocked;
  auto diff_dst_as = [&](const memory::desc& want) {
    if (!ddst_blocked || ddst_blocked->get_desc() != want) ddst_blocked = as_layout(ddst, want, s, b);
    return *ddst_blocked;
  };
  if (gx.defined()) {
    const auto& pd = *pds->data;
    memory dsrc = wrap(gx);
    const bool plain = pd.diff_src_desc() == dsrc.get_desc();
    memory dsrc_m = plain ? dsrc : b.make(pd.diff_src_desc());
    dnnl::convolution_backward_data(pd).execute(s, {{DNNL_ARG_DIFF_DST, diff_dst_as(pd.diff_dst_desc())},
                                                    {DNNL_ARG_WEIGHTS, as_layout(wts, pd.weights_desc(), s, b)},
                                                    {DNNL_ARG_DIFF_SRC, dsrc_m}});
    if (!plain) dnnl::reorder(dsrc_m, dsrc).execute(s, dsrc_m, dsrc);
  }
  if (gw.defined()) {
    const auto& pd = *pds->weights;
    memory dw(weight_desc(gw, p.groups, false), onednn_engine(), gw.data_ptr());
    const bool w_plain = pd.diff_weights_desc() == dw.get_desc();
    memory dw_m = w_plain ? dw : b.make(pd.diff_weights_desc());
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, as_layout(src, pd.src_desc(), s, b)},
                                         {DNNL_ARG_DIFF_DST, diff_dst_as(pd.diff_dst_desc())},
                                         {DNNL_ARG_DIFF_WEIGHTS, dw_m}};
    if (gb.defined()) args.emplace(DNNL_ARG_DIFF_BIAS, memory(b_md, onednn_engine(), gb.data_ptr()));
    dnnl::convolution_backward_weights(pd).execute(s, args);
    if (!w_plain) dnnl::reorder(dw_m, dw).execute(s, dw_m, dw);
  }
  s.wait();
}

// The weight pass alone (also for a transposed convolution, whose weight gradient is
// this with image and small swapped): gw doubles as the weight, which only the
// backward-data pass would read.
void weight_grad_onednn(const Tensor& input, const Tensor& grad_out, const Tensor& gw, const ConvParams& p) {
  backward_onednn(input, gw, grad_out, Tensor(), gw, Tensor(), p);
}

}  // namespace torch::conv
