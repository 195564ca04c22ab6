#pragma once
// Device and DeviceType. Only the CPU has kernels; kCUDA exists so LibTorch
// programs that branch on cuda::is_available() compile and take the CPU path.
#include <cstdint>
#include <ostream>
#include <string>

#include "ember/core/namespace.h"

namespace torch {

// LibTorch's device kinds, with its numbering. Only the CPU runs anything; the others can be
// named, parsed and printed (programs and tests spell them), and a factory or `to()` aimed at
// one raises.
enum class DeviceType : int8_t {
  CPU = 0,
  CUDA = 1,
  MKLDNN = 2,
  OPENGL = 3,
  OPENCL = 4,
  IDEEP = 5,
  HIP = 6,
  FPGA = 7,
  ORT = 8,
  XLA = 9,
  Vulkan = 10,
  Metal = 11,
  XPU = 12,
  MPS = 13,
  Meta = 14,
  HPU = 15,
  VE = 16,
  Lazy = 17,
  IPU = 18,
};
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kHIP = DeviceType::HIP;
constexpr DeviceType kMeta = DeviceType::Meta;
constexpr DeviceType kMPS = DeviceType::MPS;
constexpr DeviceType kXLA = DeviceType::XLA;
// The lower-case name LibTorch prints and parses ("cpu", "cuda", "hip", ...).
const char* device_type_name(DeviceType t);

class Device {
 public:
  using Type = DeviceType;
  Device(DeviceType type, int8_t index = -1) : type_(type), index_(index) {}  // NOLINT
  Device(const std::string& spec);  // NOLINT: "cpu", "cuda", "cuda:1", as LibTorch (implicit there too)
  Device(const char* spec) : Device(std::string(spec)) {}  // NOLINT
  DeviceType type() const { return type_; }
  int8_t index() const { return index_; }
  bool has_index() const { return index_ >= 0; }
  bool is_cpu() const { return type_ == kCPU; }
  bool is_cuda() const { return type_ == kCUDA; }
  bool is_hip() const { return type_ == kHIP; }
  bool is_meta() const { return type_ == kMeta; }
  void set_index(int8_t index) { index_ = index; }
  std::string str() const;
  bool operator==(const Device& o) const { return type_ == o.type_ && index_ == o.index_; }
  bool operator!=(const Device& o) const { return !(*this == o); }

 private:
  DeviceType type_;
  int8_t index_;
};

std::ostream& operator<<(std::ostream& os, DeviceType t);
std::ostream& operator<<(std::ostream& os, const Device& d);

namespace cuda {
inline bool is_available() { return false; }
inline int64_t device_count() { return 0; }
inline bool cudnn_is_available() { return false; }
}  // namespace cuda

}  // namespace torch
