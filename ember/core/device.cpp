#include "ember/core/device.h"

#include "ember/core/error.h"

namespace torch {

Device::Device(const std::string& spec) : type_(kCPU), index_(-1) {
  std::string kind = spec.substr(0, spec.find(':'));
  if (kind == "cpu") {
    type_ = kCPU;
  } else if (kind == "cuda") {
    type_ = kCUDA;
  } else {
    EMBER_ERROR("Device: expected a device string like 'cpu' or 'cuda:0', got '", spec, "'");
  }
  if (auto colon = spec.find(':'); colon != std::string::npos) {
    std::string idx = spec.substr(colon + 1);
    EMBER_CHECK(!idx.empty() && idx.size() <= 2 && idx.find_first_not_of("0123456789") == std::string::npos,
                "Device: invalid device index in '", spec, "'");
    index_ = static_cast<int8_t>(std::stoi(idx));
  }
}

std::string Device::str() const {
  std::string s = is_cpu() ? "cpu" : "cuda";
  if (has_index()) s += ":" + std::to_string(index_);
  return s;
}

std::ostream& operator<<(std::ostream& os, DeviceType t) { return os << (t == kCPU ? "cpu" : "cuda"); }
std::ostream& operator<<(std::ostream& os, const Device& d) { return os << d.str(); }

}  // namespace torch
