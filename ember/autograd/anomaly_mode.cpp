#include "ember/autograd/anomaly_mode.h"

#include <cxxabi.h>
#include <execinfo.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <memory>

namespace torch::autograd {

namespace {
std::atomic<bool> g_anomaly{false};  // process-wide, as torch.autograd.set_detect_anomaly

bool has_nan(const Tensor& t) {
  if (!t.defined() || !(t.is_floating_point() || t.is_complex())) return false;
  Tensor d = t.is_complex() ? t.to(kComplexDouble).contiguous() : t.to(kDouble).contiguous();
  const double* p = static_cast<const double*>(d.data_ptr());
  const int64_t n = d.numel() * (t.is_complex() ? 2 : 1);
  for (int64_t i = 0; i < n; ++i)
    if (std::isnan(p[i])) return true;
  return false;
}
}  // namespace

bool AnomalyMode::is_enabled() { return g_anomaly.load(std::memory_order_relaxed); }
void AnomalyMode::set_enabled(bool enabled) { g_anomaly.store(enabled, std::memory_order_relaxed); }

std::string capture_stack_trace() {
  void* frames[32];
  int n = backtrace(frames, 32);
  std::unique_ptr<char*, decltype(&std::free)> syms(backtrace_symbols(frames, n), &std::free);
  std::string out;
  for (int i = 1; i < n && syms; ++i) {
    std::string line = syms.get()[i];
    // "lib(mangled+0x12) [0x..]": demangle the symbol part when possible.
    auto b = line.find('('), e = line.find('+', b);
    if (b != std::string::npos && e != std::string::npos && e > b + 1) {
      int status = 0;
      std::unique_ptr<char, decltype(&std::free)> dem(
          abi::__cxa_demangle(line.substr(b + 1, e - b - 1).c_str(), nullptr, nullptr, &status), &std::free);
      if (status == 0 && dem) line = dem.get();
    }
    out += "  " + line + "\n";
  }
  return out;
}

variable_list run_with_anomaly_check(Node& fn, variable_list&& grads) {
  variable_list out = fn(std::move(grads));
  for (size_t i = 0; i < out.size(); ++i) {
    EMBER_CHECK(!has_nan(out[i]), "Function '", fn.name(), "' returned nan values in its ", i, "th output.",
                fn.creation_trace.empty() ? "" : "\nTraceback of forward call that caused the error:\n",
                fn.creation_trace);
  }
  return out;
}

}  // namespace torch::autograd
