#pragma once
// Batching rules of ember::linalg and ember::fft (Note [vmap hooks] in
// ember/vmap/batched_tensor.h). Most linalg ops already take leading batch
// dims, so their one-input forms are the generic on_front rules written at
// the op's entry; the rules here are the ones whose operands must first
// agree on their batch dims (solve, lu_unpack, householder_product, ...),
// whose results may be placeholders rather than per-sample tensors (qr's
// mode "r", lstsq), or whose dims need the logical rank (cross, the FFTs).
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

#include "ember/core/shape.h"
#include "ember/vmap/batching_rules.h"

namespace torch::batching {

// One operand of a linalg rule: `core` is how many of its trailing dims are
// one sample's matrix (2), vector, pivots or tau (1); the dims before them
// are batch dims that broadcast against the other operands'.
struct LinalgOperand {
  const Tensor* t;
  int64_t core;
};
// The operands' physical tensors at `level`: each [B, 1.., batch.., core..]
// with as many batch dims as the operand that has most, B expanded for
// operands not batched at this level. `op` names the op in rank errors.
std::vector<Tensor> line_up_batches(std::initializer_list<LinalgOperand> ops, int64_t level, const char* op);

// ---- linalg -------------------------------------------------------------------
std::tuple<Tensor, Tensor> solve_ex_batched(const Tensor& A, const Tensor& B, bool left, bool check_errors);
Tensor solve_triangular_batched(const Tensor& A, const Tensor& B, bool upper, bool left, bool unitriangular);
std::tuple<Tensor, Tensor, Tensor> lu_unpack_batched(const Tensor& LU, const Tensor& pivots, bool unpack_data,
                                                     bool unpack_pivots);
Tensor householder_product_batched(const Tensor& A, const Tensor& tau);
std::tuple<Tensor, Tensor> qr_batched(const Tensor& A, std::string_view mode);
std::tuple<Tensor, Tensor, Tensor, Tensor> lstsq_batched(const Tensor& A, const Tensor& B, std::optional<double> rcond,
                                                         std::optional<std::string_view> driver);
Tensor cross_batched(const Tensor& a, const Tensor& b, int64_t dim);

// ---- fft ----------------------------------------------------------------------
// The physical dim of logical dim `d` for the FFTs, which (unlike most ops)
// refuse a 0-dim input.
inline int64_t fft_phys_dim(int64_t d, int64_t rank, const char* op) {
  return wrap_dim(d, rank, op, /*scalar_as_1d=*/false) + 1;
}
// The physical dims an n-dimensional FFT (or fftshift) transforms: `dim`
// shifted; without it the last len(s) logical dims, or all of them.
DimVector fft_phys_dims(const char* op, const Tensor& self, OptionalIntArrayRef s, OptionalIntArrayRef dim);

// stft / istft: a logical signal [L] or [C, L] (spectrum [F, T] or [C, F, T])
// becomes the physical op's 2-d (3-d) batch; `fn` runs the op on it. The
// window must be shared by all samples.
using SignalFn = std::function<Tensor(const Tensor&)>;
Tensor stft_batched(const Tensor& self, const std::optional<Tensor>& window, const SignalFn& fn);
Tensor istft_batched(const Tensor& self, const std::optional<Tensor>& window, const SignalFn& fn);

}  // namespace torch::batching
