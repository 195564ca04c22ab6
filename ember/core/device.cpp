#include "ember/core/device.h"

#include "ember/core/error.h"

namespace torch {

namespace {
constexpr DeviceType kAllDeviceTypes[] = {DeviceType::CPU,    DeviceType::CUDA,  DeviceType::MKLDNN, DeviceType::OPENGL,
                                          DeviceType::OPENCL, DeviceType::IDEEP, DeviceType::HIP,    DeviceType::FPGA,
                                          DeviceType::ORT,    DeviceType::XLA,   DeviceType::Vulkan, DeviceType::Metal,
                                          DeviceType::XPU,    DeviceType::MPS,   DeviceType::Meta,   DeviceType::HPU,
                                          DeviceType::VE,     DeviceType::Lazy,  DeviceType::IPU};
}  // namespace

const char* device_type_name(DeviceType t) {
  switch (t) {
    case DeviceType::CPU:
      return "cpu";
    case DeviceType::CUDA:
      return "cuda";
    case DeviceType::MKLDNN:
      return "mkldnn";
    case DeviceType::OPENGL:
      return "opengl";
    case DeviceType::OPENCL:
      return "opencl";
    case DeviceType::IDEEP:
      return "ideep";
    case DeviceType::HIP:
      return "hip";
    case DeviceType::FPGA:
      return "fpga";
    case DeviceType::ORT:
      return "ort";
    case DeviceType::XLA:
      return "xla";
    case DeviceType::Vulkan:
      return "vulkan";
    case DeviceType::Metal:
      return "metal";
    case DeviceType::XPU:
      return "xpu";
    case DeviceType::MPS:
      return "mps";
    case DeviceType::Meta:
      return "meta";
    case DeviceType::HPU:
      return "hpu";
    case DeviceType::VE:
      return "ve";
    case DeviceType::Lazy:
      return "lazy";
    case DeviceType::IPU:
      return "ipu";
  }
  return "unknown";
}

// "kind" or "kind:index", as LibTorch parses them: a known lower-case kind, then an optional
// non-negative index without sign or leading zeros that fits a DeviceIndex (int8).
Device::Device(const std::string& spec) : type_(kCPU), index_(-1) {
  const size_t colon = spec.find(':');
  const std::string kind = spec.substr(0, colon);
  bool known = false;
  for (DeviceType t : kAllDeviceTypes)
    if (kind == device_type_name(t)) {
      type_ = t;
      known = true;
    }
  EMBER_CHECK(known, "Device: expected one of cpu, cuda, ", "mkldnn, opengl, opencl, ideep, hip, ve, fpga, ort, xla, ",
              "lazy, vulkan, mps, meta, hpu device type at start of device string: '", spec, "'");
  if (colon != std::string::npos) {
    const std::string idx = spec.substr(colon + 1);
    EMBER_CHECK(!idx.empty() && idx.size() <= 3 && idx.find_first_not_of("0123456789") == std::string::npos &&
                    (idx.size() == 1 || idx[0] != '0') && std::stoi(idx) <= 127,
                "Device: invalid device index in device string '", spec, "'");
    index_ = static_cast<int8_t>(std::stoi(idx));
  }
}

std::string Device::str() const {
  std::string s = device_type_name(type_);
  if (has_index()) s += ":" + std::to_string(index_);
  return s;
}

std::ostream& operator<<(std::ostream& os, DeviceType t) { return os << device_type_name(t); }
std::ostream& operator<<(std::ostream& os, const Device& d) { return os << d.str(); }

}  // namespace torch
