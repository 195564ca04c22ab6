#include "ember/core/error.h"

#include <cstdio>

namespace torch::detail {

void throw_error(const char*, int, const std::string& msg) {
  throw Error(msg.empty() ? std::string("ember: check failed") : msg);
}

void internal_error(const char* file, int line, const char* cond, const std::string& msg) {
  throw Error(str("internal assert failed: ", cond, " at ", file, ":", line, msg.empty() ? "" : ": ", msg,
                  " (this is a bug in Ember)"));
}

void warn(const char* file, int line, const std::string& msg) {
  std::fprintf(stderr, "Warning: %s (%s:%d)\n", msg.c_str(), file, line);
}

}  // namespace torch::detail

#include "ember/core/dispatch.h"

namespace torch::detail {
void dispatch_error(const char* op, ScalarType t, const char* set) {
  throw Error(str(op, ": not implemented for dtype ", dtype_name(t), " (supports ", set, ")"));
}
}  // namespace torch::detail
