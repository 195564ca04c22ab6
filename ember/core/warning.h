#pragma once
// Warnings as c10 has them: TORCH_WARN hands a message to the current WarningHandler, which
// by default prints it on stderr; a program (or a test) installs its own to capture them.
#include <cstdint>
#include <string>

#include "ember/core/namespace.h"

namespace torch {

// Where a warning was raised (c10::SourceLocation).
struct SourceLocation {
  const char* function;
  const char* file;
  uint32_t line;
};

class WarningHandler {
 public:
  virtual ~WarningHandler() = default;
  // `verbatim`: print the message as is, without the source location.
  virtual void process(const SourceLocation& source_location, const std::string& msg, bool verbatim);
};

class Warning {
 public:
  // The handler is process-wide (c10's is too); null restores the default one.
  static void set_warning_handler(WarningHandler* handler);
  static WarningHandler* get_warning_handler();
  static void warn(const SourceLocation& source_location, const std::string& msg, bool verbatim);
  // TORCH_WARN_ONCE-style warnings turned into errors (c10::Warning::set_warnAlways).
  static void set_warnAlways(bool enabled);
  static bool get_warnAlways();
};

namespace detail {
// TORCH_WARN's target: Warning::warn with the caller's location.
void warn(const char* file, int line, const std::string& msg);
}  // namespace detail

}  // namespace torch
