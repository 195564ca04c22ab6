// Tensor methods for the torch.* linear algebra functions and stft/istft, as
// LibTorch's Tensor has them (A.det(), A.inverse(), x.stft(...)): each is the
// free function of the same name.
#include "ember/fft/stft.h"
#include "ember/linalg/torch_functions.h"

namespace torch {

Tensor Tensor::det() const { return ember::det(*this); }
Tensor Tensor::logdet() const { return ember::logdet(*this); }
std::tuple<Tensor, Tensor> Tensor::slogdet() const { return ember::slogdet(*this); }
Tensor Tensor::inverse() const { return ember::inverse(*this); }
Tensor Tensor::cholesky(bool upper) const { return ember::cholesky(*this, upper); }
Tensor Tensor::cholesky_solve(const Tensor& L, bool upper) const { return ember::cholesky_solve(*this, L, upper); }
Tensor Tensor::cholesky_inverse(bool upper) const { return ember::cholesky_inverse(*this, upper); }
Tensor Tensor::pinverse(double rcond) const { return ember::pinverse(*this, rcond); }
Tensor Tensor::matrix_power(int64_t n) const { return ember::matrix_power(*this, n); }
Tensor Tensor::matrix_exp() const { return ember::matrix_exp(*this); }
std::tuple<Tensor, Tensor, Tensor> Tensor::svd(bool some, bool compute_uv) const {
  return ember::svd(*this, some, compute_uv);
}
std::tuple<Tensor, Tensor> Tensor::qr(bool some) const { return ember::qr(*this, some); }
std::tuple<Tensor, Tensor> Tensor::triangular_solve(const Tensor& A, bool upper, bool transpose,
                                                    bool unitriangular) const {
  return ember::triangular_solve(*this, A, upper, transpose, unitriangular);
}
Tensor Tensor::lu_solve(const Tensor& LU_data, const Tensor& LU_pivots) const {
  return ember::lu_solve(*this, LU_data, LU_pivots);
}
Tensor Tensor::cross(const Tensor& other, std::optional<int64_t> dim) const { return ember::cross(*this, other, dim); }
Tensor Tensor::orgqr(const Tensor& tau) const { return ember::orgqr(*this, tau); }

Tensor Tensor::stft(int64_t n_fft, std::optional<int64_t> hop_length, std::optional<int64_t> win_length,
                    const std::optional<Tensor>& window, bool normalized, std::optional<bool> onesided,
                    std::optional<bool> return_complex) const {
  return ember::stft(*this, n_fft, hop_length, win_length, window, normalized, onesided, return_complex);
}
Tensor Tensor::stft(int64_t n_fft, std::optional<int64_t> hop_length, std::optional<int64_t> win_length,
                    const std::optional<Tensor>& window, bool center, std::string_view pad_mode, bool normalized,
                    std::optional<bool> onesided, std::optional<bool> return_complex) const {
  return ember::stft(*this, n_fft, hop_length, win_length, window, center, pad_mode, normalized, onesided,
                     return_complex);
}
Tensor Tensor::istft(int64_t n_fft, std::optional<int64_t> hop_length, std::optional<int64_t> win_length,
                     const std::optional<Tensor>& window, bool center, bool normalized, std::optional<bool> onesided,
                     std::optional<int64_t> length, bool return_complex) const {
  return ember::istft(*this, n_fft, hop_length, win_length, window, center, normalized, onesided, length,
                      return_complex);
}

}  // namespace torch
