#pragma once
// The target of torchvision.datasets.VOCDetection: torchvision turns each
// annotation XML into a nested dict of strings (VOCDetection.parse_voc_xml);
// here it is a tree of VOCElement (every tag, in file order, as parsed) and,
// read from it, the typed structs of the fields VOC files have. Values stay the
// strings torchvision returns ("48", "0", "Unspecified"); a field a file lacks
// is empty, as a missing dict key.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace torch::vision::datasets {

// One XML element: its stripped text when it is a leaf (has_text false when it
// had no character data at all: torchvision then drops its key), else its children.
struct VOCElement {
  std::string tag;
  std::string text;
  bool has_text = false;
  std::vector<VOCElement> children;

  // The first child with this tag, or nullptr.
  const VOCElement* find(const std::string& child_tag) const;
  // Every child with this tag, in order.
  std::vector<const VOCElement*> find_all(const std::string& child_tag) const;
  // The text of the first child with this tag ("" when absent).
  std::string child_text(const std::string& child_tag) const;
};

struct VOCBndBox {
  std::string xmin, ymin, xmax, ymax;
};

struct VOCPart {
  std::string name;
  VOCBndBox bndbox;
};

struct VOCObject {
  std::string name, pose, truncated, difficult, occluded;
  VOCBndBox bndbox;
  std::vector<VOCPart> part;
};

struct VOCSize {
  std::string width, height, depth;
};

struct VOCSource {
  std::string database, annotation, image;
};

// torchvision's target["annotation"].
struct VOCAnnotation {
  std::string folder, filename, segmented;
  VOCSource source;
  VOCSize size;
  std::vector<VOCObject> object;  // always a list, as torchvision makes it
  VOCElement root;                // the whole <annotation> element
};

// Parses an annotation file's bytes with expat; raises naming `what` (the
// file) on malformed XML, a root other than <annotation>, or nesting deeper than 64.
VOCAnnotation parse_voc_xml(const std::string& bytes, const std::string& what = "annotation");

}  // namespace torch::vision::datasets
