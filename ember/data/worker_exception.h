#pragma once
// WorkerException: how an exception thrown by a DataLoader worker thread
// reaches the thread that iterates the loader.
#include <exception>
#include <string>

#include "ember/core/error.h"

namespace torch::data {

// Derives from ember::Error so `catch (const ember::Error&)` sees it; the
// original exception stays available for std::rethrow_exception.
struct WorkerException : public Error {
  explicit WorkerException(std::exception_ptr original)
      : Error(describe(original)), original_exception(std::move(original)) {}

  std::exception_ptr original_exception;

 private:
  static std::string describe(const std::exception_ptr& e) {
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& ex) {
      // LibTorch's words exactly: programs compare what() with them.
      return std::string("Caught exception in DataLoader worker thread. Original message: ") + ex.what();
    } catch (...) {
      return "Caught exception in DataLoader worker thread (not a std::exception)";
    }
  }
};

}  // namespace torch::data
