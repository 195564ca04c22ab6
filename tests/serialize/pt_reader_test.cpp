#include "ember/serialize/pt_reader.h"

#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/serialize/atomic_file.h"
#include "ember/serialize/pickle_reader.h"
#include "serialize_test_util.h"

namespace torch::serialize {
namespace {

using namespace std::literals;

using ember::testing::Golden;
using ember::testing::nested_dicts_sharing_one_key;
using ember::testing::pt_file;

void expect_matches_golden(const NamedTensors& got, const Golden& g, const std::string& prefix) {
  const std::vector<std::string> want = g.names_with_prefix(prefix);
  EXPECT_EQ(got.size(), want.size());
  for (const auto& [name, t] : got) {
    ASSERT_TRUE(g.has(prefix + name)) << name;
    EXPECT_TENSOR_EQ(t, g[prefix + name]) << name;
  }
}

TEST(PtReaderTest, SequentialStateDictKeepsPyTorchNamesAndOrder) {
  Golden g("serialize.golden");
  const NamedTensors sd = load_pytorch_state_dict(pt_file("sequential.pt"));
  std::vector<std::string> names;
  for (const auto& [n, t] : sd) names.push_back(n);
  EXPECT_EQ(names, (std::vector<std::string>{"0.weight", "0.bias", "1.weight", "1.bias", "1.running_mean",
                                             "1.running_var", "1.num_batches_tracked"}));
  expect_matches_golden(sd, g, "sequential.");
  EXPECT_EQ(sd.back().second.dtype(), kLong);
  EXPECT_EQ(sd.back().second.dim(), 0);
}

TEST(PtReaderTest, MixedDtypesViewsAndNesting) {
  Golden g("serialize.golden");
  for (const char* file : {"mixed.pt", "mixed_legacy.pt"}) {
    SCOPED_TRACE(file);
    const NamedTensors m = load_pytorch_state_dict(pt_file(file));
    expect_matches_golden(m, g, "mixed.");
    std::map<std::string, Tensor> by_name(m.begin(), m.end());
    // Views keep their layout and share the storage of the tensor they view.
    const Tensor& base = by_name.at("base");
    const Tensor& column = by_name.at("column");
    EXPECT_FALSE(column.is_contiguous());
    EXPECT_EQ(column.strides()[0], 4);
    EXPECT_EQ(column.data_ptr(), static_cast<double*>(base.data_ptr()) + 1);
    EXPECT_EQ(by_name.at("window").data_ptr(), static_cast<double*>(base.data_ptr()) + 5);
    EXPECT_EQ(by_name.at("transposed").strides().vec(), (std::vector<int64_t>{1, 4}));
    EXPECT_TRUE(by_name.count("nested.list.1"));
    EXPECT_FALSE(by_name.count("epoch"));  // non-tensor leaves are skipped
  }
}

TEST(PtReaderTest, ParameterAndList) {
  Golden g("serialize.golden");
  const NamedTensors p = load_pytorch_state_dict(pt_file("parameter.pt"));
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].first, "");
  EXPECT_TRUE(p[0].second.requires_grad());
  EXPECT_TENSOR_EQ(p[0].second.detach(), g["parameter"]);
  expect_matches_golden(load_pytorch_state_dict(pt_file("list.pt")), g, "list.");
}

TEST(PtReaderTest, MaliciousGlobalIsRejected) {
  EXPECT_EMBER_ERROR(load_pytorch_state_dict(pt_file("malicious.pt")), "unpickler: global 'os system' is not allowed",
                     "malicious.pt");
  EXPECT_EMBER_ERROR(load_pytorch_state_dict(pt_file("malicious_raw.pkl")),
                     "unpickler: global 'os system' is not allowed");
}

// Builds a minimal zip checkpoint whose data.pkl is `pickle` and one storage "0".
Tensor one_tensor_from_pickle(const std::string& pickle) {
  auto loader = [](const std::string& key, ScalarType dtype, int64_t numel) { return arange(numel).to(dtype); };
  const PickleGraph g = unpickle(pickle, loader, "test.pkl");
  const NamedTensors t = flatten_tensors(g, "test.pkl");
  EMBER_CHECK(t.size() == 1, "expected one tensor");
  return t[0].second;
}

