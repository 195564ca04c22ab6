// std::cout << tensor, in LibTorch's format: values in a common format chosen
// from their magnitudes (integers, fixed with 4 decimals, a shared "0.001 *"
// scale, or scientific), matrices in column blocks that fit 80 characters,
// higher dims as "(i,j,.,.) =" slices, then "[ CPUFloatType{2,3} ]".
#include <cmath>
#include <iomanip>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/ops/shape/view.h"

namespace torch {

namespace {

struct Format {
  double scale = 1;
  int width = 11;
};

// Restores the stream's flags and precision on scope exit.
struct StreamStateGuard {
  explicit StreamStateGuard(std::ostream& os) : os_(os), flags_(os.flags()), prec_(os.precision()) {}
  ~StreamStateGuard() {
    os_.flags(flags_);
    os_.precision(prec_);
  }
  std::ostream& os_;
  std::ios_base::fmtflags flags_;
  std::streamsize prec_;
};

Format choose_format(std::ostream& os, const double* p, int64_t n) {
  Format f;
  if (n == 0) {
    f.width = 0;
    return f;
  }
  bool int_mode = true;
  for (int64_t i = 0; i < n; ++i)
    if (std::isfinite(p[i]) && p[i] != std::ceil(p[i])) {
      int_mode = false;
      break;
    }
  int64_t first = 0;
  while (first < n && !std::isfinite(p[first])) ++first;
  double exp_min = 1, exp_max = 1;
  if (first != n) {
    exp_min = std::fabs(p[first]);
    exp_max = std::fabs(p[first]);
    for (int64_t i = first; i < n; ++i) {
      double z = std::fabs(p[i]);
      if (!std::isfinite(z)) continue;
      if (z < exp_min) exp_min = z;
      if (p[i] > exp_max) exp_max = z;  // LibTorch compares the signed value here
    }
    exp_min = exp_min != 0 ? std::floor(std::log10(exp_min)) + 1 : 1;
    exp_max = exp_max != 0 ? std::floor(std::log10(exp_max)) + 1 : 1;
  }
  if (int_mode) {
    if (exp_max > 9) {
      f.width = 11;
      os << std::scientific << std::setprecision(4);
    } else {
      f.width = static_cast<int>(exp_max) + 1;
      os.unsetf(std::ios_base::floatfield);
    }
  } else if (exp_max - exp_min > 4) {
    f.width = 11;
    if (std::fabs(exp_max) > 99 || std::fabs(exp_min) > 99) f.width += 1;
    os << std::scientific << std::setprecision(4);
  } else {
    if (exp_max > 5 || exp_max < 0) {
      f.width = 7;
      f.scale = std::pow(10, exp_max - 1);
    } else {
      f.width = exp_max == 0 ? 7 : static_cast<int>(exp_max) + 6;
    }
    os << std::fixed << std::setprecision(4);
  }
  return f;
}

// The common scale factor is printed in the default float format ("0.001 *").
void print_scale(std::ostream& os, double scale) {
  auto flags = os.flags();
  os.unsetf(std::ios_base::floatfield);
  os << scale << " *\n";
  os.flags(flags);
}

void print_indent(std::ostream& os, int64_t indent) {
  for (int64_t i = 0; i < indent; ++i) os << ' ';
}

void print_matrix(std::ostream& os, const Tensor& m, int64_t linesize, int64_t indent) {
  const double* p = m.data_ptr<double>();
  const int64_t rows = m.size(0), cols = m.size(1);
  Format f = choose_format(os, p, m.numel());
  print_indent(os, indent);
  int64_t per_line = (linesize - indent) / (f.width + 1);
  if (per_line < 1) per_line = 1;
  for (int64_t first = 0; first < cols;) {
    int64_t last = std::min(first + per_line, cols) - 1;
    if (per_line < cols) {
      if (first != 0) os << '\n';
      os << "Columns " << first + 1 << " to " << last + 1;  // LibTorch puts no newline here
      print_indent(os, indent);
    }
    if (f.scale != 1) {
      print_scale(os, f.scale);
      print_indent(os, indent);
    }
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = first; c <= last; ++c) {
        os << std::setw(f.width) << p[r * cols + c] / f.scale;
        if (c == last) {
          os << '\n';
          if (r != rows - 1) {
            print_indent(os, indent);
            if (f.scale != 1) os << ' ';
          }
        } else {
          os << ' ';
        }
      }
    }
    first = last + 1;
  }
}

void print_nd(std::ostream& os, const Tensor& t, int64_t linesize) {
  const int64_t outer = t.dim() - 2;
  std::vector<int64_t> counter(outer, 0);
  counter[0] = -1;
  bool start = true;
  while (true) {
    // Advance the leading-dims counter, first dim fastest (LibTorch's order).
    bool finished = false;
    for (int64_t i = 0; i < outer; ++i) {
      if (++counter[i] < t.size(i)) break;
      if (i == outer - 1) {
        finished = true;
        break;
      }
      counter[i] = 0;
    }
    if (finished) break;
    if (!start) os << '\n';
    start = false;
    os << '(';
    Tensor m = t;
    for (int64_t i = 0; i < outer; ++i) {
      m = m.select(0, counter[i]);
      os << counter[i] + 1 << ',';
    }
    os << ".,.) = \n";
    print_matrix(os, m, linesize, 1);
  }
}

}  // namespace

std::ostream& print(std::ostream& os, const Tensor& t, int64_t linesize) {
  if (!t.defined()) return os << "[ Tensor (undefined) ]";
  StreamStateGuard guard(os);
  // LibTorch converts to double, which keeps the real part of complex values.
  Tensor d = t.to(kDouble).contiguous();
  if (d.dim() == 0) {
    os.unsetf(std::ios_base::floatfield);
    os << d.data_ptr<double>()[0] << '\n';
    os << "[ " << t.toString() << "{}";
  } else if (d.dim() == 1) {
    if (d.numel() > 0) {
      const double* p = d.data_ptr<double>();
      Format f = choose_format(os, p, d.numel());
      if (f.scale != 1) print_scale(os, f.scale);
      for (int64_t i = 0; i < d.size(0); ++i) os << std::setw(f.width) << p[i] / f.scale << '\n';
    }
    os << "[ " << t.toString() << "{" << d.size(0) << "}";
  } else {
    if (d.numel() > 0) {
      if (d.dim() == 2)
        print_matrix(os, d, linesize, 0);
      else
        print_nd(os, d, linesize);
    }
    os << "[ " << t.toString() << "{" << d.size(0);
    for (int64_t i = 1; i < d.dim(); ++i) os << "," << d.size(i);
    os << "}";
  }
  return os << " ]";
}

std::ostream& operator<<(std::ostream& os, const Tensor& t) { return print(os, t, 80); }

}  // namespace torch
