#include "ember/core/error.h"

#include <atomic>
#include <cstdio>

#include "ember/core/warning.h"

namespace torch::detail {

void throw_error(const char*, int, const std::string& msg) {
  throw Error(msg.empty() ? std::string("ember: check failed") : msg);
}

void internal_error(const char* file, int line, const char* cond, const std::string& msg) {
  throw Error(str("internal assert failed: ", cond, " at ", file, ":", line, msg.empty() ? "" : ": ", msg,
                  " (this is a bug in Ember)"));
}

void warn(const char* file, int line, const std::string& msg) {
  Warning::warn({"", file, static_cast<uint32_t>(line)}, msg, false);
}

}  // namespace torch::detail

namespace torch {

void WarningHandler::process(const SourceLocation& loc, const std::string& msg, bool verbatim) {
  if (verbatim || loc.file == nullptr || *loc.file == '\0')
    std::fprintf(stderr, "Warning: %s\n", msg.c_str());
  else
    std::fprintf(stderr, "Warning: %s (%s:%u)\n", msg.c_str(), loc.file, loc.line);
}

namespace {
// The documented process-wide warning state (c10's is process-wide as well): the handler a
// program installed, and whether once-only warnings repeat.
WarningHandler g_default_handler;
std::atomic<WarningHandler*> g_handler{&g_default_handler};
std::atomic<bool> g_warn_always{false};
}  // namespace

void Warning::set_warning_handler(WarningHandler* handler) {
  g_handler.store(handler != nullptr ? handler : &g_default_handler);
}
WarningHandler* Warning::get_warning_handler() { return g_handler.load(); }
void Warning::warn(const SourceLocation& loc, const std::string& msg, bool verbatim) {
  g_handler.load()->process(loc, msg, verbatim);
}
void Warning::set_warnAlways(bool enabled) { g_warn_always.store(enabled); }
bool Warning::get_warnAlways() { return g_warn_always.load(); }

}  // namespace torch

#include "ember/core/dispatch.h"

namespace torch::detail {
void dispatch_error(const char* op, ScalarType t, const char* set) {
  throw Error(str(op, ": not implemented for dtype ", dtype_name(t), " (supports ", set, ")"));
}
}  // namespace torch::detail