// pickle for _rebuild_tensor_v2(storage('0', FloatStorage, numel), offset, size, stride, False, OrderedDict())
std::string rebuild_pickle(int numel, int offset, std::vector<int> size, std::vector<int> stride) {
  std::string p =
      "\x80\x02"
      "ctorch._utils\n_rebuild_tensor_v2\n(";
  p += "(X\x07\x00\x00\x00storage"
       "ctorch\nFloatStorage\nX\x01\x00\x00\x00"
       "0X\x03\x00\x00\x00"
       "cpu"s;
  p += "J" + std::string(reinterpret_cast<const char*>(&numel), 4) + "tQ";
  p += "J" + std::string(reinterpret_cast<const char*>(&offset), 4);
  p += "(";
  for (int s : size) p += "J" + std::string(reinterpret_cast<const char*>(&s), 4);
  p += "t(";
  for (int s : stride) p += "J" + std::string(reinterpret_cast<const char*>(&s), 4);
  p += "t\x89"
       "ccollections\nOrderedDict\n)Rtr";
  p.pop_back();
  p += "R.";
  return p;
}

TEST(PtReaderTest, RebuildChecksBoundsAgainstTheStorage) {
  const Tensor ok = one_tensor_from_pickle(rebuild_pickle(6, 1, {2, 2}, {3, 1}));
  EXPECT_TENSOR_EQ(ok, tensor({{1.f, 2.f}, {4.f, 5.f}}));
  EXPECT_EMBER_ERROR(one_tensor_from_pickle(rebuild_pickle(6, 1, {2, 3}, {3, 1})), "_rebuild_tensor_v2", "element 6",
                     "6 elements");
  EXPECT_EMBER_ERROR(one_tensor_from_pickle(rebuild_pickle(6, 7, {0}, {1})), "storage offset 7");
  EXPECT_EMBER_ERROR(one_tensor_from_pickle(rebuild_pickle(6, 0, {2}, {-1})), "negative");
  EXPECT_EMBER_ERROR(one_tensor_from_pickle(rebuild_pickle(6, 0, {2, 2}, {1})), "size has 2 dims");
  EXPECT_EMBER_ERROR(one_tensor_from_pickle(rebuild_pickle(6, 0, {2147483647, 2147483647, 2147483647},
                                                           {2147483647, 2147483647, 2147483647})),
                     "overflow");
  EXPECT_EMBER_ERROR(
      one_tensor_from_pickle(rebuild_pickle(6, 0, {0, 2147483647, 2147483647, 2147483647}, {1, 1, 1, 1})),
      "size product overflows");
  EXPECT_NO_THROW(one_tensor_from_pickle(rebuild_pickle(6, 6, {0, 5}, {5, 1})));
}

// The body of rebuild_pickle (no protocol header, no STOP): one tensor on the stack.
std::string rebuild_body(int numel, int offset, std::vector<int> size, std::vector<int> stride) {
  const std::string p = rebuild_pickle(numel, offset, std::move(size), std::move(stride));
  return p.substr(2, p.size() - 3);
}

NamedTensors tensors_from_pickle(const std::string& pickle) {
  auto loader = [](const std::string& key, ScalarType dtype, int64_t numel) { return arange(numel).to(dtype); };
  return flatten_tensors(unpickle(pickle, loader, "t.pkl"), "t.pkl");
}

// A key set twice keeps the last value, as Python's dict (and so torch.load) does.
TEST(PtReaderTest, DuplicateDictKeysKeepTheLastValue) {
  auto str = [](const std::string& text) {  // BINUNICODE (short strings only)
    return "X"s + static_cast<char>(text.size()) + std::string(3, '\0') + text;
  };
  const std::string w = str("w"), v = str("v");
  const NamedTensors t = tensors_from_pickle("\x80\x02}(" + w + rebuild_body(6, 1, {1}, {1}) + v +
                                             rebuild_body(6, 3, {1}, {1}) + w + rebuild_body(6, 2, {1}, {1}) + "u.");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].first, "w");
  EXPECT_TENSOR_EQ(t[0].second, tensor({2.f}));
  EXPECT_EQ(t[1].first, "v");
  EXPECT_TENSOR_EQ(t[1].second, tensor({3.f}));
  // {'b': {'c.d': x}, 'b.c': {'d': y}}: two different keys flatten to one name.
  const std::string b = str("b"), cd = str("c.d"), bc = str("b.c"), d = str("d");
  EXPECT_EMBER_ERROR(tensors_from_pickle("\x80\x02}(" + b + "}" + cd + rebuild_body(6, 1, {1}, {1}) + "s" + bc + "}" +
                                         d + rebuild_body(6, 2, {1}, {1}) + "su."),
                     "two tensors named 'b.c.d'");
}

