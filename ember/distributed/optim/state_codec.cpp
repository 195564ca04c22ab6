#include "ember/distributed/optim/state_codec.h"

#include <cstring>
#include <limits>
#include <string>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"

namespace torch::distributed::optim::detail {
namespace {

enum class Kind : uint8_t { kTensor = 1, kTensors, kInteger, kReal, kFlag, kText };
constexpr int64_t kMaxDims = 64;

class Writer : public ::torch::optim::StateVisitor {
 public:
  explicit Writer(std::vector<uint8_t>& out) : out_(out) {}
  void tensor(std::string_view name, Tensor& value) override {
    head(name, Kind::kTensor);
    put_tensor(value);
  }
  void tensors(std::string_view name, std::deque<Tensor>& values) override {
    head(name, Kind::kTensors);
    put<uint64_t>(values.size());
    for (auto& t : values) put_tensor(t);
  }
  void integer(std::string_view name, int64_t& value) override {
    head(name, Kind::kInteger);
    put(value);
  }
  void real(std::string_view name, double& value) override {
    head(name, Kind::kReal);
    put(value);
  }
  void flag(std::string_view name, bool& value) override {
    head(name, Kind::kFlag);
    put<uint8_t>(value ? 1 : 0);
  }
  void text(std::string_view name, std::string& value) override {
    head(name, Kind::kText);
    put_bytes(value.data(), value.size());
  }

 private:
  template <typename T>
  void put(T v) {
    auto* p = reinterpret_cast<const uint8_t*>(&v);
    out_.insert(out_.end(), p, p + sizeof v);
  }
  void put_bytes(const void* data, size_t n) {
    put<uint64_t>(n);
    auto* p = static_cast<const uint8_t*>(data);
    out_.insert(out_.end(), p, p + n);
  }
  void head(std::string_view name, Kind kind) {
    put_bytes(name.data(), name.size());
    put(static_cast<uint8_t>(kind));
  }
  void put_tensor(const Tensor& t) {
    put<uint8_t>(t.defined() ? 1 : 0);
    if (!t.defined()) return;
    Tensor c = t.contiguous();
    put(static_cast<int32_t>(c.scalar_type()));
    put<int64_t>(c.dim());
    for (int64_t s : c.sizes()) put(s);
    put_bytes(c.data_ptr(), static_cast<size_t>(c.numel()) * c.element_size());
  }
  std::vector<uint8_t>& out_;
};

class Reader : public ::torch::optim::StateVisitor {
 public:
  Reader(const std::vector<uint8_t>& in, size_t& at) : in_(in), at_(at) {}
  void tensor(std::string_view name, Tensor& value) override {
    head(name, Kind::kTensor);
    value = get_tensor();
  }
  void tensors(std::string_view name, std::deque<Tensor>& values) override {
    head(name, Kind::kTensors);
    auto n = get<uint64_t>();
    // Each tensor takes at least one byte: a count beyond the bytes left is garbage.
    EMBER_CHECK(n <= in_.size() - at_, "ZeroRedundancyOptimizer: state list '", name, "' claims ", n, " tensors in ",
                in_.size() - at_, " bytes");
    values.clear();
    for (uint64_t i = 0; i < n; ++i) values.push_back(get_tensor());
  }
  void integer(std::string_view name, int64_t& value) override {
    head(name, Kind::kInteger);
    value = get<int64_t>();
  }
  void real(std::string_view name, double& value) override {
    head(name, Kind::kReal);
    value = get<double>();
  }
  void flag(std::string_view name, bool& value) override {
    head(name, Kind::kFlag);
    value = get<uint8_t>() != 0;
  }
  void text(std::string_view name, std::string& value) override {
    head(name, Kind::kText);
    auto [p, n] = get_bytes();
    value.assign(reinterpret_cast<const char*>(p), n);
  }

 private:
  void need(size_t n) const {
    EMBER_CHECK(n <= in_.size() - at_, "ZeroRedundancyOptimizer: truncated optimizer state (", n,
                " bytes wanted at offset ", at_, " of ", in_.size(), ")");
  }
  template <typename T>
  T get() {
    need(sizeof(T));
    T v;
    std::memcpy(&v, in_.data() + at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  std::pair<const uint8_t*, size_t> get_bytes() {
    auto n = get<uint64_t>();
    need(n);
    const uint8_t* p = in_.data() + at_;
    at_ += n;
    return {p, static_cast<size_t>(n)};
  }
  void head(std::string_view name, Kind kind) {
    auto [p, n] = get_bytes();
    std::string_view got(reinterpret_cast<const char*>(p), n);
    EMBER_CHECK(got == name, "ZeroRedundancyOptimizer: optimizer state field '", got, "' where '", name,
                "' was expected (the ranks' optimizers differ?)");
    auto k = get<uint8_t>();
    EMBER_CHECK(k == static_cast<uint8_t>(kind), "ZeroRedundancyOptimizer: optimizer state field '", name,
                "' has kind ", int(k), ", expected ", int(kind));
  }
  Tensor get_tensor() {
    if (get<uint8_t>() == 0) return {};
    auto dtype_code = get<int32_t>();
    EMBER_CHECK(dtype_code >= 0 && dtype_code < kNumScalarTypes, "ZeroRedundancyOptimizer: bad dtype code ", dtype_code,
                " in optimizer state");
    auto dtype = static_cast<ScalarType>(dtype_code);
    auto dim = get<int64_t>();
    EMBER_CHECK(dim >= 0 && dim <= kMaxDims, "ZeroRedundancyOptimizer: bad tensor rank ", dim, " in optimizer state");
    std::vector<int64_t> sizes(static_cast<size_t>(dim));
    uint64_t numel = 1;
    for (auto& s : sizes) {
      s = get<int64_t>();
      EMBER_CHECK(s >= 0, "ZeroRedundancyOptimizer: negative size ", s, " in optimizer state");
      EMBER_CHECK(s == 0 || numel <= std::numeric_limits<uint64_t>::max() / static_cast<uint64_t>(s),
                  "ZeroRedundancyOptimizer: tensor size overflows in optimizer state");
      numel *= static_cast<uint64_t>(s);
    }
    auto [p, n] = get_bytes();
    size_t item = element_size(dtype);
    EMBER_CHECK(numel <= n && n == numel * item, "ZeroRedundancyOptimizer: a tensor of ", numel, " elements carries ",
                n, " bytes in optimizer state");
    Tensor t = empty(sizes, TensorOptions().dtype(dtype));
    if (n) std::memcpy(t.data_ptr(), p, n);
    return t;
  }
  const std::vector<uint8_t>& in_;
  size_t& at_;
};

}  // namespace

void encode_state(::torch::optim::OptimizerParamState& state, std::vector<uint8_t>& out) {
  Writer w(out);
  state.visit(w);
}

void decode_state(const std::vector<uint8_t>& bytes, size_t& at, ::torch::optim::OptimizerParamState& state) {
  EMBER_CHECK(at <= bytes.size(), "ZeroRedundancyOptimizer: state offset past the end");
  Reader r(bytes, at);
  state.visit(r);
}

}  // namespace torch::distributed::optim::detail
