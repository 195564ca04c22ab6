#include "ember/vmap/rules_random.h"

#include <vector>

#include "ember/autograd/forward_ad.h"
#include "ember/core/error.h"
#include "ember/core/shape.h"
#include "ember/ops/all_ops.h"
#include "ember/vmap/batching_rules.h"
#include "ember/vmap/level_sizes.h"

namespace torch::batching {

namespace {
// Set while draw_random's plain draw runs, so the random ops it calls take
// their plain path.
thread_local bool t_drawing = false;

class DrawingScope {
 public:
  DrawingScope() : prev_(t_drawing) { t_drawing = true; }
  ~DrawingScope() { t_drawing = prev_; }
  DrawingScope(const DrawingScope&) = delete;
  DrawingScope& operator=(const DrawingScope&) = delete;

 private:
  bool prev_;
};

[[noreturn]] void refuse_error_mode(const char* op) {
  EMBER_ERROR(op,
              ": vmap: called random operation while in randomness error mode. Please either use the 'same' or "
              "'different' randomness flags on vmap or perform the randomness operation out of vmap");
}

// Whether `t` is batched at `level` (at any depth of its nested levels).
bool batched_at(const Tensor& t, int64_t level) {
  for (const BatchedMeta* m = batched_meta(t); m != nullptr; m = batched_meta(m->value)) {
    if (m->level == level) return true;
    if (m->level < level) return false;
  }
  return false;
}
}  // namespace

bool random_in_vmap() { return detail::hooks_on() && current_level() > 0 && !t_drawing; }

Tensor draw_random(const char* op, IntArrayRef shape, const DrawFn& draw) {
  std::vector<int64_t> levels;  // the "different" levels, outermost first
  DimVector phys;
  for (int64_t l = 1; l <= current_level(); ++l) {
    const Randomness r = level_randomness(l);
    if (r == Randomness::Error) refuse_error_mode(op);
    if (r == Randomness::Different) {
      levels.push_back(l);
      phys.push_back(level_batch_size(l));
    }
  }
  for (int64_t s : shape) phys.push_back(s);
  Tensor t;
  {
    DrawingScope drawing;
    t = draw(phys);
  }
  // [B_outer, ..., B_inner, shape...]: wrapping the outermost level first
  // leaves the next one in front.
  for (int64_t l : levels) t = wrap(std::move(t), l);
  return t;
}

void check_random_inputs(const char* op, std::initializer_list<const Tensor*> inputs) {
  for (int64_t l = 1; l <= current_level(); ++l) {
    const Randomness r = level_randomness(l);
    if (r == Randomness::Error) refuse_error_mode(op);
    if (r != Randomness::Same) continue;
    for (const Tensor* t : inputs)
      EMBER_CHECK(t == nullptr || !batched_at(*t, l), op,
                  ": vmap: Vmap does not currently support same randomness with a batched tensor input (vmap level ", l,
                  " has randomness='same' and an argument of logical shape ", shape_str(t->sizes()),
                  " is batched there). Use randomness='different', or draw the numbers outside vmap");
  }
}

Tensor& fill_random_batched(const char* op, Tensor& self, const DrawFn& draw) {
  EMBER_CHECK(self.defined(), op, ": called on an undefined tensor");
  for (int64_t l = 1; l <= current_level(); ++l) {
    const Randomness r = level_randomness(l);
    if (r == Randomness::Error) refuse_error_mode(op);
    EMBER_CHECK(r != Randomness::Different || batched_at(self, l), op,
                ": vmap: Cannot ask for different inplace randomness on an unbatched tensor (self of shape ",
                shape_str(self.sizes()), " is not batched at vmap level ", l,
                "). This will appear like same randomness. Use an out-of-place random op instead");
  }
  const Tensor noise = draw_random(op, self.sizes(), draw);
  autograd::BelowAutogradGuard no_grad;  // a fill, as the plain in-place random ops: no history
  self.copy_(noise);
  return self;
}

Tensor innermost_physical(const Tensor& t) {
  Tensor v = t;
  while (const BatchedMeta* m = batched_meta(v)) v = m->value;
  return v;
}

}  // namespace torch::batching