// Protocols 0 and 1 spell integers as decimal text (INT, LONG); torch.Size is a tuple.
TEST(PtReaderTest, TextIntegersAndTorchSize) {
  auto root = [](std::string_view p) {
    const PickleGraph g = unpickle(p, nullptr, "t.pkl");
    return g.at(g.root);
  };
  EXPECT_EQ(root("I-42\n."sv).i, -42);
  EXPECT_EQ(root("I01\n."sv).kind, PickleKind::Bool);
  EXPECT_EQ(root("I01\n."sv).i, 1);
  EXPECT_EQ(root("L7L\n."sv).i, 7);
  // The legacy format's magic number 0x1950a86a20f9469cfc6c, as LONG1 carries it.
  const PickleObject magic = root("L119547037146038801333356L\n."sv);
  EXPECT_EQ(magic.kind, PickleKind::Bytes);
  EXPECT_EQ(magic.s, "\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19"s);
  EXPECT_EMBER_ERROR(unpickle("I4x2\n."sv, nullptr, "t.pkl"), "not a decimal integer");
  EXPECT_EMBER_ERROR(unpickle("I5."sv, nullptr, "t.pkl"), "no newline");
  const PickleObject size = root("ctorch\nSize\n((K\x02K\x03ttR."sv);
  EXPECT_EQ(size.kind, PickleKind::Tuple);
  EXPECT_EQ(size.items.size(), 2u);
  EXPECT_EMBER_ERROR(unpickle("ctorch\nSize\n((X\x01\x00\x00\x00"
                              "attR."sv,
                              nullptr, "t.pkl"),
                     "torch.Size holds");
}

TEST(PtReaderTest, MalformedPicklesAreErrorsNotCrashes) {
  auto bad = [](std::string_view p, const std::string& fragment) {
    SCOPED_TRACE(fragment);
    EXPECT_EMBER_ERROR(unpickle(p, nullptr, "t.pkl"), "unpickler", fragment, "t.pkl");
  };
  bad(""sv, "truncated");
  bad("\x80\x02"sv, "truncated");
  bad("\x80\x09."sv, "protocol");
  bad("."sv, "empty stack");
  bad("t."sv, "no MARK");
  bad("h\x05."sv, "memo key 5");
  bad("X\xff\xff\xff\x7f"sv, "exceeds the input");
  bad("cbuiltins\neval\n."sv, "global 'builtins eval' is not allowed");
  bad("\x8c\x02os\x8c\x06system\x93."sv, "global 'os system' is not allowed");
  bad("ccollections\nOrderedDict\nK\x01\x85R."sv, "OrderedDict() with arguments");
  bad("K\x01)R."sv, "REDUCE on an object");
  bad("K\x01K\x01K\x02s."sv, "SETITEM on an object that is not a dict");
  bad("K\x01K\x02"
      "a."sv,
      "APPEND to an object that is not a list");
  bad("\x01"sv, "unsupported opcode 0x01");
  bad("(X\x07\x00\x00\x00storagectorch\nFloatStorage\nX\x01\x00\x00\x00"
      "0X\x03\x00\x00\x00"
      "cpuK\x01tQ."sv,
      "no storage data");
  bad("(X\x07\x00\x00\x00storagectorch\nQInt8Storage\nX\x01\x00\x00\x00"
      "0X\x03\x00\x00\x00"
      "cpuK\x01tQ."sv,
      "global 'torch QInt8Storage' is not allowed");
}

TEST(PtReaderTest, CyclesAndDeepNestingAreRejected) {
  // l = []; l.append(l): a cycle through the memo.
  EXPECT_EMBER_ERROR(flatten_tensors(unpickle("]q\x00h\x00"
                                              "a."sv,
                                              nullptr, "c.pkl"),
                                     "c.pkl"),
                     "deeper than");
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += "]";
  for (int i = 0; i < 99; ++i) deep += "a";
  deep += ".";
  EXPECT_EMBER_ERROR(flatten_tensors(unpickle(deep, nullptr, "d.pkl"), "d.pkl"), "deeper than");
}

TEST(PtReaderTest, NamesBuiltFromOneReusedLongKeyAreBounded) {
  // A 1 MiB pickle whose dotted names would total 1.8 GiB.
  const std::string bomb = nested_dicts_sharing_one_key(std::string(size_t{1} << 20, 'k'), 60);
  EXPECT_EMBER_ERROR(flatten_tensors(unpickle(bomb, nullptr, "names.pkl"), "names.pkl"), "names.pkl", "tensor names",
                     "limit");
  // The same shape a few levels deep is an ordinary nested dict (without tensors).
  EXPECT_TRUE(flatten_tensors(unpickle(nested_dicts_sharing_one_key("layer", 3), nullptr, "ok.pkl"), "ok.pkl").empty());
}

