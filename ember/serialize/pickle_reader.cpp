#include "ember/serialize/pickle_reader.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/ops/shape/view.h"

namespace torch::serialize {
namespace {

constexpr int kMaxFlattenDepth = 64;
// Total bytes of the dotted names flatten_tensors may build: a small multiple of
// the pickle (whose keys they are made of), and never less than 16 MiB (a state
// dict of a billion-parameter model needs a few).
constexpr size_t kNameBytesPerPickleByte = 64;
constexpr size_t kMinNameBytes = size_t{16} << 20;

struct StorageName {
  const char* name;
  ScalarType type;
};
constexpr StorageName kStorageNames[] = {
    {"DoubleStorage", kDouble},
    {"FloatStorage", kFloat},
    {"HalfStorage", kHalf},
    {"BFloat16Storage", kBFloat16},
    {"LongStorage", kLong},
    {"IntStorage", kInt},
    {"ShortStorage", kShort},
    {"CharStorage", kChar},
    {"ByteStorage", kByte},
    {"BoolStorage", kBool},
    {"ComplexFloatStorage", kComplexFloat},
    {"ComplexDoubleStorage", kComplexDouble},
};

bool is_storage_name(const std::string& n) {
  for (const auto& s : kStorageNames)
    if (n == s.name) return true;
  return false;
}

class Unpickler {
 public:
  Unpickler(std::string_view bytes, const StorageLoader& loader, const std::string& source)
      : bytes_(bytes), loader_(loader), source_(source) {}

  PickleGraph run();

 private:
  template <typename... Args>
  [[noreturn]] void fail(const Args&... what) const {
    EMBER_ERROR("unpickler: ", what..., " (in '", source_, "' at byte ", op_pos_, ")");
  }

  const char* take(size_t n) {
    if (n > bytes_.size() - pos_) fail("truncated input: need ", n, " more bytes");
    const char* p = bytes_.data() + pos_;
    pos_ += n;
    return p;
  }
  uint8_t u8() { return static_cast<uint8_t>(*take(1)); }
  template <typename T>
  T le() {
    T v;
    std::memcpy(&v, take(sizeof(T)), sizeof(T));
    return v;
  }
  std::string line() {
    const size_t nl = bytes_.find('\n', pos_);
    if (nl == std::string_view::npos) fail("truncated text argument (GLOBAL, INT or LONG): no newline");
    std::string s(bytes_.substr(pos_, nl - pos_));
    pos_ = nl + 1;
    return s;
  }

  // A decimal INT / LONG argument: an Int when it fits int64; a larger positive one
  // becomes the little-endian two's complement bytes LONG1 would have carried (the
  // legacy format's magic number is such a LONG), so both spellings read the same.
  uint32_t text_int(const std::string& text) {
    const bool negative = !text.empty() && text[0] == '-';
    const std::string_view digits = std::string_view(text).substr(negative ? 1 : 0);
    if (digits.empty() || digits.size() > 64 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      fail("INT/LONG argument '", text.substr(0, 40), "' is not a decimal integer");
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc() && end == text.data() + text.size()) return make_int(v);
    if (negative) fail("INT/LONG argument ", text.substr(0, 40), " is below the int64 range");
    std::string decimal(digits), bytes;
    while (!(decimal.size() == 1 && decimal[0] == '0')) {  // divide by 256, collecting remainders
      std::string quotient;
      int rem = 0;
      for (char c : decimal) {
        rem = rem * 10 + (c - '0');
        if (!quotient.empty() || rem >= 256) quotient.push_back(static_cast<char>('0' + rem / 256));
        rem %= 256;
      }
      bytes.push_back(static_cast<char>(rem));
      decimal = quotient.empty() ? "0" : quotient;
    }
    if (uint8_t(bytes.back()) & 0x80) bytes.push_back('\0');  // keep it positive, as LONG1 does
    PickleObject o;
    o.kind = PickleKind::Bytes;
    o.s = std::move(bytes);
    return make(std::move(o));
  }

