"""Golden values for tests/nn conv/pool/dropout modules: forwards with given
weights. Run: /usr/bin/python3 tools/golden/gen_conv_pool_dropout_modules.py"""
import torch
import torch.nn as nn

from golden import GoldenWriter

torch.manual_seed(0)
g = GoldenWriter("conv_pool_dropout_modules")


def conv_case(name, module, x):
    g.add(name + ".weight", module.weight)
    if module.bias is not None:
        g.add(name + ".bias", module.bias)
    g.add(name + ".x", x)
    g.add(name + ".y", module(x))


conv_case("conv2d", nn.Conv2d(2, 4, 3, padding=1), torch.randn(2, 2, 5, 6))
conv_case("conv2d_strided", nn.Conv2d(4, 6, (3, 2), stride=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2,
                                      bias=False), torch.randn(1, 4, 7, 8))
conv_case("conv2d_same", nn.Conv2d(2, 3, (3, 4), padding="same", dilation=2), torch.randn(1, 2, 9, 9))
conv_case("conv2d_reflect", nn.Conv2d(2, 3, 3, padding=2, padding_mode="reflect"), torch.randn(1, 2, 5, 5))
conv_case("conv2d_circular", nn.Conv2d(2, 3, 3, padding=1, padding_mode="circular"), torch.randn(1, 2, 5, 4))
conv_case("conv2d_replicate_same", nn.Conv2d(1, 2, 4, padding="same", padding_mode="replicate"),
          torch.randn(1, 1, 6, 6))
conv_case("conv1d", nn.Conv1d(3, 2, 3, stride=2, padding=1), torch.randn(2, 3, 9))
conv_case("conv1d_valid", nn.Conv1d(3, 2, 2, padding="valid"), torch.randn(3, 5))
conv_case("conv3d", nn.Conv3d(2, 2, (2, 3, 2), padding=(1, 0, 1)), torch.randn(1, 2, 4, 5, 3))

ct = nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, groups=2)
conv_case("conv_transpose2d", ct, torch.randn(1, 4, 3, 4))
g.add("conv_transpose2d.y_sized", ct(g_x := torch.randn(1, 4, 3, 4), output_size=[6, 8]))
g.add("conv_transpose2d.x_sized", g_x)
conv_case("conv_transpose1d", nn.ConvTranspose1d(2, 3, 2, stride=3, output_padding=1, dilation=2), torch.randn(2, 2, 4))

x = torch.randn(2, 3, 7, 6)
g.add("pool.x", x)
g.add("maxpool2d.y", nn.MaxPool2d(2)(x))
y, i = nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True, return_indices=True)(x)
g.add("maxpool2d_ceil.y", y)
g.add("maxpool2d_ceil.i", i)
g.add("avgpool2d.y", nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False)(x))
x1 = torch.randn(2, 3, 9)
g.add("pool1d.x", x1)
g.add("maxpool1d.y", nn.MaxPool1d(3, stride=2, dilation=2)(x1))
g.add("avgpool1d.y", nn.AvgPool1d(2)(x1))
x3 = torch.randn(1, 2, 4, 5, 6)
g.add("pool3d.x", x3)
g.add("maxpool3d.y", nn.MaxPool3d(2)(x3))
g.add("avgpool3d.y", nn.AvgPool3d((2, 3, 2), divisor_override=5)(x3))

g.save()