TEST(PtReaderTest, CorruptedZipsAreErrors) {
  const std::string good = read_file(pt_file("sequential.pt"));
  EXPECT_EQ(load_pytorch_state_dict_from_buffer(good, "mem").size(), 7u);
  // Truncations at every 97th byte: each must be a clean ember::Error.
  for (size_t n = 0; n < good.size(); n += 97) {
    try {
      load_pytorch_state_dict_from_buffer(good.substr(0, n), "cut");
    } catch (const Error&) {
    }
  }
  // Flip bytes throughout the file.
  for (size_t i = 0; i < good.size(); i += 13) {
    std::string b = good;
    b[i] = static_cast<char>(b[i] ^ 0x5a);
    try {
      load_pytorch_state_dict_from_buffer(b, "flipped");
    } catch (const Error&) {
    }
  }
  EXPECT_EMBER_ERROR(load_pytorch_state_dict_from_buffer("PK\x03\x04garbage", "z.pt"), "z.pt", "zip");
  EXPECT_EMBER_ERROR(load_pytorch_state_dict_from_buffer("hello", "h.pt"), "h.pt");
  EXPECT_EMBER_ERROR(load_pytorch_state_dict("/nonexistent.pt"), "/nonexistent.pt");
}

// A flipped byte inside a stored tensor leaves the archive readable; only the member's
// CRC-32 tells (Note [Reading zip archives]).
TEST(PtReaderTest, FlippedTensorByteFailsItsCrc) {
  std::string b = read_file(pt_file("sequential.pt"));
  const size_t name_at = b.find("/data/0");  // the first member holding a tensor: its local header's name
  ASSERT_NE(name_at, std::string::npos);
  const size_t header = b.rfind("PK\x03\x04"sv, name_at);
  ASSERT_NE(header, std::string::npos);
  auto u16 = [&](size_t at) { return size_t(uint8_t(b[at])) | size_t(uint8_t(b[at + 1])) << 8; };
  ASSERT_EQ(u16(header + 8), 0u);  // stored, as torch.save writes its members
  const size_t data = header + 30 + u16(header + 26) + u16(header + 28);
  ASSERT_LT(data, b.size());
  b[data] = static_cast<char>(b[data] ^ 0x01);
  EXPECT_EMBER_ERROR(load_pytorch_state_dict_from_buffer(b, "crc.pt"), "crc.pt", "CRC-32");
}

// The central directory's entry for the first tensor: the second "/data/0" of the file
// (the first is its local header), preceded by the central header's signature.
size_t central_header_of_first_tensor(const std::string& b) {
  const size_t local = b.find("/data/0");
  const size_t central = b.find("/data/0", local + 1);
  EXPECT_NE(central, std::string::npos);
  const size_t header = b.rfind("PK\x01\x02"sv, central);
  EXPECT_NE(header, std::string::npos);
  return header;
}

// What minizip would accept but a checkpoint never holds is refused by name.
TEST(PtReaderTest, UnsupportedZipMembersAreErrors) {
  const std::string good = read_file(pt_file("sequential.pt"));
  {
    std::string b = good;
    b[central_header_of_first_tensor(b) + 10] = 12;  // compression method: bzip2
    EXPECT_EMBER_ERROR(load_pytorch_state_dict_from_buffer(b, "bz.pt"), "bz.pt", "compression method 12");
  }
  {
    std::string b = good;
    b[central_header_of_first_tensor(b) + 8] |= 1;  // general purpose flag: encrypted
    EXPECT_EMBER_ERROR(load_pytorch_state_dict_from_buffer(b, "enc.pt"), "enc.pt", "encrypted");
  }
  {
    // Two members named ".../data/0": the second one's name rewritten everywhere.
    std::string b = good;
    for (size_t at = b.find("/data/1"); at != std::string::npos; at = b.find("/data/1", at + 1)) b[at + 6] = '0';
    EXPECT_EMBER_ERROR(load_pytorch_state_dict_from_buffer(b, "dup.pt"), "dup.pt", "two entries named");
  }
}

TEST(PtReaderTest, TruncatedLegacyFileIsAnError) {
  const std::string good = read_file(pt_file("mixed_legacy.pt"));
  EXPECT_EMBER_ERROR(load_pytorch_state_dict_from_buffer(good.substr(0, good.size() - 3), "leg.pt"), "leg.pt",
                     "truncated");
  for (size_t n = 0; n < good.size(); n += 31) {
    try {
      load_pytorch_state_dict_from_buffer(good.substr(0, n), "cut");
    } catch (const Error&) {
    }
  }
}

}  // namespace
}  // namespace torch::serialize
