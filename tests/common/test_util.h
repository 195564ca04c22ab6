#pragma once
// Tensor assertions for tests: same shape, same dtype, values equal within
// tolerance, NaN matching NaN and infinities matching exactly.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ember/ember.h"

namespace torch::testing {

// Values as doubles in row-major order (complex: re, im interleaved).
std::vector<double> to_vector(const Tensor& t);

::testing::AssertionResult tensors_close(const Tensor& actual, const Tensor& expected, double rtol, double atol,
                                         bool check_dtype = true);

// Default tolerances by dtype, like torch.testing.assert_close.
double default_rtol(ScalarType t);
double default_atol(ScalarType t);

}  // namespace torch::testing

#define EXPECT_TENSOR_CLOSE(actual, expected)                                                     \
  EXPECT_TRUE(::ember::testing::tensors_close((actual), (expected),                               \
                                              ::ember::testing::default_rtol((expected).dtype()), \
                                              ::ember::testing::default_atol((expected).dtype())))
#define EXPECT_TENSOR_CLOSE_TOL(actual, expected, rtol, atol) \
  EXPECT_TRUE(::ember::testing::tensors_close((actual), (expected), (rtol), (atol)))
#define EXPECT_TENSOR_EQ(actual, expected) EXPECT_TRUE(::ember::testing::tensors_close((actual), (expected), 0, 0))
// Expects `stmt` to throw ember::Error whose message contains every given fragment.
#define EXPECT_EMBER_ERROR(stmt, ...)                                        \
  do {                                                                       \
    try {                                                                    \
      stmt;                                                                  \
      ADD_FAILURE() << "expected ember::Error from: " #stmt;                 \
    } catch (const ::ember::Error& e_) {                                     \
      for (const std::string& frag_ : std::vector<std::string>{__VA_ARGS__}) \
        EXPECT_NE(std::string(e_.what()).find(frag_), std::string::npos)     \
            << "message '" << e_.what() << "' lacks '" << frag_ << "'";      \
    }                                                                        \
  } while (0)
