// VOCDetection against torchvision 0.14 (tools/golden/gen_vision_voc.py): the split's files,
// every target as torchvision's parse_voc_xml dict (rebuilt here from the parsed element tree
// by torchvision's rules) and the typed fields read from it; hostile annotation files raise.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/datasets/voc.h"

namespace {

using namespace torch;
namespace datasets = torch::vision::datasets;
using nlohmann::json;

const std::string kRoot = std::string(EMBER_GOLDEN_DIR) + "/vision/datasets/voc";

// The fixtures' JPEGImages are placeholders: load their bytes.
Tensor read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  const std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return tensor(std::vector<uint8_t>(s.begin(), s.end()), kByte);
}

// torchvision's VOCDetection.parse_voc_xml: repeated tags become lists, <annotation>'s objects
// always a list, a leaf without text no key.
json to_dict(const datasets::VOCElement& e) {
  if (e.children.empty()) return e.has_text ? json{{e.tag, e.text}} : json::object();
  std::map<std::string, std::vector<json>> def;
  for (const auto& c : e.children) {
    const json d = to_dict(c);
    for (const auto& [k, v] : d.items()) def[k].push_back(v);
  }
  if (e.tag == "annotation") def["object"] = {json(def["object"])};
  json inner = json::object();
  for (auto& [k, v] : def) inner[k] = v.size() == 1 ? v[0] : json(v);
  return json{{e.tag, inner}};
}

std::vector<json> expected() {
  std::ifstream f(kRoot + "/expected_detection.jsonl");
  std::vector<json> out;
  std::string line;
  while (std::getline(f, line))
    if (!line.empty()) out.push_back(json::parse(line));
  return out;
}

TEST(VisionDatasetsVOC, DetectionTargetsMatchTorchvision) {
  const std::vector<json> exp = expected();
  ASSERT_EQ(exp.size(), 3u);
  size_t checked = 0;
  for (const std::string set : {"train", "val"}) {
    datasets::VOCDetection ds(kRoot, "2012", set, false, std::nullopt, std::nullopt, std::nullopt, read_bytes);
    for (size_t i = 0; i < *ds.size(); ++i) {
      const json& e = exp[checked++];
      ASSERT_EQ(e["image_set"], set);
      EXPECT_EQ(std::filesystem::relative(ds.annotations[i], kRoot).string(), e["annotation"].get<std::string>());
      const auto ex = ds.get(i);
      EXPECT_EQ(ex.data.numel(), static_cast<int64_t>(std::filesystem::file_size(ds.images[i])));
      EXPECT_EQ(to_dict(ex.target.root), e["target"]) << set << " " << i;
      // The typed fields are the dict's strings.
      const json& a = e["target"]["annotation"];
      EXPECT_EQ(ex.target.filename, a["filename"].get<std::string>());
      EXPECT_EQ(ex.target.size.height, a["size"]["height"].get<std::string>());
      ASSERT_EQ(ex.target.object.size(), a["object"].size());
      for (size_t k = 0; k < ex.target.object.size(); ++k) {
        const json& o = a["object"][k];
        EXPECT_EQ(ex.target.object[k].name, o["name"].get<std::string>());
        EXPECT_EQ(ex.target.object[k].bndbox.xmin, o["bndbox"]["xmin"].get<std::string>());
        EXPECT_EQ(ex.target.object[k].bndbox.ymax, o["bndbox"]["ymax"].get<std::string>());
        if (o.contains("part")) {
          const json parts = o["part"].is_array() ? o["part"] : json::array({o["part"]});
          ASSERT_EQ(ex.target.object[k].part.size(), parts.size());
          EXPECT_EQ(ex.target.object[k].part.back().bndbox.xmin, parts.back()["bndbox"]["xmin"].get<std::string>());
        }
      }
    }
  }
  EXPECT_EQ(checked, exp.size());
}

TEST(VisionDatasetsVOC, WorksWithTheDataLoader) {
  datasets::VOCDetection ds(kRoot, "2012", "train", false, std::nullopt, std::nullopt, std::nullopt, read_bytes);
  auto loader = ember::data::make_data_loader(std::move(ds), ember::data::DataLoaderOptions().batch_size(2).workers(2));
  size_t objects = 0, seen = 0;
  for (auto& batch : *loader) {
    for (const auto& ex : batch) objects += ex.target.object.size();
    seen += batch.size();
  }
  EXPECT_EQ(seen, 2u);
  EXPECT_EQ(objects, 3u);
}

