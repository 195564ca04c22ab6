"""Golden values for ember::vision::utils's label text and keypoint connections
(tests/vision/utils_draw_test.cpp): torchvision 0.14's draw_bounding_boxes with labels rendered
by PIL's ImageFont.truetype (FreeType; DejaVuSans from fonts-dejavu-core) and draw_keypoints with
connectivity and line widths (PIL's ImageDraw.line).
Run: /usr/bin/python3 tools/golden/gen_vision_draw.py"""
import torch
import torchvision.utils
from PIL import ImageFont
from torchvision.utils import draw_bounding_boxes, draw_keypoints

from golden import GoldenWriter

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
g = GoldenWriter("vision_draw")
torch.manual_seed(0)

image = (torch.rand(3, 64, 120) * 60).to(torch.uint8)  # dark, so the text shows
g.add("in.image", image)
boxes = torch.tensor([[4, 6, 70, 40], [60, 30, 118, 62]], dtype=torch.float32)
g.add("in.boxes", boxes)



def label_cases(prefix):
    g.add(prefix + "default_size", draw_bounding_boxes(image, boxes, ["cat", "Dog 2"], colors=["red", "yellow"],
                                                       font=FONT))
    g.add(prefix + "size16_width2", draw_bounding_boxes(image, boxes, ["Wave", "jqy"], colors=[(0, 255, 0), "white"],
                                                        width=2, font=FONT, font_size=16))
    g.add(prefix + "serif_fill", draw_bounding_boxes(image, boxes, ["AVA", "fill"], fill=True, font=SERIF,
                                                     font_size=13))
    g.add(prefix + "gray_image", draw_bounding_boxes(image[:1], boxes, ["gray", "x"], colors="blue", font=FONT,
                                                     font_size=12))


# torchvision's own call: PIL lays the text out with libraqm (HarfBuzz shaping).
label_cases("labels.")
# The same with PIL's basic layout (FreeType's advances and 'kern' table, no shaping): the
# layout Ember implements, so these must match to the pixel.
_truetype = ImageFont.truetype
torchvision.utils.ImageFont.truetype = lambda font=None, size=10: _truetype(font, size,
                                                                            layout_engine=ImageFont.Layout.BASIC)
label_cases("labels_basic.")
torchvision.utils.ImageFont.truetype = _truetype

kimage = (torch.rand(3, 50, 70) * 40).to(torch.uint8)
g.add("in.kimage", kimage)
keypoints = torch.tensor([[[5, 5], [40, 12], [60, 45], [12, 40], [30, 28]],
                          [[66, 3], [50, 20], [35, 8], [3, 30], [20, 47]]], dtype=torch.float32)
g.add("in.keypoints", keypoints)
connect = [(0, 1), (1, 2), (2, 3), (3, 0), (0, 4), (4, 2)]
for width in (1, 2, 3, 5):
    g.add("keypoints.width%d" % width, draw_keypoints(kimage, keypoints, connect, colors=None, width=width))
g.add("keypoints.dots_r3", draw_keypoints(kimage, keypoints, connect, colors="red", radius=3, width=2))
for radius in (0, 1, 2, 4, 5, 6, 7, 8, 10, 12, 15):
    g.add("keypoints.dots_only_r%d" % radius, draw_keypoints(kimage, keypoints, colors=(10, 200, 30), radius=radius))
g.save()
