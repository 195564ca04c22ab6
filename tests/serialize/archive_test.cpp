#include "ember/serialize/archive.h"

#include <gtest/gtest.h>

#include "ember/serialize/safetensors.h"

#include <sstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "serialize_test_util.h"

namespace {

using ember::testing::Golden;
using ember::testing::ScratchDir;

// A user type plugging into torch::save/load the way module holders will.
struct TwoTensors {
  torch::Tensor a, b;
};
torch::serialize::OutputArchive& operator<<(torch::serialize::OutputArchive& ar, const TwoTensors& v) {
  torch::serialize::OutputArchive inner;
  inner.write("a", v.a);
  inner.write("b", v.b, /*is_buffer=*/true);
  ar.write("pair", inner);
  return ar;
}
torch::serialize::InputArchive& operator>>(torch::serialize::InputArchive& ar, TwoTensors& v) {
  torch::serialize::InputArchive inner;
  ar.read("pair", inner);
  inner.read("a", v.a);
  inner.read("b", v.b, /*is_buffer=*/true);
  return ar;
}

TEST(ArchiveTest, SaveAndLoadATensor) {
  Golden g("serialize.golden");
  ScratchDir dir;
  const torch::Tensor t = g["mixed.column"];  // non-contiguous
  torch::save(t, dir.file("t.pt"));
  torch::Tensor back;
  torch::load(back, dir.file("t.pt"));
  EXPECT_TENSOR_EQ(back, t);
  torch::Tensor again;
  torch::load(again, dir.file("t.pt"), torch::kCPU);  // LibTorch's map-location argument
  EXPECT_TENSOR_EQ(again, t);
  EXPECT_EMBER_ERROR(torch::load(again, dir.file("t.pt"), torch::Device(torch::kCUDA)), "load_from", "CPU");
  // The file is plain safetensors with the tensor under "0".
  const auto c = torch::serialize::load_safetensors(dir.file("t.pt"));
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].first, "0");
}

TEST(ArchiveTest, SaveAndLoadATensorVectorThroughStreams) {
  Golden g("serialize.golden");
  const std::vector<torch::Tensor> v = {g["mixed.i64"], g["mixed.bf16"], g["mixed.empty"]};
  std::stringstream ss;
  torch::save(v, ss);
  std::vector<torch::Tensor> back;
  torch::load(back, ss);
  ASSERT_EQ(back.size(), 3u);
  for (size_t i = 0; i < v.size(); ++i) EXPECT_TENSOR_EQ(back[i], v[i]);
}

TEST(ArchiveTest, NestedArchivesFlattenToDottedNames) {
  ScratchDir dir;
  TwoTensors v{torch::arange(3), torch::ones({2, 2})};
  torch::save(v, dir.file("m.pt"));
  const auto c = torch::serialize::load_safetensors(dir.file("m.pt"));
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].first, "pair.a");
  EXPECT_EQ(c[1].first, "pair.b");
  TwoTensors w;
  torch::load(w, dir.file("m.pt"));
  EXPECT_TENSOR_EQ(w.a, v.a);
  EXPECT_TENSOR_EQ(w.b, v.b);
}

TEST(ArchiveTest, ReadIntoADefinedTensorCopiesInPlace) {
  torch::serialize::OutputArchive out;
  out.write("w", torch::full({2, 3}, 4.0));
  out.write("wrong", torch::zeros({3}));
  std::stringstream ss;
  out.save_to(ss);
  torch::serialize::InputArchive in;
  in.load_from(ss);

  torch::Tensor param = torch::zeros({2, 3}).requires_grad_(true);
  const void* storage = param.data_ptr();
  in.read("w", param);  // a leaf requiring grad: allowed because the copy runs under NoGradGuard
  EXPECT_EQ(param.data_ptr(), storage);
  EXPECT_TRUE(param.requires_grad());
  EXPECT_TENSOR_EQ(param.detach(), torch::full({2, 3}, 4.0));

  torch::Tensor small = torch::zeros({2});
  EXPECT_EMBER_ERROR(in.read("wrong", small), "InputArchive::read", "'wrong'", "[3]", "[2]");
  EXPECT_EMBER_ERROR(in.read("missing", small), "InputArchive::read", "No such serialized tensor 'missing'");
  EXPECT_FALSE(in.try_read("missing", small));
  torch::serialize::InputArchive nested;
  EXPECT_FALSE(in.try_read("w", nested));
}