  uint32_t make(PickleObject o) {
    graph_.objects.push_back(std::move(o));
    return static_cast<uint32_t>(graph_.objects.size() - 1);
  }
  uint32_t make_int(int64_t v) {
    PickleObject o;
    o.kind = PickleKind::Int;
    o.i = v;
    return make(std::move(o));
  }
  PickleObject& obj(uint32_t id) { return graph_.objects[id]; }
  void push(uint32_t id) { stack_.push_back(id); }
  uint32_t pop() {
    if (stack_.size() <= mark_floor()) fail("pop from an empty stack");
    const uint32_t id = stack_.back();
    stack_.pop_back();
    return id;
  }
  uint32_t top() {
    if (stack_.size() <= mark_floor()) fail("empty stack");
    return stack_.back();
  }
  size_t mark_floor() const { return marks_.empty() ? 0 : marks_.back(); }
  std::vector<uint32_t> pop_mark() {
    if (marks_.empty()) fail("no MARK on the stack");
    const size_t m = marks_.back();
    marks_.pop_back();
    std::vector<uint32_t> items(stack_.begin() + static_cast<ptrdiff_t>(m), stack_.end());
    stack_.resize(m);
    return items;
  }
  uint32_t tuple_of(std::vector<uint32_t> items) {
    PickleObject o;
    o.kind = PickleKind::Tuple;
    o.items = std::move(items);
    return make(std::move(o));
  }
  uint32_t memo_get(uint32_t key) {
    const auto it = memo_.find(key);
    if (it == memo_.end()) fail("memo key ", key, " is not defined");
    return it->second;
  }

  void global(const std::string& module, const std::string& name);
  void reduce();
  void persistent_id();
  uint32_t rebuild_tensor(const std::vector<uint32_t>& args);
  int64_t as_int(uint32_t id, const char* what) {
    const PickleObject& o = obj(id);
    if (o.kind != PickleKind::Int) fail(what, " is not an integer");
    return o.i;
  }
  std::vector<int64_t> as_int_tuple(uint32_t id, const char* what) {
    if (obj(id).kind != PickleKind::Tuple) fail(what, " is not a tuple");
    std::vector<int64_t> out;
    for (uint32_t item : obj(id).items) out.push_back(as_int(item, what));
    return out;
  }

