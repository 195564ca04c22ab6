#pragma once
// Random ops under vmap (vmap's `randomness`, ember/vmap/randomness.h).
// Note [Random ops under vmap]
// A random op inside vmap draws its numbers through draw_random: every
// running level is looked at, innermost first; "error" raises, "same" adds
// nothing, "different" adds that level's batch dim in front of the op's
// logical shape. The draw runs once on that physical shape (no hooks: it is
// a plain tensor) and the result is wrapped as batched at each "different"
// level, so samples differ exactly along those levels. Ops with tensor
// arguments (bernoulli(p), normal(mean, std), dropout, multinomial) are then
// written with ruled ops on that noise; in-place fills (normal_, uniform_,
// ...) copy the noise into self, which must be batched at every "different"
// level. As functorch: "same" with a batched tensor argument is refused for
// the ops whose result depends on the argument's values.
#include <cstdint>
#include <functional>
#include <initializer_list>

#include "ember/core/tensor.h"
#include "ember/vmap/randomness.h"

namespace torch::batching {

// True while a random op must take the vmap path: inside vmap on this
// thread and not already drawing (draw_random's own draw is plain).
bool random_in_vmap();

// A random tensor of logical shape `shape`: `draw(physical_shape)` makes the
// plain tensor; the result is batched at every "different" level. Raises
// PyTorch's error at an "error" level.
using DrawFn = std::function<Tensor(IntArrayRef)>;
Tensor draw_random(const char* op, IntArrayRef shape, const DrawFn& draw);

// Raises at a "same" level where one of `inputs` is batched (functorch
// refuses "same" randomness with a batched tensor argument), and at an
// "error" level.
void check_random_inputs(const char* op, std::initializer_list<const Tensor*> inputs);

// An in-place fill of self: `draw` as above with self's logical shape; self
// must be batched at every "different" level (functorch's error otherwise).
Tensor& fill_random_batched(const char* op, Tensor& self, const DrawFn& draw);

// The plain tensor at the bottom of `t`'s batched levels (every element of
// every sample, for value checks such as bernoulli's p in [0, 1]).
Tensor innermost_physical(const Tensor& t);

}  // namespace torch::batching
