"""Golden values for tests/vision/utils_test.cpp: torchvision 0.14's
make_grid, draw_bounding_boxes, draw_segmentation_masks and draw_keypoints on
seeded inputs. Run: /usr/bin/python3 tools/golden/gen_vision_ops_utils.py"""
import os
import sys

import torch
from torchvision import utils

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402

torch.manual_seed(0)
g = GoldenWriter("vision_ops_utils")

batch = torch.randn(5, 3, 4, 6)
g.add("grid.x", batch)
g.add("grid.default", utils.make_grid(batch))
g.add("grid.nrow2_pad1", utils.make_grid(batch, nrow=2, padding=1, pad_value=0.5))
g.add("grid.normalize", utils.make_grid(batch, nrow=3, normalize=True))
g.add("grid.normalize_range", utils.make_grid(batch, normalize=True, value_range=(-1, 1)))
g.add("grid.scale_each", utils.make_grid(batch, normalize=True, scale_each=True))
gray = torch.rand(3, 1, 4, 4)
g.add("grid.gray.x", gray)
g.add("grid.gray", utils.make_grid(gray, nrow=2))
g.add("grid.single", utils.make_grid(batch[0]))

img = torch.randint(0, 256, (3, 20, 30), dtype=torch.uint8)
boxes = torch.tensor([[2, 3, 12, 15], [8.7, 1.2, 25.9, 9.5], [20, 10, 40, 30], [5, 5, 5, 5]])
g.add("draw.image", img)
g.add("draw.boxes", boxes)
g.add("boxes.default", utils.draw_bounding_boxes(img, boxes))
g.add("boxes.colors_width2", utils.draw_bounding_boxes(img, boxes, colors=["red", (0, 255, 0), "#0000ff", "gold"],
                                                      width=2))
g.add("boxes.fill", utils.draw_bounding_boxes(img, boxes, colors="orange", fill=True, width=1))
g.add("boxes.fill_palette", utils.draw_bounding_boxes(img, boxes, fill=True, width=3))
gimg = img[:1]
g.add("boxes.gray", utils.draw_bounding_boxes(gimg, boxes, colors="white"))

masks = torch.rand(3, 20, 30) > 0.6
g.add("masks.masks", masks)
g.add("masks.default", utils.draw_segmentation_masks(img, masks))
g.add("masks.colors", utils.draw_segmentation_masks(img, masks, alpha=0.35, colors=["teal", (10, 20, 30), "#abc"]))
g.add("masks.single", utils.draw_segmentation_masks(img, masks[0], alpha=1.0, colors="red"))

kpts = torch.tensor([[[3.0, 4.0], [15.0, 10.0], [25.0, 16.0]], [[10.0, 15.0], [20.0, 3.0], [2.0, 18.0]]])
g.add("keypoints.kpts", kpts)
g.add("keypoints.dots", utils.draw_keypoints(img, kpts, colors="red", radius=2))
g.add("keypoints.lines", utils.draw_keypoints(img, kpts, connectivity=[(0, 1), (1, 2)], colors="blue", radius=1,
                                              width=3))
flow = torch.randn(2, 2, 5, 7) * 3
g.add("flow.x", flow)
g.add("flow.y", utils.flow_to_image(flow))
g.add("flow.single", utils.flow_to_image(flow[1]))
g.save()
