#include "ember/nn/init.h"

#include <lapack.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "ember/autograd/grad_mode.h"
#include "ember/ops/elementwise/unary.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/factory/random.h"
#include "ember/ops/shape/copy.h"
#include "ember/ops/shape/view.h"

namespace torch::nn::init {
namespace {

int64_t calculate_fan(const Tensor& tensor, FanModeType mode) {
  auto [fan_in, fan_out] = _calculate_fan_in_and_fan_out(tensor);
  return std::holds_alternative<enumtype::kFanIn>(mode) ? fan_in : fan_out;
}

double kaiming_std(const Tensor& tensor, double a, FanModeType mode, NonlinearityType nonlinearity) {
  return calculate_gain(nonlinearity, a) / std::sqrt(static_cast<double>(calculate_fan(tensor, mode)));
}

// PyTorch's initialisers are no-ops (with a warning) on zero-element tensors.
bool is_empty(const Tensor& tensor) { return tensor.numel() == 0; }

}  // namespace

double calculate_gain(NonlinearityType nonlinearity, double param) {
  if (std::holds_alternative<enumtype::kTanh>(nonlinearity)) return 5.0 / 3.0;
  if (std::holds_alternative<enumtype::kReLU>(nonlinearity)) return std::sqrt(2.0);
  if (std::holds_alternative<enumtype::kLeakyReLU>(nonlinearity)) return std::sqrt(2.0 / (1 + param * param));
  return 1.0;  // linear, conv*, sigmoid
}

std::tuple<int64_t, int64_t> _calculate_fan_in_and_fan_out(const Tensor& tensor) {
  EMBER_CHECK(tensor.dim() >= 2,
              "calculate_fan_in_and_fan_out: Fan in and fan out can not be computed for tensor with fewer than 2 "
              "dimensions (got ",
              shape_str(tensor.sizes()), ")");
  int64_t receptive_field = 1;
  for (int64_t d = 2; d < tensor.dim(); ++d) receptive_field *= tensor.size(d);
  return {tensor.size(1) * receptive_field, tensor.size(0) * receptive_field};
}

Tensor constant_(Tensor tensor, Scalar value) {
  NoGradGuard guard;
  tensor.fill_(value);
  return tensor;
}

Tensor ones_(Tensor tensor) { return constant_(tensor, 1); }
Tensor zeros_(Tensor tensor) {
  NoGradGuard guard;
  tensor.zero_();
  return tensor;
}

Tensor eye_(Tensor matrix) {
  NoGradGuard guard;
  EMBER_CHECK(matrix.dim() == 2, "eye_: Only tensors with 2 dimensions are supported (got ", shape_str(matrix.sizes()),
              ")");
  matrix.copy_(eye(matrix.size(0), matrix.size(1), matrix.options()));
  return matrix;
}

Tensor dirac_(Tensor tensor) {
  NoGradGuard guard;
  const int64_t d = tensor.dim();
  EMBER_CHECK(d >= 3 && d <= 5, "dirac_: Only tensors with 3, 4, or 5 dimensions are supported (got ",
              shape_str(tensor.sizes()), ")");
  tensor.zero_();
  const int64_t n = std::min(tensor.size(0), tensor.size(1));
  for (int64_t i = 0; i < n; ++i) {
    Tensor elem = tensor[i][i];
    for (int64_t k = 2; k < d; ++k) elem = elem[tensor.size(k) / 2];
    elem.fill_(1);
  }
  return tensor;
}

Tensor normal_(Tensor tensor, double mean, double std) {
  NoGradGuard guard;
  return tensor.normal_(mean, std);
}

Tensor uniform_(Tensor tensor, double low, double high) {
  NoGradGuard guard;
  return tensor.uniform_(low, high);
}

Tensor trunc_normal_(Tensor tensor, double mean, double std, double a, double b) {
  NoGradGuard guard;
  EMBER_CHECK(std > 0 && a < b, "trunc_normal_: expected std > 0 and a < b, got std=", std, ", a=", a, ", b=", b);
  auto norm_cdf = [](double x) { return (1.0 + std::erf(x / std::sqrt(2.0))) / 2.0; };
  const double l = norm_cdf((a - mean) / std);
  const double u = norm_cdf((b - mean) / std);
  // Uniform on [2l-1, 2u-1], then the inverse CDF of the standard normal.
  tensor.uniform_(2 * l - 1, 2 * u - 1);
  tensor.erfinv_();
  tensor.mul_(std * std::sqrt(2.0));
  tensor.add_(mean);
  tensor.clamp_(a, b);
  return tensor;
}

Tensor xavier_uniform_(Tensor tensor, double gain) {
  NoGradGuard guard;
  auto [fan_in, fan_out] = _calculate_fan_in_and_fan_out(tensor);
  const double std = gain * std::sqrt(2.0 / static_cast<double>(fan_in + fan_out));
  const double bound = std::sqrt(3.0) * std;
  return tensor.uniform_(-bound, bound);
}

Tensor xavier_normal_(Tensor tensor, double gain) {
  NoGradGuard guard;
  auto [fan_in, fan_out] = _calculate_fan_in_and_fan_out(tensor);
  const double std = gain * std::sqrt(2.0 / static_cast<double>(fan_in + fan_out));
  return tensor.normal_(0, std);
}

Tensor kaiming_uniform_(Tensor tensor, double a, FanModeType mode, NonlinearityType nonlinearity) {
  NoGradGuard guard;
  if (is_empty(tensor)) return tensor;
  const double bound = std::sqrt(3.0) * kaiming_std(tensor, a, mode, nonlinearity);
  return tensor.uniform_(-bound, bound);
}

Tensor kaiming_normal_(Tensor tensor, double a, FanModeType mode, NonlinearityType nonlinearity) {
  NoGradGuard guard;
  if (is_empty(tensor)) return tensor;
  return tensor.normal_(0, kaiming_std(tensor, a, mode, nonlinearity));
}

Tensor orthogonal_(Tensor tensor, double gain) {
  NoGradGuard guard;
  EMBER_CHECK(tensor.dim() >= 2, "orthogonal_: Only tensors with 2 or more dimensions are supported (got ",
              shape_str(tensor.sizes()), ")");
  if (is_empty(tensor)) return tensor;
  const int64_t rows = tensor.size(0);
  const int64_t cols = tensor.numel() / rows;
  // QR of the tall orientation (m >= n) of a normal sample, in float64.
  Tensor sample = randn({rows, cols}, tensor.options()).to(kDouble);
  const bool wide = rows < cols;
  if (wide) sample = sample.t();
  sample = sample.contiguous();
  const int m = static_cast<int>(sample.size(0)), n = static_cast<int>(sample.size(1));
  // LAPACK is column-major: the column-major m x n matrix is the row-major transpose.
  std::vector<double> a(static_cast<size_t>(m) * n);
  const double* s = sample.data_ptr<double>();
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) a[i + static_cast<size_t>(j) * m] = s[static_cast<size_t>(i) * n + j];
  std::vector<double> tau(n);
  int info = 0, lwork = -1;
  double query = 0;
  LAPACK_dgeqrf(&m, &n, a.data(), &m, tau.data(), &query, &lwork, &info);
  lwork = std::max(1, static_cast<int>(query));
  std::vector<double> work(lwork);
  LAPACK_dgeqrf(&m, &n, a.data(), &m, tau.data(), work.data(), &lwork, &info);
  EMBER_CHECK(info == 0, "orthogonal_: QR decomposition failed (dgeqrf info ", info, ")");
  // Sign of R's diagonal, so the result is uniformly distributed (as PyTorch).
  std::vector<double> sign(n);
  for (int j = 0; j < n; ++j) {
    const double r = a[j + static_cast<size_t>(j) * m];
    sign[j] = r > 0 ? 1.0 : (r < 0 ? -1.0 : 0.0);
  }
  lwork = -1;
  LAPACK_dorgqr(&m, &n, &n, a.data(), &m, tau.data(), &query, &lwork, &info);
  lwork = std::max(1, static_cast<int>(query));
  work.assign(lwork, 0);
  LAPACK_dorgqr(&m, &n, &n, a.data(), &m, tau.data(), work.data(), &lwork, &info);
  EMBER_CHECK(info == 0, "orthogonal_: QR decomposition failed (dorgqr info ", info, ")");
  Tensor q = empty({m, n}, TensorOptions().dtype(kDouble));
  double* qp = q.data_ptr<double>();
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) qp[static_cast<size_t>(i) * n + j] = a[i + static_cast<size_t>(j) * m] * sign[j];
  if (wide) q = q.t();
  tensor.view_as(q).copy_(q);
  tensor.mul_(gain);
  return tensor;
}

Tensor sparse_(Tensor tensor, double sparsity, double std) {
  NoGradGuard guard;
  EMBER_CHECK(tensor.dim() == 2, "sparse_: Only tensors with 2 dimensions are supported (got ",
              shape_str(tensor.sizes()), ")");
  const int64_t rows = tensor.size(0), cols = tensor.size(1);
  const int64_t num_zeros = static_cast<int64_t>(std::ceil(sparsity * static_cast<double>(rows)));
  tensor.normal_(0, std);
  for (int64_t c = 0; c < cols; ++c) {
    Tensor perm = randperm(rows);
    const int64_t* idx = perm.data_ptr<int64_t>();
    for (int64_t k = 0; k < num_zeros; ++k) tensor[idx[k]][c].fill_(0);
  }
  return tensor;
}

}  // namespace torch::nn::init
