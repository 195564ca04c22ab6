#include "ember/serialize/safetensors.h"

#include <gtest/gtest.h>

#include <cstring>

#include "common/golden.h"
#include "common/test_util.h"
#include "serialize_test_util.h"

namespace torch::serialize {
namespace {

using ember::testing::Golden;
using ember::testing::ScratchDir;

// A safetensors buffer from a header text and a data buffer.
std::string make_file(const std::string& header, const std::string& data) {
  std::string out(8, '\0');
  const uint64_t n = header.size();
  std::memcpy(out.data(), &n, 8);
  return out + header + data;
}

TEST(SafetensorsTest, RoundTripsEveryDtypeInOrder) {
  Golden g("serialize.golden");
  const std::vector<std::string> names = {"f64", "f32", "f16", "bf16", "c64",    "i64",   "i32",
                                          "i16", "i8",  "u8",  "bool", "scalar", "empty", "column"};
  NamedTensors in;
  for (const auto& n : names) in.emplace_back("t." + n, g["mixed." + n]);
  in.emplace_back("c128", g["mixed.c64"].to(kComplexDouble));
  ScratchDir dir;
  save_safetensors(dir.file("x.safetensors"), in, {{"author", "ember"}});
  const SafetensorsContents out = load_safetensors_with_metadata(dir.file("x.safetensors"));
  ASSERT_EQ(out.tensors.size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(out.tensors[i].first, in[i].first);
    EXPECT_TENSOR_EQ(out.tensors[i].second, in[i].second);
    EXPECT_TRUE(out.tensors[i].second.is_contiguous());
  }
  EXPECT_EQ(out.metadata, (Metadata{{"author", "ember"}}));
}

TEST(SafetensorsTest, ReadsAFileLaidOutFromTheSpec) {
  Golden g("serialize.golden");
  const SafetensorsContents c = load_safetensors_with_metadata(ember::testing::pt_file("reference.safetensors"));
  EXPECT_EQ(c.metadata, (Metadata{{"format", "pt"}, {"note", "hand-written"}}));
  ASSERT_EQ(c.tensors.size(), 5u);
  for (const auto& [name, t] : c.tensors) EXPECT_TENSOR_EQ(t, g["reference." + name]);
}

TEST(SafetensorsTest, HeaderIsPaddedAndComplexUsesTheEmberNames) {
  const std::string bytes =
      save_safetensors_to_buffer({{"z", ones({2}, TensorOptions().dtype(kComplexFloat))}, {"w", ones({1})}});
  uint64_t n;
  std::memcpy(&n, bytes.data(), 8);
  EXPECT_EQ(n % 8, 0u);
  EXPECT_NE(bytes.find("\"C64\""), std::string::npos);
  EXPECT_EQ(bytes.size(), 8 + n + 2 * 8 + 4);
  EXPECT_STREQ(safetensors_dtype_name(kComplexDouble), "C128");
}

TEST(SafetensorsTest, WriterRejectsDuplicatesReservedNamesAndUndefined) {
  EXPECT_EMBER_ERROR(save_safetensors_to_buffer({{"a", ones({1})}, {"a", ones({1})}}), "duplicate", "'a'");
  EXPECT_EMBER_ERROR(save_safetensors_to_buffer({{"__metadata__", ones({1})}}), "reserved");
  EXPECT_EMBER_ERROR(save_safetensors_to_buffer({{"u", Tensor()}}), "'u'", "undefined");
}

TEST(SafetensorsTest, RejectsMalformedFiles) {
  const std::string f4(4, '\0');
  const std::string ok = R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})";
  EXPECT_NO_THROW(load_safetensors_from_buffer(make_file(ok, f4)));
  auto bad = [](const std::string& bytes, const std::string& fragment) {
    EXPECT_EMBER_ERROR(load_safetensors_from_buffer(bytes, "bad.safetensors"), "load_safetensors", "bad.safetensors",
                       fragment);
  };
  bad("abc", "too short");
  {
    std::string b = make_file(ok, f4);
    const uint64_t huge = 1ull << 62;
    std::memcpy(b.data(), &huge, 8);
    bad(b, "header length");
    const uint64_t past = b.size();
    std::memcpy(b.data(), &past, 8);
    bad(b, "exceeds the file size");
  }
  bad(make_file("{\"a\":", ""), "not well-formed JSON");
  bad(make_file("[1,2]", ""), "not a JSON object");
  bad(make_file(std::string(100, '[') + std::string(100, ']'), ""), "nests deeper");
  bad(make_file(
          R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
          f4 + f4),
      "duplicate tensor name 'a'");
  // A field repeated inside an entry or in __metadata__ would let the last one win silently.
  bad(make_file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"dtype":"I32"}})", f4),
      "duplicate key 'dtype'");
  bad(make_file(R"({"__metadata__":{"k":"1","k":"2"},"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", f4),
      "duplicate key 'k'");
  bad(make_file(R"({"a":{"dtype":"F31","shape":[1],"data_offsets":[0,4]}})", f4), "unknown dtype 'F31'");
  bad(make_file(R"({"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})", f4), "non-negative integer");
  bad(make_file(R"({"a":{"dtype":"F32","shape":[1.5],"data_offsets":[0,4]}})", f4), "non-negative integer");
  bad(make_file(R"({"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]}})", f4), "overflow");
  bad(make_file(R"({"a":{"dtype":"F32","shape":[0,4294967296,4294967296],"data_offsets":[0,0]}})", ""), "overflow");
  bad(make_file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,8]}})", f4), "outside the data buffer");
  bad(make_file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,0]}})", f4), "outside the data buffer");
  bad(make_file(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}})", f4), "need 8");
  bad(make_file(
          R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[2,6]}})",
          f4 + f4),
      "overlap");
  bad(make_file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", f4 + f4), "hole");
  bad(make_file(ok, f4 + "xx"), "trailing bytes");
  bad(make_file(R"({"a":{"dtype":"F32","shape":[1]}})", f4), "needs dtype, shape and data_offsets");
  bad(make_file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"x":1}})", f4), "unknown field 'x'");
  bad(make_file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0]}})", f4), "data_offsets");
  bad(make_file(R"({"__metadata__":{"k":1}})", ""), "__metadata__");
  bad(make_file(R"({"a":3})", ""), "not an object");
}

TEST(SafetensorsTest, MissingFileNamesThePath) {
  EXPECT_EMBER_ERROR(load_safetensors("/nonexistent/x.safetensors"), "/nonexistent/x.safetensors");
}

}  // namespace
}  // namespace torch::serialize
