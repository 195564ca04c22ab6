// Optimizer::save/load on top of the archives (ember/serialize) and
// Note [Optimizer state as named values].
//
// Layout, with parameters numbered across all groups in order, as PyTorch's
// optimizer state_dict numbers them:
//   param_groups.<g>.size              number of parameters in group g
//   param_groups.<g>.options.<name>    each option (scalar metadata)
//   state.<i>.present                  parameter i has state
//   state.<i>.<name>                   tensor / scalar state of parameter i
//   state.<i>.<name>.size / .<k>       tensor lists (LBFGS history)
// Loading requires the same group structure; states are matched to the
// current parameters by position, so a checkpoint restores into a freshly
// built model and optimizer.
#include <string>
#include <string_view>
#include <vector>

#include "ember/core/error.h"
#include "ember/core/shape.h"
#include "ember/optim/optimizer.h"
#include "ember/serialize/archive.h"

namespace torch::optim {
namespace {

class Saver final : public StateVisitor {
 public:
  Saver(serialize::OutputArchive& a, std::string prefix) : a_(a), prefix_(std::move(prefix)) {}
  void tensor(std::string_view name, Tensor& v) override {
    if (v.defined()) a_.write(key(name), v);
  }
  void tensors(std::string_view name, std::deque<Tensor>& vs) override {
    a_.write(key(name) + ".size", IValue(static_cast<int64_t>(vs.size())));
    for (size_t k = 0; k < vs.size(); ++k) a_.write(key(name) + "." + std::to_string(k), vs[k]);
  }
  void integer(std::string_view name, int64_t& v) override { a_.write(key(name), IValue(v)); }
  void real(std::string_view name, double& v) override { a_.write(key(name), IValue(v)); }
  void flag(std::string_view name, bool& v) override { a_.write(key(name), IValue(v)); }
  void text(std::string_view name, std::string& v) override { a_.write(key(name), IValue(v)); }

 private:
  std::string key(std::string_view name) const { return prefix_ + std::string(name); }
  serialize::OutputArchive& a_;
  std::string prefix_;
};

// Reads what the state's visit() asks for and remembers the names it asked for, so
// load() can reject an archive holding fields this optimizer's state does not have
// (a state saved by another optimizer). With `shape` set, every state tensor read
// must have that shape (the parameter's).
class Loader final : public StateVisitor {
 public:
  Loader(serialize::InputArchive& a, std::string prefix, const Tensor* shape = nullptr)
      : a_(a), prefix_(std::move(prefix)), shape_(shape) {}
  void tensor(std::string_view name, Tensor& v) override {
    names_.emplace_back(name);
    Tensor t;  // a fresh tensor: the archive allocates it (state is never aliased)
    if (!a_.try_read(key(name), t)) return;
    EMBER_CHECK(!shape_ || t.sizes() == shape_->sizes(), "Optimizer::load: state '", key(name), "' has shape ",
                shape_str(t.sizes()), " but its parameter has shape ", shape_str(shape_->sizes()));
    v = t;
  }
  void tensors(std::string_view name, std::deque<Tensor>& vs) override {
    lists_.emplace_back(name);
    IValue n;
    if (!a_.try_read(key(name) + ".size", n)) return;
    vs.clear();
    for (int64_t k = 0; k < n.toInt(); ++k) {
      Tensor t;
      a_.read(key(name) + "." + std::to_string(k), t);
      vs.push_back(t);
    }
  }
  void integer(std::string_view name, int64_t& v) override {
    IValue x;
    if (read(name, x)) v = x.toInt();
  }
  void real(std::string_view name, double& v) override {
    IValue x;
    if (read(name, x)) v = x.toDouble();
  }
  void flag(std::string_view name, bool& v) override {
    IValue x;
    if (read(name, x)) v = x.toBool();
  }
  void text(std::string_view name, std::string& v) override {
    IValue x;
    if (read(name, x)) v = x.toStringRef();
  }

  // Whether `rest` (a key below the prefix) is one of the fields visited.
  bool visited(std::string_view rest) const {
    for (const std::string& n : names_)
      if (rest == n) return true;
    for (const std::string& n : lists_)
      if (rest.size() > n.size() && rest.substr(0, n.size()) == n && rest[n.size()] == '.') return true;
    return false;
  }

 private:
  bool read(std::string_view name, IValue& x) {
    names_.emplace_back(name);
    return a_.try_read(key(name), x);
  }
  std::string key(std::string_view name) const { return prefix_ + std::string(name); }
  serialize::InputArchive& a_;
  std::string prefix_;
  const Tensor* shape_;
  std::vector<std::string> names_, lists_;
};

}  // namespace

void Optimizer::save(serialize::OutputArchive& archive) const {
  size_t index = 0;
  for (size_t g = 0; g < param_groups_.size(); ++g) {
    const OptimizerParamGroup& group = param_groups_[g];
    const std::string gp = "param_groups." + std::to_string(g) + ".";
    archive.write(gp + "size", IValue(static_cast<int64_t>(group.params().size())));
    Saver opts(archive, gp + "options.");
    group.options().clone()->visit(opts);  // visit() is non-const; a copy keeps save() const
    for (const Tensor& p : group.params()) {
      auto it = state_.find(param_key(p));
      if (it != state_.end() && it->second) {
        const std::string sp = "state." + std::to_string(index) + ".";
        archive.write(sp + "present", IValue(true));
        Saver s(archive, sp);
        it->second->clone()->visit(s);
      }
      ++index;
    }
  }
}

void Optimizer::load(serialize::InputArchive& archive) {
  const std::vector<std::string> keys = archive.keys();
  size_t index = 0;
  for (size_t g = 0; g < param_groups_.size(); ++g) {
    OptimizerParamGroup& group = param_groups_[g];
    const std::string gp = "param_groups." + std::to_string(g) + ".";
    IValue n;
    EMBER_CHECK(archive.try_read(gp + "size", n), "Optimizer::load: the archive has no parameter group ", g,
                " (the optimizer has ", param_groups_.size(), ")");
    EMBER_CHECK(n.toInt() == static_cast<int64_t>(group.params().size()), "Optimizer::load: parameter group ", g,
                " has ", group.params().size(), " parameters but the archive has ", n.toInt());
    Loader opts(archive, gp + "options.");
    group.options().visit(opts);
    for (const Tensor& p : group.params()) {
      const std::string sp = "state." + std::to_string(index) + ".";
      auto fresh = make_param_state();
      if (fresh) {
        Loader s(archive, sp, state_tensors_shaped_like_params() ? &p : nullptr);
        fresh->visit(s);
        for (const std::string& k : keys)
          if (k.size() > sp.size() && k.compare(0, sp.size(), sp) == 0 && k != sp + "present")
            EMBER_CHECK(s.visited(std::string_view(k).substr(sp.size())), "Optimizer::load: the archive's '", k,
                        "' is not part of this optimizer's state (was it saved by a different optimizer?)");
        // Only parameters that had state when saved get it back (PyTorch's
        // state is lazy: a parameter that never took a step has none).
        IValue present;
        if (archive.try_read(sp + "present", present))
          state_[param_key(p)] = std::move(fresh);
        else
          state_.erase(param_key(p));
      }
      ++index;
    }
  }
}

}  // namespace torch::optim