TEST(ArchiveTest, IValuesRoundTrip) {
  torch::serialize::OutputArchive inner;
  inner.write("lr", torch::IValue(0.1));
  torch::serialize::OutputArchive out;
  out.write("step", torch::IValue(int64_t(1) << 40));
  out.write("flag", torch::IValue(true));
  out.write("name", torch::IValue("adam, with: colons"));
  out.write("sizes", torch::IValue(std::vector<int64_t>{3, -4}));
  out.write("betas", torch::IValue(std::vector<double>{0.9, 0.999}));
  out.write("none", torch::IValue());
  out.write("tensor", torch::IValue(torch::arange(2)));
  out.write("group", inner);
  EXPECT_EMBER_ERROR(out.write("step", torch::IValue(1)), "written twice");

  torch::serialize::InputArchive in;
  const std::string bytes = out.save_to_buffer();
  in.load_from(bytes.data(), bytes.size());
  torch::IValue v;
  ASSERT_TRUE(in.try_read("step", v));
  EXPECT_EQ(v.toInt(), int64_t(1) << 40);
  in.read("flag", v);
  EXPECT_TRUE(v.toBool());
  in.read("name", v);
  EXPECT_EQ(v.toStringRef(), "adam, with: colons");
  in.read("sizes", v);
  EXPECT_EQ(v.toIntVector(), (std::vector<int64_t>{3, -4}));
  in.read("betas", v);
  EXPECT_EQ(v.toDoubleVector(), (std::vector<double>{0.9, 0.999}));  // exact round trip
  in.read("none", v);
  EXPECT_TRUE(v.isNone());
  in.read("tensor", v);
  EXPECT_TENSOR_EQ(v.toTensor(), torch::arange(2));
  torch::serialize::InputArchive group;
  in.read("group", group);
  group.read("lr", v);
  EXPECT_EQ(v.toDouble(), 0.1);
  EXPECT_FALSE(in.try_read("absent", v));
  EXPECT_EMBER_ERROR(in.read("absent", v), "does not have a field with name 'absent'");

  const std::vector<std::string> keys = in.keys();
  EXPECT_EQ(keys.front(), "tensor");
  EXPECT_NE(std::find(keys.begin(), keys.end(), "group.lr"), keys.end());
  EXPECT_EQ(keys.size(), 8u);
}

TEST(ArchiveTest, ScalarsAreParsedStrictly) {
  for (const char* bad : {"bool:yes", "bool:", "bool:10", "int:1x", "double:", "ints:1,,2"}) {
    const std::string bytes = ember::serialize::save_safetensors_to_buffer({}, {{"ember.ivalue.v", bad}});
    torch::serialize::InputArchive in;
    in.load_from(bytes.data(), bytes.size());
    torch::IValue v;
    EXPECT_EMBER_ERROR(in.read("v", v), "InputArchive::read", "'v'");
  }
}

TEST(ArchiveTest, ManyKeysWriteAndLoadInOrder) {
  // Key checks and header parsing are O(n log n): 100,000 entries take well under a second.
  torch::serialize::OutputArchive out;
  const int n = 100000;
  for (int i = 0; i < n; ++i) out.write("t" + std::to_string(i), torch::full({1}, double(i)));
  EXPECT_EMBER_ERROR(out.write("t7", torch::ones({1})), "written twice");
  const std::string bytes = out.save_to_buffer();
  const auto loaded = ember::serialize::load_safetensors_from_buffer(bytes, "many");
  ASSERT_EQ(loaded.tensors.size(), size_t(n));
  for (int i : {0, 1, 9999, n - 1}) {
    EXPECT_EQ(loaded.tensors[i].first, "t" + std::to_string(i));  // saved order, not name order
    EXPECT_EQ(loaded.tensors[i].second.item<double>(), i);
  }
}

TEST(ArchiveTest, SavingReplacesTheFileAtomically) {
  ScratchDir dir;
  torch::save(torch::ones({2}), dir.file("c.pt"));
  torch::save(torch::zeros({3}), dir.file("c.pt"));
  EXPECT_EQ(dir.num_entries(), 1u);  // no temporary file left behind
  torch::Tensor t;
  torch::load(t, dir.file("c.pt"));
  EXPECT_TENSOR_EQ(t, torch::zeros({3}));
  EXPECT_EMBER_ERROR(torch::save(torch::ones({1}), dir.file("missing/c.pt")), "AtomicFile", "missing/c.pt");
  torch::serialize::OutputArchive out;
  EXPECT_EMBER_ERROR(out.write("u", torch::Tensor()), "OutputArchive::write", "'u'", "undefined");
}

TEST(ArchiveTest, LoadRejectsGarbage) {
  std::stringstream ss("definitely not an archive");
  torch::Tensor t;
  EXPECT_EMBER_ERROR(torch::load(t, ss), "load_safetensors", "<stream>");
  EXPECT_EMBER_ERROR(torch::load(t, "/nonexistent/file.pt"), "/nonexistent/file.pt");
}

}  // namespace
