// VOC annotation XML through expat: a SAX pass builds the element tree
// (iteratively, with a depth bound, so hostile nesting cannot exhaust the
// stack), then the typed fields are read from it.
#include "ember/vision/datasets/voc_annotation.h"

#include <expat.h>

#include <memory>

#include "ember/core/error.h"

namespace torch::vision::datasets {

namespace {

constexpr size_t kMaxDepth = 64;

struct ParserDeleter {
  void operator()(XML_ParserStruct* p) const { XML_ParserFree(p); }
};
using Parser = std::unique_ptr<XML_ParserStruct, ParserDeleter>;

// The parse state expat's callbacks fill in.
struct Builder {
  XML_Parser parser = nullptr;
  VOCElement root;
  std::vector<VOCElement*> stack;     // open elements; stack[0] is &root once opened
  std::vector<std::string> raw_text;  // character data per open element, before its first child
  bool started = false;
  std::string error;
};

std::string strip(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n\f\v"), e = s.find_last_not_of(" \t\r\n\f\v");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

void XMLCALL on_start(void* data, const XML_Char* name, const XML_Char** /*attrs*/) {
  auto* b = static_cast<Builder*>(data);
  if (b->stack.size() >= kMaxDepth) {
    b->error = "elements nest deeper than " + std::to_string(kMaxDepth);
    XML_StopParser(b->parser, XML_FALSE);
    return;
  }
  VOCElement* el = nullptr;
  if (b->stack.empty()) {
    if (b->started) return;  // expat rejects a second root itself
    b->started = true;
    el = &b->root;
  } else {
    b->stack.back()->children.emplace_back();
    el = &b->stack.back()->children.back();
  }
  el->tag = name;
  b->stack.push_back(el);
  b->raw_text.emplace_back();
}

void XMLCALL on_end(void* data, const XML_Char* /*name*/) {
  auto* b = static_cast<Builder*>(data);
  if (b->stack.empty()) return;
  VOCElement* el = b->stack.back();
  // ElementTree's node.text is the data before the first child; torchvision keeps it for leaves only.
  if (el->children.empty() && el->has_text) el->text = strip(b->raw_text.back());
  b->stack.pop_back();
  b->raw_text.pop_back();
}

void XMLCALL on_text(void* data, const XML_Char* s, int len) {
  auto* b = static_cast<Builder*>(data);
  if (b->stack.empty() || len <= 0) return;
  VOCElement* el = b->stack.back();
  if (!el->children.empty()) return;  // tail text of a child: not this element's text
  el->has_text = true;
  b->raw_text.back().append(s, static_cast<size_t>(len));
}

VOCBndBox read_bndbox(const VOCElement* e) {
  if (!e) return {};
  return {e->child_text("xmin"), e->child_text("ymin"), e->child_text("xmax"), e->child_text("ymax")};
}

}  // namespace

const VOCElement* VOCElement::find(const std::string& child_tag) const {
  for (const auto& c : children)
    if (c.tag == child_tag) return &c;
  return nullptr;
}

std::vector<const VOCElement*> VOCElement::find_all(const std::string& child_tag) const {
  std::vector<const VOCElement*> out;
  for (const auto& c : children)
    if (c.tag == child_tag) out.push_back(&c);
  return out;
}

std::string VOCElement::child_text(const std::string& child_tag) const {
  const VOCElement* c = find(child_tag);
  return c ? c->text : std::string();
}

VOCAnnotation parse_voc_xml(const std::string& bytes, const std::string& what) {
  Parser parser(XML_ParserCreate(nullptr));
  EMBER_CHECK(parser != nullptr, "VOCDetection: cannot create an XML parser");
  Builder b;
  b.parser = parser.get();
  XML_SetUserData(parser.get(), &b);
  XML_SetElementHandler(parser.get(), on_start, on_end);
  XML_SetCharacterDataHandler(parser.get(), on_text);
  EMBER_CHECK(bytes.size() <= static_cast<size_t>(INT32_MAX), "VOCDetection: ", what, " is too large (", bytes.size(),
              " bytes)");
  const XML_Status status = XML_Parse(parser.get(), bytes.data(), static_cast<int>(bytes.size()), XML_TRUE);
  EMBER_CHECK(b.error.empty(), "VOCDetection: ", what, ": ", b.error);
  EMBER_CHECK(status == XML_STATUS_OK, "VOCDetection: ", what, " is not well-formed XML (",
              XML_ErrorString(XML_GetErrorCode(parser.get())), " at line ", XML_GetCurrentLineNumber(parser.get()),
              ")");
  EMBER_CHECK(b.root.tag == "annotation", "VOCDetection: ", what, ": expected an <annotation> root element, got <",
              b.root.tag, ">");
  VOCAnnotation a;
  a.folder = b.root.child_text("folder");
  a.filename = b.root.child_text("filename");
  a.segmented = b.root.child_text("segmented");
  if (const VOCElement* s = b.root.find("source"))
    a.source = {s->child_text("database"), s->child_text("annotation"), s->child_text("image")};
  if (const VOCElement* s = b.root.find("size"))
    a.size = {s->child_text("width"), s->child_text("height"), s->child_text("depth")};
  for (const VOCElement* o : b.root.find_all("object")) {
    VOCObject obj{o->child_text("name"),
                  o->child_text("pose"),
                  o->child_text("truncated"),
                  o->child_text("difficult"),
                  o->child_text("occluded"),
                  read_bndbox(o->find("bndbox")),
                  {}};
    for (const VOCElement* p : o->find_all("part"))
      obj.part.push_back({p->child_text("name"), read_bndbox(p->find("bndbox"))});
    a.object.push_back(std::move(obj));
  }
  a.root = std::move(b.root);
  return a;
}

}  // namespace torch::vision::datasets