  std::string_view bytes_;
  const StorageLoader& loader_;
  const std::string& source_;
  size_t pos_ = 0;
  size_t op_pos_ = 0;
  PickleGraph graph_;
  std::vector<uint32_t> stack_;
  std::vector<size_t> marks_;
  std::unordered_map<uint32_t, uint32_t> memo_;
  std::unordered_map<std::string, uint32_t> storages_;  // key -> Storage object
};

void Unpickler::global(const std::string& module, const std::string& name) {
  const bool allowed = (module == "collections" && name == "OrderedDict") ||
                       (module == "torch._utils" && (name == "_rebuild_tensor_v2" || name == "_rebuild_parameter")) ||
                       (module == "torch" && (is_storage_name(name) || name == "Size"));
  if (!allowed) fail("global '", module, " ", name, "' is not allowed");
  PickleObject o;
  o.kind = PickleKind::Global;
  o.s = module + " " + name;
  push(make(std::move(o)));
}

uint32_t Unpickler::rebuild_tensor(const std::vector<uint32_t>& args) {
  if (args.size() < 6 || args.size() > 7) fail("_rebuild_tensor_v2 takes 6 or 7 arguments, got ", args.size());
  const PickleObject& st = obj(args[0]);
  if (st.kind != PickleKind::Storage) fail("_rebuild_tensor_v2: the first argument is not a storage");
  const Tensor storage = st.tensor;
  const int64_t offset = as_int(args[1], "_rebuild_tensor_v2 storage offset");
  const std::vector<int64_t> size = as_int_tuple(args[2], "_rebuild_tensor_v2 size");
  const std::vector<int64_t> stride = as_int_tuple(args[3], "_rebuild_tensor_v2 stride");
  const PickleObject& rg = obj(args[4]);
  if (rg.kind != PickleKind::Bool) fail("_rebuild_tensor_v2: requires_grad is not a bool");
  if (size.size() != stride.size())
    fail("_rebuild_tensor_v2: size has ", size.size(), " dims but stride has ", stride.size());
  const int64_t storage_numel = storage.numel();
  if (offset < 0 || offset > storage_numel)
    fail("_rebuild_tensor_v2: storage offset ", offset, " outside a storage of ", storage_numel, " elements");
  // Largest element index reached, checked for overflow; empty tensors touch nothing.
  int64_t last = offset;
  bool empty = false;
  int64_t nonzero = 1;  // product of the non-zero sizes; must fit even when another size is 0
  for (size_t d = 0; d < size.size(); ++d) {
    if (size[d] < 0 || stride[d] < 0) fail("_rebuild_tensor_v2: negative size or stride");
    if (size[d] == 0) empty = true;
    if (__builtin_mul_overflow(nonzero, size[d] == 0 ? 1 : size[d], &nonzero))
      fail("_rebuild_tensor_v2: size product overflows");
  }
  if (!empty) {
    for (size_t d = 0; d < size.size(); ++d) {
      int64_t span;
      if (__builtin_mul_overflow(size[d] - 1, stride[d], &span) || __builtin_add_overflow(last, span, &last))
        fail("_rebuild_tensor_v2: size/stride extent overflows");
    }
    if (last >= storage_numel)
      fail("_rebuild_tensor_v2: tensor reaches element ", last, " of a storage of ", storage_numel, " elements");
  }
  PickleObject o;
  o.kind = PickleKind::Tensor;
  o.tensor = storage.as_strided(size, stride, storage.storage_offset() + offset);
  if (rg.i != 0 && (o.tensor.is_floating_point() || o.tensor.is_complex())) o.tensor.requires_grad_(true);
  return make(std::move(o));
}

void Unpickler::reduce() {
  const uint32_t args_id = pop();
  const uint32_t fn_id = pop();
  if (obj(fn_id).kind != PickleKind::Global) fail("REDUCE on an object that is not an allowed global");
  if (obj(args_id).kind != PickleKind::Tuple) fail("REDUCE arguments are not a tuple");
  const std::string fn = obj(fn_id).s;
  const std::vector<uint32_t> args = obj(args_id).items;
  if (fn == "collections OrderedDict") {
    if (!args.empty()) fail("OrderedDict() with arguments is not supported");
    PickleObject o;
    o.kind = PickleKind::Dict;
    push(make(std::move(o)));
  } else if (fn == "torch Size") {  // torch.Size((2, 3)) is the tuple it wraps
    if (args.size() != 1 || obj(args[0]).kind != PickleKind::Tuple) fail("torch.Size takes one tuple");
    for (uint32_t item : obj(args[0]).items)
      if (obj(item).kind != PickleKind::Int) fail("torch.Size holds a value that is not an integer");
    push(args[0]);
  } else if (fn == "torch._utils _rebuild_tensor_v2") {
    push(rebuild_tensor(args));
  } else if (fn == "torch._utils _rebuild_parameter") {
    if (args.size() != 3) fail("_rebuild_parameter takes 3 arguments, got ", args.size());
    if (obj(args[0]).kind != PickleKind::Tensor) fail("_rebuild_parameter: data is not a tensor");
    if (obj(args[1]).kind != PickleKind::Bool) fail("_rebuild_parameter: requires_grad is not a bool");
    PickleObject o;
    o.kind = PickleKind::Tensor;
    o.tensor = obj(args[0]).tensor.detach();
    if (obj(args[1]).i != 0 && (o.tensor.is_floating_point() || o.tensor.is_complex())) o.tensor.requires_grad_(true);
    push(make(std::move(o)));
  } else {
    fail("calling '", fn, "' is not allowed");
  }
}

void Unpickler::persistent_id() {
  const uint32_t pid = pop();
  const PickleObject& p = obj(pid);
  if (p.kind != PickleKind::Tuple || p.items.size() < 5 || p.items.size() > 6)
    fail("persistent id is not a ('storage', type, key, location, numel[, view]) tuple");
  const std::vector<uint32_t> it = p.items;
  if (obj(it[0]).kind != PickleKind::String || obj(it[0]).s != "storage") fail("persistent id is not a storage");
  const PickleObject& type = obj(it[1]);
  if (type.kind != PickleKind::Global || type.s.rfind("torch ", 0) != 0) fail("persistent id: bad storage type");
  const ScalarType dtype = storage_type_dtype(type.s.substr(6));
  if (obj(it[2]).kind != PickleKind::String) fail("persistent id: storage key is not a string");
  const std::string key = obj(it[2]).s;
  const int64_t numel = as_int(it[4], "storage numel");
  if (numel < 0) fail("negative storage size ", numel);
  if (!loader_) fail("storage '", key, "' referenced but no storage data is available");
  uint32_t id;
  if (const auto found = storages_.find(key); found != storages_.end()) {
    id = found->second;
    const Tensor& t = obj(id).tensor;
    if (t.dtype() != dtype || t.numel() != numel) fail("storage '", key, "' referenced with different types or sizes");
  } else {
    PickleObject o;
    o.kind = PickleKind::Storage;
    o.tensor = loader_(key, dtype, numel);
    if (!o.tensor.defined() || o.tensor.dim() != 1 || o.tensor.numel() != numel || o.tensor.dtype() != dtype)
      fail("storage loader returned a wrong tensor for '", key, "'");
    id = make(std::move(o));
    storages_.emplace(key, id);
  }
  // Legacy files name a view of a storage as (view_key, offset, size).
  if (it.size() == 6 && obj(it[5]).kind != PickleKind::None) {
    const PickleObject& view = obj(it[5]);
    if (view.kind != PickleKind::Tuple || view.items.size() != 3) fail("persistent id: bad view metadata");
    const int64_t off = as_int(view.items[1], "view offset");
    const int64_t len = as_int(view.items[2], "view size");
    if (off < 0 || len < 0 || off > numel || len > numel - off) fail("storage view outside its storage");
    PickleObject o;
    o.kind = PickleKind::Storage;
    o.tensor = obj(id).tensor.narrow(0, off, len);
    id = make(std::move(o));
  }
  push(id);
}

PickleGraph Unpickler::run() {
  NoGradGuard no_grad;
  while (true) {
    op_pos_ = pos_;
    const uint8_t op = u8();
    switch (op) {
      case 0x80:  // PROTO
        if (u8() > 5) fail("unsupported pickle protocol");
        break;
      case 0x95:  // FRAME: framing is only a hint for buffered readers
        (void)le<uint64_t>();
        break;
      case '.': {  // STOP
        graph_.root = pop();
        graph_.consumed = pos_;
        return std::move(graph_);
      }
      case '(':  // MARK
        marks_.push_back(stack_.size());
        break;
      case '0':  // POP
        pop();
        break;
      case '1':  // POP_MARK
        pop_mark();
        break;
      case '2':  // DUP
        push(top());
        break;
      case 'N':
        push(make(PickleObject{}));
        break;
      case 0x88:
      case 0x89: {  // NEWTRUE, NEWFALSE
        PickleObject o;
        o.kind = PickleKind::Bool;
        o.i = op == 0x88;
        push(make(std::move(o)));
        break;
      }
      case 'J':
        push(make_int(le<int32_t>()));
        break;
      case 'I':
      case 'L': {  // INT, LONG: decimal text (protocols 0 and 1); "I01" / "I00" are True / False
        std::string text = line();
        if (op == 'L' && !text.empty() && text.back() == 'L') text.pop_back();
        if (op == 'I' && (text == "00" || text == "01")) {
          PickleObject o;
          o.kind = PickleKind::Bool;
          o.i = text == "01";
          push(make(std::move(o)));
          break;
        }
        push(text_int(text));
        break;
      }
      case 'K':
        push(make_int(u8()));
        break;
      case 'M':
        push(make_int(le<uint16_t>()));
        break;
      case 0x8a: {  // LONG1: little-endian two's complement of n bytes
        const size_t n = u8();
        const char* p = take(n);
        if (n > 8) {  // wider than int64 (the legacy magic number): keep the bytes
          PickleObject o;
          o.kind = PickleKind::Bytes;
          o.s.assign(p, n);
          push(make(std::move(o)));
          break;
        }
        uint64_t v = 0;
        for (size_t k = 0; k < n; ++k) v |= uint64_t(uint8_t(p[k])) << (8 * k);
        if (n > 0 && n < 8 && (uint8_t(p[n - 1]) & 0x80)) v |= ~uint64_t(0) << (8 * n);
        push(make_int(static_cast<int64_t>(v)));
        break;
      }
      case 'G': {  // BINFLOAT: big-endian double
        uint64_t bits = 0;
        const char* p = take(8);
        for (int k = 0; k < 8; ++k) bits = (bits << 8) | uint8_t(p[k]);
        PickleObject o;
        o.kind = PickleKind::Float;
        o.f = std::bit_cast<double>(bits);
        push(make(std::move(o)));
        break;
      }
      case 'X':     // BINUNICODE
      case 0x8c:    // SHORT_BINUNICODE
      case 0x8d:    // BINUNICODE8
      case 'B':     // BINBYTES
      case 'C':     // SHORT_BINBYTES
      case 0x8e: {  // BINBYTES8
        uint64_t n = (op == 0x8c || op == 'C') ? u8() : (op == 0x8d || op == 0x8e) ? le<uint64_t>() : le<uint32_t>();
        if (n > bytes_.size()) fail("string length ", n, " exceeds the input");
        PickleObject o;
        o.kind = (op == 'B' || op == 'C' || op == 0x8e) ? PickleKind::Bytes : PickleKind::String;
        o.s.assign(take(n), n);
        push(make(std::move(o)));
        break;
      }
      case ')':
        push(tuple_of({}));
        break;
      case 't':
        push(tuple_of(pop_mark()));
        break;
      case 0x85:
      case 0x86:
      case 0x87: {  // TUPLE1..3
        const size_t n = op - 0x84;
        std::vector<uint32_t> items(n);
        for (size_t k = n; k-- > 0;) items[k] = pop();
        push(tuple_of(std::move(items)));
        break;
      }
      case ']':
      case 'l': {  // EMPTY_LIST, LIST
        PickleObject o;
        o.kind = PickleKind::List;
        if (op == 'l') o.items = pop_mark();
        push(make(std::move(o)));
        break;
      }
      case 'a':
      case 'e': {  // APPEND, APPENDS
        std::vector<uint32_t> items = op == 'a' ? std::vector<uint32_t>{pop()} : pop_mark();
        const uint32_t list = top();
        if (obj(list).kind != PickleKind::List) fail("APPEND to an object that is not a list");
        auto& dst = obj(list).items;
        dst.insert(dst.end(), items.begin(), items.end());
        break;
      }
      case '}':
      case 'd': {  // EMPTY_DICT, DICT
        PickleObject o;
        o.kind = PickleKind::Dict;
        if (op == 'd') {
          o.items = pop_mark();
          if (o.items.size() % 2 != 0) fail("DICT with an odd number of items");
        }
        push(make(std::move(o)));
        break;
      }
      case 's':
      case 'u': {  // SETITEM, SETITEMS
        std::vector<uint32_t> items;
        if (op == 's') {
          const uint32_t v = pop();
          const uint32_t k = pop();
          items = {k, v};
        } else {
          items = pop_mark();
          if (items.size() % 2 != 0) fail("SETITEMS with an odd number of items");
        }
        const uint32_t dict = top();
        if (obj(dict).kind != PickleKind::Dict) fail("SETITEM on an object that is not a dict");
        auto& dst = obj(dict).items;
        dst.insert(dst.end(), items.begin(), items.end());
        break;
      }
      case 'c': {  // GLOBAL
        const std::string module = line();
        const std::string name = line();
        global(module, name);
        break;
      }
      case 0x93: {  // STACK_GLOBAL
        const uint32_t name = pop();
        const uint32_t module = pop();
        if (obj(name).kind != PickleKind::String || obj(module).kind != PickleKind::String)
          fail("STACK_GLOBAL operands are not strings");
        global(obj(module).s, obj(name).s);
        break;
      }
      case 'R':
        reduce();
        break;
      case 'b': {  // BUILD: sets attributes (OrderedDict._metadata); nothing to keep
        pop();
        const PickleKind k = obj(top()).kind;
        if (k != PickleKind::Dict && k != PickleKind::Tensor) fail("BUILD on an unsupported object");
        break;
      }
      case 'Q':
        persistent_id();
        break;
      case 'q':
        memo_[u8()] = top();
        break;
      case 'r':
        memo_[le<uint32_t>()] = top();
        break;
      case 0x94:  // MEMOIZE
        memo_[static_cast<uint32_t>(memo_.size())] = top();
        break;
      case 'h':
        push(memo_get(u8()));
        break;
      case 'j':
        push(memo_get(le<uint32_t>()));
        break;
      default:
        fail("unsupported opcode 0x", "0123456789abcdef"[op >> 4], "0123456789abcdef"[op & 15]);
    }
  }
}

// `budget` counts the containers visited (shared ones are visited once per
// path), `name_bytes` the bytes of the dotted names built: a small file whose
// nested dicts reuse one long key would otherwise build gigabytes of names.
void flatten_into(const PickleGraph& g, uint32_t id, const std::string& prefix, int depth, size_t& budget,
                  size_t& name_bytes, NamedTensors& out, const std::string& source) {
  EMBER_CHECK(depth <= kMaxFlattenDepth, "unpickler: '", source, "' nests containers deeper than ", kMaxFlattenDepth,
              " levels");
  EMBER_CHECK(budget-- > 0, "unpickler: '", source, "' expands to too many entries (shared containers?)");
  const PickleObject& o = g.at(id);
  auto join = [&](const std::string& k) {
    const size_t n = prefix.empty() ? k.size() : prefix.size() + 1 + k.size();
    EMBER_CHECK(n <= name_bytes, "unpickler: '", source,
                "' builds more tensor names from its nested containers than the limit (", kNameBytesPerPickleByte,
                " bytes per pickle byte, at least ", kMinNameBytes >> 20, " MiB)");
    name_bytes -= n;
    return prefix.empty() ? k : prefix + "." + k;
  };
  switch (o.kind) {
    case PickleKind::Tensor:
      out.emplace_back(prefix, o.tensor);
      break;
    case PickleKind::Dict: {
      // Python's dict semantics: a key set twice keeps its first place and its last
      // value, so a file that sets 'w' twice loads the tensor torch.load sees.
      std::vector<std::pair<std::string, uint32_t>> entries;
      std::unordered_map<std::string, size_t> place;  // key (tagged by its kind) -> entry
      for (size_t k = 0; k + 1 < o.items.size(); k += 2) {
        const PickleObject& key = g.at(o.items[k]);
        std::string name;
        if (key.kind == PickleKind::String)
          name = key.s;
        else if (key.kind == PickleKind::Int)
          name = std::to_string(key.i);
        else
          EMBER_ERROR("unpickler: '", source, "' has a dict key that is neither a string nor an integer");
        const auto [it, fresh] = place.try_emplace((key.kind == PickleKind::String ? "s" : "i") + name, entries.size());
        if (fresh)
          entries.emplace_back(std::move(name), o.items[k + 1]);
        else
          entries[it->second].second = o.items[k + 1];
      }
      for (const auto& [name, value] : entries)
        flatten_into(g, value, join(name), depth + 1, budget, name_bytes, out, source);
      break;
    }
    case PickleKind::List:
    case PickleKind::Tuple:
      for (size_t k = 0; k < o.items.size(); ++k)
        flatten_into(g, o.items[k], join(std::to_string(k)), depth + 1, budget, name_bytes, out, source);
      break;
    default:
      break;  // numbers, strings, None: not tensors
  }
}

}  // namespace

ScalarType storage_type_dtype(const std::string& name) {
  for (const auto& s : kStorageNames)
    if (name == s.name) return s.type;
  EMBER_ERROR("unpickler: unknown storage type '", name, "'");
}

PickleGraph unpickle(std::string_view bytes, const StorageLoader& load_storage, const std::string& source) {
  return Unpickler(bytes, load_storage, source).run();
}

NamedTensors flatten_tensors(const PickleGraph& graph, const std::string& source) {
  NamedTensors out;
  size_t budget = 4 * graph.objects.size() + 1024;
  size_t name_bytes = std::max(kMinNameBytes, kNameBytesPerPickleByte * graph.consumed);
  flatten_into(graph, graph.root, "", 0, budget, name_bytes, out, source);
  // Nesting can still make two names equal ({'b': {'c.d': x}, 'b.c': {'d': y}}); a
  // lookup by name would then see whichever came first, so that is an error.
  std::unordered_set<std::string_view> names;
  for (const auto& [name, tensor] : out)
    EMBER_CHECK(names.insert(name).second, "unpickler: '", source, "' holds two tensors named '", name, "'");
  return out;
}

}  // namespace torch::serialize
