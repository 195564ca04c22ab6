#include "ember/ops/factory/random.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "ember/core/dispatch.h"
#include "ember/core/record_scope.h"
#include "ember/core/shape.h"
#include "ember/ops/elementwise/binary.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/elementwise/unary.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/factory/generator_engine.h"
#include "ember/ops/index/sort.h"
#include "ember/ops/reduce/reduce.h"
#include "ember/ops/shape/copy.h"
#include "ember/ops/shape/shape_ops.h"
#include "ember/vmap/rules_random.h"

namespace torch {

Generator::Generator(uint64_t seed) : state_(std::make_shared<State>()) { set_current_seed(seed); }
void Generator::set_current_seed(uint64_t seed) {
  std::lock_guard<std::mutex> g(state_->mu);
  state_->engine.seed(seed);
  state_->seed = seed;
}
uint64_t Generator::current_seed() const {
  std::lock_guard<std::mutex> g(state_->mu);
  return state_->seed;
}
uint64_t Generator::seed() {
  std::random_device rd;
  uint64_t s = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  set_current_seed(s);
  return s;
}

Generator& default_generator() {
  // LibTorch's C++ default CPU generator starts from the fixed seed 67280421310721 (only the
  // Python package reseeds it from entropy at import), so an unseeded C++ program is repeatable.
  static Generator g;
  return g;
}
void manual_seed(uint64_t seed) { default_generator().set_current_seed(seed); }
Generator make_generator(uint64_t seed) { return Generator(seed); }

namespace {
using detail::normal_draw;
using detail::uniform01;
using detail::uniform_draw;

using detail::gen_or_default;

// Draws values into a contiguous buffer of T (self is filled via a contiguous temporary if needed).
template <typename Fill>
Tensor& fill_random(Tensor& self, const char* op, Fill fill) {
  EMBER_CHECK(self.defined(), op, ": called on an undefined tensor");
  if (self.numel() == 0) return self;
  Tensor dst = self.is_contiguous() ? self : empty(self.sizes(), self.options());
  fill(dst);
  if (!dst.is_same(self)) self.copy_(dst);
  self.bump_version();
  return self;
}

// ATen's normal_fill for contiguous tensors of 16 or more: uniforms first, then Box-Muller
// over blocks of 16 (8 pairs) in the element type's precision (float for the 16-bit types),
// the tail redone as the last 16 values.
template <typename T>
void normal_fill_16(T* data, double mean, double std) {
  using A = std::conditional_t<std::is_same_v<T, double>, double, float>;
  const A m = static_cast<A>(static_cast<T>(mean)), s = static_cast<A>(static_cast<T>(std));
  for (int j = 0; j < 8; ++j) {
    const A u1 = static_cast<A>(static_cast<T>(1 - static_cast<A>(data[j])));
    const A u2 = static_cast<A>(data[j + 8]);
    const A radius = static_cast<A>(static_cast<T>(std::sqrt(-2 * std::log(u1))));
    const A theta = static_cast<A>(static_cast<T>(2.0f * M_PI * u2));
    data[j] = static_cast<T>(radius * std::cos(theta) * s + m);
    data[j + 8] = static_cast<T>(radius * std::sin(theta) * s + m);
  }
}
template <typename T>
void normal_fill(T* data, int64_t size, double mean, double std, CpuEngine& e) {
  for (int64_t i = 0; i < size; ++i) data[i] = static_cast<T>(uniform_draw<T>(e, 0.0, 1.0));
  for (int64_t i = 0; i < size - 15; i += 16) normal_fill_16<T>(data + i, mean, std);
  if (size % 16 != 0) {
    T* tail = data + size - 16;
    for (int i = 0; i < 16; ++i) tail[i] = static_cast<T>(uniform_draw<T>(e, 0.0, 1.0));
    normal_fill_16<T>(tail, mean, std);
  }
}
}  // namespace

// Under vmap a random fill draws each sample's values with the same op into a
// fresh tensor of the shape fill_random_batched asks for (`t` in `call`) and
// writes them into self (batching::fill_random_batched, vmap/rules_random.h).
#define EMBER_RANDOM_FILL_UNDER_VMAP(op, self, call)                  \
  if (batching::random_in_vmap()) [[unlikely]]                        \
  return batching::fill_random_batched(op, self, [&](IntArrayRef s) { \
    Tensor t = empty(s, self.options());                              \
    return Tensor(call);                                              \
  })

Tensor& uniform_(Tensor& self, double from, double to, OptGen g) {
  EMBER_RANDOM_FILL_UNDER_VMAP("uniform_", self, uniform_(t, from, to, g));
  EMBER_RECORD_OP("uniform_", self);
  EMBER_CHECK(from <= to, "uniform_: expects to return a [from, to) range, but found from=", from, " > to=", to);
  Generator gen = gen_or_default(g);
  return fill_random(self, "uniform_", [&](Tensor& dst) {
    dispatch_floating_and_complex(dst.dtype(), "uniform_", [&](auto tag) {
      using T = EMBER_TYPE(tag);
      T* p = dst.data_ptr<T>();
      const int64_t n = dst.numel();
      gen.with_engine([&](CpuEngine& e) {
        if constexpr (is_complex_v<T>) {  // as PyTorch: the real view, real then imaginary part
          using V = typename T::value_type;
          for (int64_t i = 0; i < n; ++i) {
            const double re = uniform_draw<V>(e, from, to);
            const double im = uniform_draw<V>(e, from, to);
            p[i] = T(static_cast<V>(re), static_cast<V>(im));
          }
        } else {
          for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(static_cast<opmath_t<T>>(uniform_draw<T>(e, from, to)));
        }
      });
    });
  });
}

Tensor& normal_(Tensor& self, double mean, double std, OptGen g) {
  EMBER_RANDOM_FILL_UNDER_VMAP("normal_", self, normal_(t, mean, std, g));
  EMBER_RECORD_OP("normal_", self);
  EMBER_CHECK(std >= 0, "normal_: expects std >= 0.0, but found std ", std);
  Generator gen = gen_or_default(g);
  // ATen's choice of path depends on the tensor itself, not on the temporary fill_random may use.
  const bool blocks = self.is_contiguous() && self.numel() * (self.is_complex() ? 2 : 1) >= 16;
  return fill_random(self, "normal_", [&](Tensor& dst) {
    dispatch_floating_and_complex(dst.dtype(), "normal_", [&](auto tag) {
      using T = EMBER_TYPE(tag);
      const int64_t n = dst.numel() * (is_complex_v<T> ? 2 : 1);
      using V = value_t<T>;
      V* p = reinterpret_cast<V*>(dst.data_ptr());
      // Complex normal: real and imaginary parts each have variance std^2 / 2.
      const double s = is_complex_v<T> ? std / std::sqrt(2.0) : std;
      const double m = is_complex_v<T> ? 0.0 : mean;
      gen.with_engine([&](CpuEngine& e) {
        if (blocks) {
          normal_fill<V>(p, n, m, s, e);
        } else {
          for (int64_t i = 0; i < n; ++i) p[i] = static_cast<V>(static_cast<opmath_t<V>>(normal_draw(e, m, s)));
        }
      });
      if constexpr (is_complex_v<T>) {
        if (mean != 0) {
          for (int64_t i = 0; i < dst.numel(); ++i)
            reinterpret_cast<T*>(p)[i] += T(static_cast<typename T::value_type>(mean), 0);
        }
      }
    });
  });
}

Tensor& bernoulli_(Tensor& self, double prob, OptGen g) {
  EMBER_RANDOM_FILL_UNDER_VMAP("bernoulli_", self, bernoulli_(t, prob, g));
  EMBER_RECORD_OP("bernoulli_", self);
  EMBER_CHECK(prob >= 0 && prob <= 1, "bernoulli_: expects p to be in [0, 1], but got p=", prob);
  Generator gen = gen_or_default(g);
  return fill_random(self, "bernoulli_", [&](Tensor& dst) {
    dispatch_real_and_bool(dst.dtype(), "bernoulli_", [&](auto tag) {
      using T = EMBER_TYPE(tag);
      T* p = dst.data_ptr<T>();
      gen.with_engine([&](CpuEngine& e) {
        for (int64_t i = 0; i < dst.numel(); ++i) p[i] = static_cast<T>(uniform01(e) < prob ? 1 : 0);
      });
    });
  });
}

namespace {
// PyTorch's bounds for random_(from, to) and randint on integer and bool dtypes: both
// ends must be values of the dtype, so randint(0, 300, kByte) is an error rather than
// values wrapped mod 256. (Floating dtypes beyond 2^mantissa only warn in PyTorch.)
void check_random_bounds(ScalarType t, int64_t from, int64_t to) {
  if (is_floating_point(t)) return;
  int64_t lo = 0, hi = 1;  // bool
  if (t != kBool) {
    dispatch_integral(t, "random_", [&](auto tag) {
      using T = EMBER_TYPE(tag);
      lo = std::numeric_limits<T>::lowest();
      hi = std::numeric_limits<T>::max();
    });
  }
  EMBER_CHECK(from >= lo && from <= hi, "random_: from=", from, " is out of bounds for ", t);
  EMBER_CHECK(to - 1 >= lo && to - 1 <= hi, "random_: to - 1=", to - 1, " is out of bounds for ", t);
}
}  // namespace

Tensor& random_(Tensor& self, int64_t from, int64_t to, OptGen g) {
  EMBER_RANDOM_FILL_UNDER_VMAP("random_", self, random_(t, from, to, g));
  EMBER_RECORD_OP("random_", self);
  EMBER_CHECK(from < to, "random_: expects 'from' to be less than 'to', but got from=", from, " >= to=", to);
  check_random_bounds(self.dtype(), from, to);
  Generator gen = gen_or_default(g);
  const uint64_t range = static_cast<uint64_t>(to) - static_cast<uint64_t>(from);
  return fill_random(self, "random_", [&](Tensor& dst) {
    dispatch_real_and_bool(dst.dtype(), "random_", [&](auto tag) {
      using T = EMBER_TYPE(tag);
      T* p = dst.data_ptr<T>();
      gen.with_engine([&](CpuEngine& e) {
        // ATen's random_from_to: a 32-bit draw unless the range needs 64, reduced modulo it.
        const bool wide = range >= (uint64_t{1} << 32);
        for (int64_t i = 0; i < dst.numel(); ++i) {
          const uint64_t v = wide ? e.random64() : e.random();
          p[i] =
              static_cast<T>(static_cast<opmath_t<T>>(static_cast<int64_t>(v % range + static_cast<uint64_t>(from))));
        }
      });
    });
  });
}

Tensor& exponential_(Tensor& self, double lambd, OptGen g) {
  EMBER_RANDOM_FILL_UNDER_VMAP("exponential_", self, exponential_(t, lambd, g));
  EMBER_RECORD_OP("exponential_", self);
  EMBER_CHECK(lambd > 0, "exponential_: expects lambda > 0.0, but found lambda=", lambd);
  Generator gen = gen_or_default(g);
  return fill_random(self, "exponential_", [&](Tensor& dst) {
    dispatch_floating(dst.dtype(), "exponential_", [&](auto tag) {
      using T = EMBER_TYPE(tag);
      T* p = dst.data_ptr<T>();
      gen.with_engine([&](CpuEngine& e) {
        for (int64_t i = 0; i < dst.numel(); ++i)
          p[i] = static_cast<T>(static_cast<opmath_t<T>>(-1.0 / lambd * std::log1p(-uniform01(e))));
      });
    });
  });
}

namespace {

// In-place draws of one value per element from `draw(engine)`, computed in
// double and stored as self's dtype (integers saturate at their largest value).
template <typename Draw>
Tensor& fill_draws(const char* op, Tensor& self, OptGen g, bool integers_too, const Draw& draw) {
  Generator gen = gen_or_default(g);
  return fill_random(self, op, [&](Tensor& dst) {
    auto run = [&](auto tag) {
      using T = EMBER_TYPE(tag);
      T* p = dst.data_ptr<T>();
      gen.with_engine([&](CpuEngine& e) {
        for (int64_t i = 0; i < dst.numel(); ++i) {
          const double v = draw(e);
          if constexpr (std::is_integral_v<T>)
            p[i] = v >= static_cast<double>(std::numeric_limits<T>::max()) ? std::numeric_limits<T>::max()
                                                                           : static_cast<T>(v);
          else
            p[i] = static_cast<T>(static_cast<opmath_t<T>>(v));
        }
      });
    };
    if (integers_too)
      dispatch_real(dst.dtype(), op, run);
    else
      dispatch_floating(dst.dtype(), op, run);
  });
}
}  // namespace

Tensor& geometric_(Tensor& self, double p, OptGen g) {
  EMBER_RANDOM_FILL_UNDER_VMAP("geometric_", self, geometric_(t, p, g));
  EMBER_RECORD_OP("geometric_", self);
  EMBER_CHECK(p > 0 && p < 1, "geometric_ expects p to be in (0, 1), but got p=", p);
  const double log_q = std::log1p(-p);
  return fill_draws("geometric_", self, g, true,
                    [&](CpuEngine& e) { return std::ceil(std::log(uniform01(e)) / log_q); });
}

Tensor& cauchy_(Tensor& self, double median, double sigma, OptGen g) {
  EMBER_RANDOM_FILL_UNDER_VMAP("cauchy_", self, cauchy_(t, median, sigma, g));
  EMBER_RECORD_OP("cauchy_", self);
  return fill_draws("cauchy_", self, g, false,
                    [&](CpuEngine& e) { return median + sigma * std::tan(M_PI * (uniform01(e) - 0.5)); });
}

Tensor& log_normal_(Tensor& self, double mean, double std, OptGen g) {
  EMBER_RANDOM_FILL_UNDER_VMAP("log_normal_", self, log_normal_(t, mean, std, g));
  EMBER_RECORD_OP("log_normal_", self);
  EMBER_CHECK(std > 0, "log_normal_ expects std > 0.0, but found std=", std);
  return fill_draws("log_normal_", self, g, false, [&](CpuEngine& e) { return std::exp(normal_draw(e, mean, std)); });
}

namespace {
TensorOptions float_opts(const TensorOptions& o) { return o.has_dtype() ? o : o.dtype(get_default_dtype()); }
// Every factory's last step: the fill that made the tensor is not a write anyone saw.
Tensor finish(Tensor t, const TensorOptions& o) {
  t.unsafeGetTensorImpl()->reset_version();
  if (o.requires_grad()) t.requires_grad_(true);
  return t;
}
}  // namespace

Tensor rand(IntArrayRef size, const TensorOptions& o) { return rand(size, std::nullopt, o); }
Tensor rand(IntArrayRef size, OptGen g, const TensorOptions& o) {
  if (batching::random_in_vmap()) [[unlikely]]
    return batching::draw_random("rand", size, [&](IntArrayRef s) { return rand(s, g, o); });
  EMBER_RECORD_OP("rand");
  Tensor t = empty(size, float_opts(o).requires_grad(false));
  uniform_(t, 0, 1, g);
  return finish(t, o);
}
Tensor randn(IntArrayRef size, const TensorOptions& o) { return randn(size, std::nullopt, o); }
Tensor randn(IntArrayRef size, OptGen g, const TensorOptions& o) {
  if (batching::random_in_vmap()) [[unlikely]]
    return batching::draw_random("randn", size, [&](IntArrayRef s) { return randn(s, g, o); });
  EMBER_RECORD_OP("randn");
  Tensor t = empty(size, float_opts(o).requires_grad(false));
  normal_(t, 0, 1, g);
  return finish(t, o);
}
Tensor randint(int64_t high, IntArrayRef size, const TensorOptions& o) {
  return randint(0, high, size, std::nullopt, o);
}
Tensor randint(int64_t low, int64_t high, IntArrayRef size, const TensorOptions& o) {
  return randint(low, high, size, std::nullopt, o);
}
Tensor randint(int64_t low, int64_t high, IntArrayRef size, OptGen g, const TensorOptions& o) {
  if (batching::random_in_vmap()) [[unlikely]]
    return batching::draw_random("randint", size, [&](IntArrayRef s) { return randint(low, high, s, g, o); });
  EMBER_RECORD_OP("randint");
  Tensor t = empty(size, (o.has_dtype() ? o : o.dtype(kLong)).requires_grad(false));
  random_(t, low, high, g);
  return finish(t, o);
}
Tensor randperm(int64_t n, const TensorOptions& o) { return randperm(n, std::nullopt, o); }
Tensor randperm(int64_t n, OptGen g, const TensorOptions& o) {
  if (batching::random_in_vmap()) [[unlikely]] {
    EMBER_CHECK(n >= 0, "randperm: n must be non-negative, got ", n);
    // One permutation per row of the physical [B..., n].
    return batching::draw_random("randperm", IntArrayRef(&n, 1), [&](IntArrayRef s) {
      const int64_t rows = n == 0 ? 0 : checked_numel(s, "randperm") / n;
      std::vector<Tensor> perms;
      for (int64_t r = 0; r < rows; ++r) perms.push_back(randperm(n, g, o));
      return rows == 0 ? empty(s, o.has_dtype() ? o : o.dtype(kLong)) : stack(perms, 0).view(s);
    });
  }
  EMBER_RECORD_OP("randperm");
  EMBER_CHECK(n >= 0, "randperm: n must be non-negative, got ", n);
  // Shuffled in the result itself: its allocation is the one that can fail cleanly.
  Tensor t = empty({n}, TensorOptions(kLong));
  int64_t* perm = t.data_ptr<int64_t>();
  std::iota(perm, perm + n, int64_t{0});
  gen_or_default(g).with_engine([&](CpuEngine& e) {
    // ATen's randperm_cpu: a forward Fisher-Yates on 32-bit draws.
    for (int64_t i = 0; i < n - 1; ++i) {
      const int64_t z = static_cast<int64_t>(e.random() % static_cast<uint64_t>(n - i));
      std::swap(perm[i], perm[z + i]);
    }
  });
  return finish(o.has_dtype() ? t.to(o.dtype()) : t, o);
}

Tensor normal(double mean, double std, IntArrayRef size, OptGen g, const TensorOptions& o) {
  if (batching::random_in_vmap()) [[unlikely]]
    return batching::draw_random("normal", size, [&](IntArrayRef s) { return normal(mean, std, s, g, o); });
  EMBER_RECORD_OP("normal");
  Tensor t = empty(size, float_opts(o).requires_grad(false));
  normal_(t, mean, std, g);
  return finish(t, o);
}

namespace {
// mean + std * N(0,1) elementwise, with broadcasting; computed in double then cast.
Tensor normal_impl(const Tensor& mean, const Tensor& std, OptGen g, ScalarType dt) {
  Tensor m = mean.to(kDouble), s = std.to(kDouble);
  DimVector shape = ember::broadcast_shapes(m.sizes(), s.sizes(), "normal");
  m = m.expand(shape).contiguous();
  s = s.expand(shape).contiguous();
  const double* pm = m.data_ptr<double>();
  const double* ps = s.data_ptr<double>();
  for (int64_t i = 0; i < s.numel(); ++i) EMBER_CHECK(ps[i] >= 0, "normal: expects all elements of std >= 0.0");
  Tensor z = empty(shape, TensorOptions(kDouble));
  normal_(z, 0, 1, g);
  double* pz = z.data_ptr<double>();
  for (int64_t i = 0; i < z.numel(); ++i) pz[i] = pm[i] + ps[i] * pz[i];
  return z.to(dt);
}

// Under vmap (Note [Random ops under vmap]): mean + std * N(0, 1) with ruled ops.
Tensor normal_vmap(const Tensor& mean, const Tensor& std, OptGen g, ScalarType dt) {
  batching::check_random_inputs("normal", {&mean, &std});
  EMBER_CHECK(!(batching::innermost_physical(std) < 0).any().item<bool>(),
              "normal: expects all elements of std >= 0.0");
  const DimVector shape = ember::broadcast_shapes(mean.sizes(), std.sizes(), "normal");
  const Tensor z =
      batching::draw_random("normal", shape, [&](IntArrayRef s) { return randn(s, g, TensorOptions(kDouble)); });
  return (mean.to(kDouble) + std.to(kDouble) * z).to(dt);
}
}  // namespace
Tensor normal(const Tensor& mean, const Tensor& std, OptGen g) {
  EMBER_CHECK(mean.is_floating_point() && std.is_floating_point(), "normal: expects floating mean and std, got ",
              mean.dtype(), " and ", std.dtype());
  if (batching::random_in_vmap()) [[unlikely]]
    return normal_vmap(mean, std, g, promote_types(mean.dtype(), std.dtype()));
  EMBER_RECORD_OP("normal", mean, std);
  return normal_impl(mean, std, g, promote_types(mean.dtype(), std.dtype()));
}
Tensor normal(const Tensor& mean, double std, OptGen g) {
  EMBER_CHECK(mean.is_floating_point(), "normal: expects a floating mean, got ", mean.dtype());
  if (batching::random_in_vmap()) [[unlikely]]
    return normal_vmap(mean, full({}, std, TensorOptions(kDouble)), g, mean.dtype());
  EMBER_RECORD_OP("normal", mean);
  return normal_impl(mean, full({}, std, TensorOptions(kDouble)), g, mean.dtype());
}
Tensor normal(double mean, const Tensor& std, OptGen g) {
  EMBER_CHECK(std.is_floating_point(), "normal: expects a floating std, got ", std.dtype());
  if (batching::random_in_vmap()) [[unlikely]]
    return normal_vmap(full({}, mean, TensorOptions(kDouble)), std, g, std.dtype());
  EMBER_RECORD_OP("normal", std);
  return normal_impl(full({}, mean, TensorOptions(kDouble)), std, g, std.dtype());
}

Tensor bernoulli(const Tensor& p, OptGen g) {
  EMBER_CHECK(p.is_floating_point(), "bernoulli: expects a floating probability tensor, got ", p.dtype());
  if (batching::random_in_vmap()) [[unlikely]] {
    // One uniform per element of p's logical shape, compared with p (Note [Random ops under vmap]).
    batching::check_random_inputs("bernoulli", {&p});
    const Tensor pp = batching::innermost_physical(p);
    EMBER_CHECK(!((pp < 0) | (pp > 1)).any().item<bool>(), "bernoulli: expects all elements of p to be in [0, 1]");
    const Tensor u = batching::draw_random("bernoulli", p.sizes(),
                                           [&](IntArrayRef s) { return rand(s, g, TensorOptions(kDouble)); });
    return (u < p.to(kDouble)).to(p.dtype());
  }
  EMBER_RECORD_OP("bernoulli", p);
  Tensor pd = p.to(kDouble).contiguous();
  const double* pp = pd.data_ptr<double>();
  for (int64_t i = 0; i < pd.numel(); ++i)
    EMBER_CHECK(pp[i] >= 0 && pp[i] <= 1, "bernoulli: expects all elements of p to be in [0, 1]");
  Tensor u = empty(p.sizes(), TensorOptions(kDouble));
  uniform_(u, 0, 1, g);
  double* pu = u.data_ptr<double>();
  for (int64_t i = 0; i < u.numel(); ++i) pu[i] = pu[i] < pp[i] ? 1.0 : 0.0;
  return u.to(p.dtype());
}
Tensor bernoulli(const Tensor& self, double p, OptGen g) {
  if (batching::random_in_vmap()) [[unlikely]] {
    batching::check_random_inputs("bernoulli", {&self});  // functorch refuses "same" with self batched
    return batching::draw_random("bernoulli", self.sizes(), [&](IntArrayRef s) {
      Tensor t = empty(s, self.options());
      return Tensor(bernoulli_(t, p, g));
    });
  }
  EMBER_RECORD_OP("bernoulli", self);
  Tensor t = empty_like(self);
  return bernoulli_(t, p, g);
}

// The *_like forms fill an empty_like in place, as PyTorch's do (so the
// profiler shows the same children).
Tensor rand_like(const Tensor& t, const TensorOptions& o) {
  if (batching::random_in_vmap()) [[unlikely]]
    return batching::draw_random("rand_like", t.sizes(), [&](IntArrayRef s) {
      Tensor r = empty(s, (o.has_dtype() ? t.options().dtype(o.dtype()) : t.options()).requires_grad(false));
      uniform_(r, 0, 1);
      return finish(r, o);
    });
  EMBER_RECORD_OP("rand_like", t);
  Tensor r = empty_like(t, o.requires_grad(false));
  uniform_(r, 0, 1);
  return finish(r, o);
}
Tensor randn_like(const Tensor& t, const TensorOptions& o) {
  if (batching::random_in_vmap()) [[unlikely]]
    return batching::draw_random("randn_like", t.sizes(), [&](IntArrayRef s) {
      Tensor r = empty(s, (o.has_dtype() ? t.options().dtype(o.dtype()) : t.options()).requires_grad(false));
      normal_(r, 0, 1);
      return finish(r, o);
    });
  EMBER_RECORD_OP("randn_like", t);
  Tensor r = empty_like(t, o.requires_grad(false));
  normal_(r, 0, 1);
  return finish(r, o);
}
Tensor randint_like(const Tensor& t, int64_t low, int64_t high, const TensorOptions& o) {
  if (batching::random_in_vmap()) [[unlikely]]
    return batching::draw_random("randint_like", t.sizes(), [&](IntArrayRef s) {
      Tensor r = empty(s, (o.has_dtype() ? t.options().dtype(o.dtype()) : t.options()).requires_grad(false));
      random_(r, low, high);
      return finish(r, o);
    });
  EMBER_RECORD_OP("randint_like", t);
  Tensor r = empty_like(t, o.requires_grad(false));
  random_(r, low, high);
  return finish(r, o);
}

namespace {
// Under vmap (Note [Random ops under vmap]): Gumbel-max sampling with ruled
// ops, which draws from the same distribution as the kernel's sequential
// sampling: argmax(log p + G) per draw with replacement, and the top
// num_samples keys without (Gumbel-top-k).
Tensor multinomial_vmap(const Tensor& probs, int64_t num_samples, bool replacement, OptGen g) {
  const char* op = "multinomial";
  batching::check_random_inputs(op, {&probs});
  EMBER_CHECK(probs.dim() == 1 || probs.dim() == 2, "multinomial: prob_dist must be 1 or 2 dim, got ", probs.dim());
  EMBER_CHECK(probs.is_floating_point(), "multinomial: only supports floating-point dtypes for input, got ",
              probs.dtype());
  EMBER_CHECK(num_samples > 0, "multinomial: cannot sample n_sample <= 0 samples");
  const int64_t cats = probs.size(-1);
  EMBER_CHECK(replacement || num_samples <= cats,
              "multinomial: cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  const Tensor p = probs.to(kDouble);
  const Tensor pp = batching::innermost_physical(p);
  EMBER_CHECK(isfinite(pp).all().item<bool>() && !(pp < 0).any().item<bool>(),
              "multinomial: probability tensor contains either `inf`, `nan` or element < 0");
  const Tensor positive = batching::innermost_physical((p > 0).sum({-1}));
  EMBER_CHECK((positive > 0).all().item<bool>(),
              "multinomial: invalid multinomial distribution (sum of probabilities <= 0)");
  EMBER_CHECK(replacement || (positive >= num_samples).all().item<bool>(),
              "multinomial: invalid multinomial distribution (with replacement=False, not enough non-negative category "
              "to sample)");
  auto gumbel = [&](IntArrayRef s) {
    const Tensor u = rand(s, g, TensorOptions(kDouble));
    return -(-u.log()).log();
  };
  if (!replacement) {
    const Tensor keys = p.log() + batching::draw_random(op, p.sizes(), gumbel);
    return std::get<1>(topk(keys, num_samples, -1));
  }
  DimVector shape(p.sizes());
  shape.insert(shape.size() - 1, num_samples);  // [..., num_samples, cats]
  const Tensor keys = p.log().unsqueeze(-2) + batching::draw_random(op, shape, gumbel);
  return keys.argmax(-1);
}
}  // namespace

// Note [Multinomial draws]
// As ATen 1.13's CPU multinomial, so a seed gives PyTorch's samples: without replacement the
// Gumbel-top-k trick on the tensor's own dtype, q = probs / Exponential(1) draws
// (exponential_ on a tensor like probs), then argmax or topk; with replacement, per row the
// cumulative sums in the element type (float for the 16-bit types), normalised by the total,
// the last set to 1, and one double uniform per sample located by binary search.
Tensor multinomial(const Tensor& probs, int64_t num_samples, bool replacement, OptGen g) {
  if (batching::random_in_vmap()) [[unlikely]]
    return multinomial_vmap(probs, num_samples, replacement, g);
  EMBER_RECORD_OP("multinomial", probs);
  EMBER_CHECK(probs.dim() == 1 || probs.dim() == 2, "multinomial: prob_dist must be 1 or 2 dim, got ", probs.dim());
  EMBER_CHECK(probs.is_floating_point(), "multinomial: only supports floating-point dtypes for input, got ",
              probs.dtype());
  EMBER_CHECK(num_samples > 0, "multinomial: cannot sample n_sample <= 0 samples");
  const Tensor p = probs.detach();
  const Tensor p2 = (p.dim() == 1 ? p.unsqueeze(0) : p).contiguous();
  const int64_t rows = p2.size(0), cats = p2.size(1);
  EMBER_CHECK(replacement || num_samples <= cats,
              "multinomial: cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  EMBER_CHECK(cats <= (int64_t{1} << 24), "multinomial: number of categories cannot exceed 2^24");
  {
    const Tensor d = p2.to(kDouble);
    const double* pd = d.data_ptr<double>();
    for (int64_t r = 0; r < rows; ++r) {
      double total = 0;
      for (int64_t k = 0; k < cats; ++k) {
        const double x = pd[r * cats + k];
        EMBER_CHECK(std::isfinite(x) && x >= 0,
                    "multinomial: probability tensor contains either `inf`, `nan` or element < 0");
        total += x;
      }
      EMBER_CHECK(total > 0, "multinomial: invalid multinomial distribution (sum of probabilities <= 0)");
    }
  }
  if (!replacement) {
    Tensor q = empty_like(p);
    exponential_(q, 1.0, g);
    q = p / q;
    if (num_samples == 1) return argmax(q, -1, /*keepdim=*/true);
    return std::get<1>(topk(q, num_samples));
  }
  Tensor out = empty({rows, num_samples}, TensorOptions(kLong));
  int64_t* po = out.data_ptr<int64_t>();
  const ScalarType acc = p2.scalar_type() == kDouble ? kDouble : kFloat;
  const Tensor pa = p2.to(acc);
  Generator gen = gen_or_default(g);
  const auto draw = [&](auto zero) {
    using T = decltype(zero);
    const T* pp = pa.data_ptr<T>();
    std::vector<T> cdf(static_cast<size_t>(cats));
    gen.with_engine([&](CpuEngine& e) {
      for (int64_t r = 0; r < rows; ++r) {
        T sum = 0;
        for (int64_t k = 0; k < cats; ++k) cdf[k] = sum += pp[r * cats + k];
        for (int64_t k = 0; k < cats; ++k) cdf[k] /= sum;
        cdf[cats - 1] = 1;
        for (int64_t s = 0; s < num_samples; ++s) {
          const double u = uniform01(e);
          int64_t lo = 0, hi = cats;
          while (hi > lo) {
            const int64_t mid = lo + (hi - lo) / 2;
            if (cdf[mid] < u)
              lo = mid + 1;
            else
              hi = mid;
          }
          po[r * num_samples + s] = lo;
        }
      }
    });
  };
  if (acc == kDouble)
    draw(double{});
  else
    draw(float{});
  return probs.dim() == 1 ? out.squeeze(0) : out;
}

// ---- Tensor methods ----------------------------------------------------------
Tensor& Tensor::uniform_(double from, double to) const { return ember::uniform_(self_ref(), from, to); }
Tensor& Tensor::normal_(double mean, double std) const { return ember::normal_(self_ref(), mean, std); }
Tensor& Tensor::bernoulli_(double p) const { return ember::bernoulli_(self_ref(), p); }
Tensor& Tensor::random_(int64_t from, int64_t to) const { return ember::random_(self_ref(), from, to); }
Tensor& Tensor::random_(int64_t to) const { return ember::random_(self_ref(), 0, to); }
Tensor& Tensor::exponential_(double lambd) const { return ember::exponential_(self_ref(), lambd); }
Tensor& Tensor::geometric_(double p) const { return ember::geometric_(self_ref(), p); }
Tensor& Tensor::cauchy_(double median, double sigma) const { return ember::cauchy_(self_ref(), median, sigma); }
Tensor& Tensor::log_normal_(double mean, double std) const { return ember::log_normal_(self_ref(), mean, std); }
Tensor Tensor::bernoulli() const { return ember::bernoulli(*this); }
Tensor Tensor::multinomial(int64_t num_samples, bool replacement) const {
  return ember::multinomial(*this, num_samples, replacement);
}

}  // namespace torch
