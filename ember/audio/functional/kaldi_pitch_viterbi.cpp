// Note [Pitch Viterbi as a distance transform]
// Each Viterbi step of the pitch tracker is
//   cost[i] = min_j prev[j] + a (i - j)^2,
// a squared-distance transform of `prev`. Kaldi finds the minimising j with a
// bounded search that relies on the backpointers being monotone in i; we use
// the lower envelope of the parabolas a (i - j)^2 + prev[j] instead (exact,
// O(states) per frame, the same minimum: only exact ties between two
// predecessors may pick a different one). The tests check it against the
// brute-force minimum over all j.
#include <cmath>
#include <limits>

#include "ember/audio/functional/kaldi_pitch_detail.h"

namespace torch::audio::functional::kaldi_pitch_detail {

void viterbi_step(const std::vector<double>& prev, double factor, std::vector<double>& cost,
                  std::vector<int32_t>& backpointer) {
  const auto n = static_cast<int32_t>(prev.size());
  cost.resize(n);
  backpointer.resize(n);
  if (n == 0) return;
  if (factor <= 0) {
    // No penalty: every state comes from the best one.
    int32_t best = 0;
    for (int32_t j = 1; j < n; ++j)
      if (prev[j] < prev[best]) best = j;
    for (int32_t i = 0; i < n; ++i) {
      cost[i] = prev[best];
      backpointer[i] = best;
    }
    return;
  }
  // v: the parabolas on the envelope, left to right; z[k] is where v[k] starts being lowest.
  std::vector<int32_t> v(n);
  std::vector<double> z(n + 1);
  auto key = [&](int32_t j) { return prev[j] + factor * static_cast<double>(j) * j; };
  int32_t k = 0;
  v[0] = 0;
  z[0] = -std::numeric_limits<double>::infinity();
  z[1] = std::numeric_limits<double>::infinity();
  for (int32_t q = 1; q < n; ++q) {
    // Drop the parabolas q undercuts from where they start (z[0] = -inf stops at v[0]).
    double s = (key(q) - key(v[k])) / (2 * factor * (q - v[k]));
    while (s <= z[k]) {
      --k;
      s = (key(q) - key(v[k])) / (2 * factor * (q - v[k]));
    }
    ++k;
    v[k] = q;
    z[k] = s;
    z[k + 1] = std::numeric_limits<double>::infinity();
  }
  k = 0;
  for (int32_t i = 0; i < n; ++i) {
    while (z[k + 1] < i) ++k;
    const double d = static_cast<double>(i - v[k]);
    cost[i] = prev[v[k]] + factor * d * d;
    backpointer[i] = v[k];
  }
}

std::vector<int32_t> best_path(const std::vector<std::vector<float>>& nccf, const std::vector<float>& lags,
                               const PitchOptions& opts) {
  const size_t frames = nccf.size(), states = lags.size();
  const double factor = std::pow(std::log(1.0 + opts.delta_pitch), 2.0) * opts.penalty_factor;
  std::vector<double> prev(states, 0.0), cost;
  std::vector<std::vector<int32_t>> bp(frames);
  for (size_t t = 0; t < frames; ++t) {
    viterbi_step(prev, factor, cost, bp[t]);
    for (size_t i = 0; i < states; ++i)
      cost[i] += 1.0 - nccf[t][i] + static_cast<double>(opts.soft_min_f0) * lags[i] * nccf[t][i];
    prev.swap(cost);
  }
  std::vector<int32_t> path(frames);
  if (frames == 0) return path;
  int32_t s = 0;
  for (size_t i = 1; i < states; ++i)
    if (prev[i] < prev[s]) s = static_cast<int32_t>(i);
  for (size_t t = frames; t-- > 0;) {
    path[t] = s;
    s = bp[t][s];
  }
  return path;
}

}  // namespace torch::audio::functional::kaldi_pitch_detail
