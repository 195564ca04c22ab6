#pragma once
// torchtext.functional: to_tensor, truncate, add_token, str_to_int.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ember/core/tensor.h"

namespace torch::text::functional {

// to_tensor(input, padding_value=None, dtype=torch.long): a batch of
// sequences becomes [batch, longest], padded with padding_value (required
// when the lengths differ).
Tensor to_tensor(const std::vector<int64_t>& input, std::optional<int64_t> padding_value = std::nullopt,
                 ScalarType dtype = kLong);
Tensor to_tensor(const std::vector<std::vector<int64_t>>& input, std::optional<int64_t> padding_value = std::nullopt,
                 ScalarType dtype = kLong);

// truncate(input, max_seq_len): input[:max_seq_len] (Python slice semantics), per sequence for a batch.
std::vector<int64_t> truncate(const std::vector<int64_t>& input, int64_t max_seq_len);
std::vector<std::string> truncate(const std::vector<std::string>& input, int64_t max_seq_len);
std::vector<std::vector<int64_t>> truncate(const std::vector<std::vector<int64_t>>& input, int64_t max_seq_len);
std::vector<std::vector<std::string>> truncate(const std::vector<std::vector<std::string>>& input, int64_t max_seq_len);

// add_token(input, token_id, begin=True).
std::vector<int64_t> add_token(const std::vector<int64_t>& input, int64_t token_id, bool begin = true);
std::vector<std::string> add_token(const std::vector<std::string>& input, const std::string& token_id,
                                   bool begin = true);
std::vector<std::vector<int64_t>> add_token(const std::vector<std::vector<int64_t>>& input, int64_t token_id,
                                            bool begin = true);
std::vector<std::vector<std::string>> add_token(const std::vector<std::vector<std::string>>& input,
                                                const std::string& token_id, bool begin = true);

// str_to_int(input): decimal strings to integers.
std::vector<int64_t> str_to_int(const std::vector<std::string>& input);
std::vector<std::vector<int64_t>> str_to_int(const std::vector<std::vector<std::string>>& input);

}  // namespace torch::text::functional
