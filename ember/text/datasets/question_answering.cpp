#include "ember/text/datasets/question_answering.h"

#include <nlohmann/json.hpp>

#include "ember/core/error.h"
#include "ember/text/datasets/file_reading.h"
#include "ember/text/datasets/splits.h"

namespace torch::text::datasets {

namespace {

using nlohmann::json;

// nlohmann's parser recurses per nesting level; a hostile file could exhaust the
// stack, so the depth is checked first (SQuAD needs 6 levels).
constexpr int kMaxDepth = 64;

void check_depth(std::string_view text, const char* name, const std::string& path) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      EMBER_CHECK(++depth <= kMaxDepth, name, ": ", path, ": JSON nested deeper than ", kMaxDepth, " levels");
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

const json& member(const json& object, const char* key, const char* name, const std::string& path) {
  EMBER_CHECK(object.is_object() && object.contains(key), name, ": ", path, ": missing key '", key, "'");
  return object[key];
}

const json& array_member(const json& object, const char* key, const char* name, const std::string& path) {
  const json& v = member(object, key, name, path);
  EMBER_CHECK(v.is_array(), name, ": ", path, ": '", key, "' is not a list");
  return v;
}

std::string string_member(const json& object, const char* key, const char* name, const std::string& path) {
  const json& v = member(object, key, name, path);
  EMBER_CHECK(v.is_string(), name, ": ", path, ": '", key, "' is not a string");
  return v.get<std::string>();
}

TextDataset<SQuADRow> read_squad(const char* name, const std::string& split, const std::string& path) {
  const std::string text = detail::read_text_file(path, name);
  check_depth(text, name, path);
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    EMBER_CHECK(false, name, ": ", path, ": invalid JSON: ", e.what());
  }
  std::vector<SQuADRow> rows;
  for (const json& article : array_member(doc, "data", name, path)) {
    for (const json& paragraph : array_member(article, "paragraphs", name, path)) {
      for (const json& qa : array_member(paragraph, "qas", name, path)) {
        std::string context = string_member(paragraph, "context", name, path);
        std::string question = string_member(qa, "question", name, path);
        std::vector<std::string> answers;
        std::vector<int64_t> starts;
        for (const json& answer : array_member(qa, "answers", name, path)) {
          answers.push_back(string_member(answer, "text", name, path));
          const json& start = member(answer, "answer_start", name, path);
          EMBER_CHECK(start.is_number_integer(), name, ": ", path, ": 'answer_start' is not an integer");
          starts.push_back(start.get<int64_t>());
        }
        if (answers.empty()) {
          answers = {""};
          starts = {-1};
        }
        rows.emplace_back(std::move(context), std::move(question), std::move(answers), std::move(starts));
      }
    }
  }
  return TextDataset<SQuADRow>(name, split, std::move(rows));
}

}  // namespace

TextDataset<SQuADRow> SQuAD1(const std::string& root, const std::string& split) {
  detail::check_split("SQuAD1", split, {"train", "dev"});
  return read_squad("SQuAD1", split, detail::dataset_dir(root, "SQuAD1") + "/" + split + "-v1.1.json");
}

TextDataset<SQuADRow> SQuAD2(const std::string& root, const std::string& split) {
  detail::check_split("SQuAD2", split, {"train", "dev"});
  return read_squad("SQuAD2", split, detail::dataset_dir(root, "SQuAD2") + "/" + split + "-v2.0.json");
}

std::tuple<TextDataset<SQuADRow>, TextDataset<SQuADRow>> SQuAD1(const std::string& root) {
  return {SQuAD1(root, std::string("train")), SQuAD1(root, std::string("dev"))};
}

std::tuple<TextDataset<SQuADRow>, TextDataset<SQuADRow>> SQuAD2(const std::string& root) {
  return {SQuAD2(root, std::string("train")), SQuAD2(root, std::string("dev"))};
}

}  // namespace torch::text::datasets
