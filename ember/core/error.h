#pragma once
// ember::Error and the check macros every op uses to report bad input.
#include <exception>
#include <sstream>
#include <string>

#include "ember/core/namespace.h"

namespace torch {

// Every invalid call raises Error; its message starts with the op name and
// names the shapes and dtypes involved.
class Error : public std::exception {
 public:
  explicit Error(std::string msg) : msg_(std::move(msg)) {}
  const char* what() const noexcept override { return msg_.c_str(); }
  // c10::Error's spelling; Ember's messages carry no backtrace, so it is what().
  const char* what_without_backtrace() const noexcept { return msg_.c_str(); }
  const std::string& msg() const { return msg_; }

 private:
  std::string msg_;
};

namespace detail {
inline void str_append(std::ostringstream&) {}
template <typename T, typename... Rest>
void str_append(std::ostringstream& os, const T& v, const Rest&... rest) {
  os << v;
  str_append(os, rest...);
}
[[noreturn]] void throw_error(const char* file, int line, const std::string& msg);
[[noreturn]] void internal_error(const char* file, int line, const char* cond, const std::string& msg);
}  // namespace detail

// Concatenates its arguments with operator<<, like torch::str / c10::str.
template <typename... Args>
std::string str(const Args&... args) {
  std::ostringstream os;
  detail::str_append(os, args...);
  return os.str();
}

}  // namespace torch

// User errors: throws ember::Error. The message should start with the op name.
#define EMBER_CHECK(cond, ...)                                                                                     \
  do {                                                                                                             \
    if (__builtin_expect(!(cond), 0)) ::ember::detail::throw_error(__FILE__, __LINE__, ::ember::str(__VA_ARGS__)); \
  } while (0)

#define EMBER_ERROR(...) ::ember::detail::throw_error(__FILE__, __LINE__, ::ember::str(__VA_ARGS__))

// Bugs in Ember itself; still throws (never aborts) so a process survives.
#define EMBER_INTERNAL_ASSERT(cond, ...)                                                     \
  do {                                                                                       \
    if (__builtin_expect(!(cond), 0))                                                        \
      ::ember::detail::internal_error(__FILE__, __LINE__, #cond, ::ember::str(__VA_ARGS__)); \
  } while (0)

// LibTorch spelling used by client programs.
#define TORCH_CHECK(cond, ...) EMBER_CHECK(cond, ##__VA_ARGS__)
