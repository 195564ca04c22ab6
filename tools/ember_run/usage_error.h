#pragma once
// A bad command line or environment: ember-run prints the message and exits
// with status 2 (argparse's convention) before any worker is started.
#include <stdexcept>
#include <string>

namespace ember_run {

class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& msg) : std::runtime_error(msg) {}
};

}  // namespace ember_run
