#pragma once
// Free functions of the matmul family (ops/matmul/matmul.cpp; einsum and tensordot
// in ops/matmul/einsum.cpp). All of them reduce to kernels::gemm_batched.
// Like PyTorch, the mm/bmm/mv/dot family requires operands of one dtype;
// outer and addr promote. Supported dtypes: every numeric dtype except bool
// (float/double/complex through BLAS, the rest through a portable kernel).
#include <string_view>
#include <vector>

#include "ember/core/tensor.h"

namespace torch {

Tensor mm(const Tensor& self, const Tensor& mat2);
Tensor bmm(const Tensor& self, const Tensor& mat2);
Tensor matmul(const Tensor& self, const Tensor& other);
Tensor mv(const Tensor& self, const Tensor& vec);
Tensor dot(const Tensor& self, const Tensor& other);
Tensor vdot(const Tensor& self, const Tensor& other);  // conjugates self
Tensor outer(const Tensor& self, const Tensor& vec2);
Tensor ger(const Tensor& self, const Tensor& vec2);
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1,
             const Scalar& alpha = 1);
Tensor& addmm_(Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1, const Scalar& alpha = 1);
Tensor addbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta = 1,
              const Scalar& alpha = 1);
Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta = 1,
               const Scalar& alpha = 1);
Tensor addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta = 1, const Scalar& alpha = 1);
Tensor addr(const Tensor& self, const Tensor& vec1, const Tensor& vec2, const Scalar& beta = 1,
            const Scalar& alpha = 1);
Tensor chain_matmul(TensorList matrices);
Tensor multi_dot(TensorList tensors);  // torch.linalg.multi_dot, evaluated left to right

// ops/matmul/einsum.cpp
// General einsum: "ij,jk->ik", "...ij,...jk", implicit output ("ij,jk"),
// repeated subscripts in one operand take diagonals ("ii->i"), subscripts
// absent from the output are summed. Contractions run as bmm.
Tensor einsum(std::string_view equation, TensorList tensors);
// Contracts dims_a of a with dims_b of b; the int form contracts the last
// `dims` dims of a with the first `dims` of b.
Tensor tensordot(const Tensor& a, const Tensor& b, IntArrayRef dims_a, IntArrayRef dims_b);
Tensor tensordot(const Tensor& a, const Tensor& b, int64_t dims = 2);

}  // namespace torch