TEST(VisionDatasetsVOC, TransformsApply) {
  datasets::VOCDetection ds(
      kRoot, "2012", "train", false, [](Tensor x) { return x.to(kFloat); },
      [](datasets::VOCAnnotation a) {
        a.object.pop_back();
        return a;
      },
      std::nullopt, read_bytes);
  const auto ex = ds.get(0);
  EXPECT_EQ(ex.data.scalar_type(), kFloat);
  EXPECT_EQ(ex.target.object.size(), 1u);
  datasets::VOCDetection joint(
      kRoot, "2012", "train", false, std::nullopt, std::nullopt,
      [](Tensor x, datasets::VOCAnnotation a) {
        a.filename = "joint";
        return std::tuple<Tensor, datasets::VOCAnnotation>(x.flip({0}), a);
      },
      read_bytes);
  EXPECT_EQ(joint.get(1).target.filename, "joint");
}

TEST(VisionDatasetsVOC, BadArgumentsAndFilesRaise) {
  EXPECT_EMBER_ERROR(datasets::VOCDetection(kRoot, "2013"), "VOCDetection", "2013");
  EXPECT_EMBER_ERROR(datasets::VOCDetection(kRoot, "2012", "test"), "VOCDetection", "test");
  EXPECT_EMBER_ERROR(datasets::VOCDetection(kRoot, "2012", "train", true), "VOCDetection", "download");
  EXPECT_EMBER_ERROR(datasets::VOCDetection(kRoot, "2010"), "VOCDetection", "not found");
  EXPECT_EMBER_ERROR(
      datasets::VOCDetection(
          kRoot, "2012", "train", false, [](Tensor x) { return x; }, std::nullopt,
          [](Tensor x, datasets::VOCAnnotation a) { return std::tuple<Tensor, datasets::VOCAnnotation>(x, a); }),
      "VOCDetection", "Only transforms");
  datasets::VOCDetection ds(kRoot, "2012", "train", false, std::nullopt, std::nullopt, std::nullopt, read_bytes);
  EXPECT_EMBER_ERROR(ds.get(2), "VOCDetection", "out of range");
  EXPECT_EMBER_ERROR(datasets::parse_voc_xml("<annotation><object></annotation>"), "not well-formed");
  EXPECT_EMBER_ERROR(datasets::parse_voc_xml("<annotation><a>1</a>"), "not well-formed");
  EXPECT_EMBER_ERROR(datasets::parse_voc_xml(""), "not well-formed");
  EXPECT_EMBER_ERROR(datasets::parse_voc_xml("<html></html>"), "<annotation>", "html");
  std::string deep = "<annotation>";
  for (int i = 0; i < 10000; ++i) deep += "<a>";
  EXPECT_EMBER_ERROR(datasets::parse_voc_xml(deep), "deeper than");
  // Entity expansion bombs are refused by expat (billion laughs protection) or bounded.
  const std::string bomb =
      "<?xml version=\"1.0\"?><!DOCTYPE a [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">"
      "<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">"
      "<!ENTITY e \"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\"><!ENTITY f \"&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;\">"
      "<!ENTITY g \"&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;\"><!ENTITY h \"&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;\">]>"
      "<annotation><filename>&h;</filename></annotation>";
  try {
    const datasets::VOCAnnotation a = datasets::parse_voc_xml(bomb);
    EXPECT_LE(a.filename.size(), 100000000u);
  } catch (const ember::Error& e) {
    EXPECT_NE(std::string(e.what()).find("VOCDetection"), std::string::npos);
  }
  const datasets::VOCAnnotation none = datasets::parse_voc_xml("<annotation><folder>x</folder></annotation>");
  EXPECT_TRUE(none.object.empty());
  EXPECT_EQ(to_dict(none.root), json::parse(R"({"annotation": {"folder": "x", "object": []}})"));
}

}  // namespace
