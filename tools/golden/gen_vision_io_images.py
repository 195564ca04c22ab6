"""Test images and golden values for ember::vision::io's image codecs (tests/vision/io_*.cpp).

Writes small PNG / JPEG / WebP files under tests/golden/vision/io/ (valid ones of every kind the
decoders claim, and hostile ones: truncated, lying headers, bad checksums) and, in
tests/golden/vision_io_images.golden, what Debian's torchvision 0.14 decodes from them in every
ImageReadMode, and the bytes its encoders produce.

PNG files are assembled here chunk by chunk (zlib for IDAT), so every colour type, bit depth,
tRNS and Adam7 case is covered exactly; JPEG and WebP come from PIL (libjpeg-turbo, libwebp).

Where torchvision 0.14 reads uninitialised memory (palette images of 1/2/4 bits in UNCHANGED mode;
palette images without tRNS in GRAY_ALPHA / RGB_ALPHA), the expected value is the intended one,
computed from PIL: the palette indices, or the converted image with an opaque alpha channel.
WebP (not in torchvision 0.14) is expected to equal PIL's decode through libwebp.
Run with Debian's /usr/bin/python3.
"""
import io as pyio
import os
import struct
import zlib

import numpy as np
import torch
import torchvision.io as tvio
from PIL import Image

from golden import GOLDEN_DIR, GoldenWriter

OUT = os.path.join(GOLDEN_DIR, "vision", "io")
MODES = list(tvio.ImageReadMode)


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pack_row(values, bits):
    """Packs one row of samples (ints) MSB first at `bits` bits each."""
    if bits == 8:
        return bytes(values)
    if bits == 16:
        return b"".join(struct.pack(">H", v) for v in values)
    out, acc, n = bytearray(), 0, 0
    for v in values:
        acc = (acc << bits) | v
        n += bits
        if n == 8:
            out.append(acc)
            acc, n = 0, 0
    if n:
        out.append(acc << (8 - n))
    return bytes(out)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def make_png(samples, bits, color_type, palette=None, trns=None, interlace=False, level=6):
    """The bytes of a PNG of samples [H, W, C] (ints), every row with filter type 0 (pil_rgb.png,
    written by PIL with optimize=True, covers the other filters)."""
    h, w, c = samples.shape
    raw = bytearray()

    def rows_of(img):
        for y in range(img.shape[0]):
            raw.append(0)
            raw.extend(pack_row([int(v) for v in img[y].reshape(-1)], bits))

    if interlace:
        for x0, y0, dx, dy in ADAM7:
            sub = samples[y0::dy, x0::dx]
            if sub.shape[0] and sub.shape[1]:
                rows_of(sub)
    else:
        rows_of(samples)
    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, bits, color_type, 0, 0, 1 if interlace else 0))
    if palette is not None:
        png += chunk(b"PLTE", bytes(np.asarray(palette, dtype=np.uint8).reshape(-1)))
    if trns is not None:
        png += chunk(b"tRNS", trns)
    png += chunk(b"IDAT", zlib.compress(bytes(raw), level))
    png += chunk(b"IEND", b"")
    return png


def save(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
    return data


def decode_all(g, prefix, data, decoder, modes, fallback=None):
    t = torch.frombuffer(bytearray(data), dtype=torch.uint8)
    for m in modes:
        key = "%s.%s" % (prefix, m.name)
        if fallback is not None and m in fallback:
            g.add(key, fallback[m])
            continue
        try:
            out = decoder(t, m)
        except RuntimeError:
            continue  # the test expects an error for a missing entry
        g.add(key, out)


def png_cases(g, rng):
    h, w = 7, 11
    cases = {}
    for bits in (1, 2, 4, 8, 16):
        cases["gray%d" % bits] = (rng.integers(0, 1 << bits, (h, w, 1)), bits, 0, None, None)
    cases["gray8_trns"] = (rng.integers(0, 256, (h, w, 1)), 8, 0, None, struct.pack(">H", 17))
    cases["graya8"] = (rng.integers(0, 256, (h, w, 2)), 8, 4, None, None)
    cases["graya16"] = (rng.integers(0, 65536, (h, w, 2)), 16, 4, None, None)
    cases["rgb8"] = (rng.integers(0, 256, (h, w, 3)), 8, 2, None, None)
    cases["rgb16"] = (rng.integers(0, 65536, (h, w, 3)), 16, 2, None, None)
    cases["rgb8_trns"] = (rng.integers(0, 256, (h, w, 3)), 8, 2, None, struct.pack(">HHH", 1, 2, 3))
    cases["rgba8"] = (rng.integers(0, 256, (h, w, 4)), 8, 6, None, None)
    cases["rgba16"] = (rng.integers(0, 65536, (h, w, 4)), 16, 6, None, None)
    for bits in (1, 2, 4, 8):
        n = 1 << bits if bits < 8 else 40
        pal = rng.integers(0, 256, (n, 3))
        cases["palette%d" % bits] = (rng.integers(0, n, (h, w, 1)), bits, 3, pal, None)
        trns = bytes(rng.integers(0, 256, n - 1 if n > 2 else 1).astype(np.uint8))
        cases["palette%d_trns" % bits] = (rng.integers(0, n, (h, w, 1)), bits, 3, pal, trns)
    cases["rgb8_adam7"] = (rng.integers(0, 256, (h, w, 3)), 8, 2, None, None, True)
    cases["gray2_adam7"] = (rng.integers(0, 4, (h, w, 1)), 2, 0, None, None, True)
    cases["palette4_adam7"] = (rng.integers(0, 16, (h, w, 1)), 4, 3, rng.integers(0, 256, (16, 3)), None, True)

    def decode16(t, m):
        return torch.ops.image.decode_png(t, m.value, True)

    for name, spec in cases.items():
        samples, bits, ct, pal, trns = spec[:5]
        interlace = len(spec) > 5
        data = save(name + ".png", make_png(samples, bits, ct, pal, trns, interlace))
        fallback = {}
        if ct == 3:
            im = Image.open(pyio.BytesIO(data))
            idx = torch.from_numpy(np.array(im, dtype=np.uint8))[None]
            if bits < 8:
                fallback[tvio.ImageReadMode.UNCHANGED] = idx
            if trns is None:
                rgb = torch.from_numpy(np.array(im.convert("RGB"))).permute(2, 0, 1)
                opaque = torch.full((1, h, w), 255, dtype=torch.uint8)
                gray = tvio.decode_png(torch.frombuffer(bytearray(data), dtype=torch.uint8), tvio.ImageReadMode.GRAY)
                fallback[tvio.ImageReadMode.RGB_ALPHA] = torch.cat([rgb, opaque])
                fallback[tvio.ImageReadMode.GRAY_ALPHA] = torch.cat([gray, opaque])
        if bits == 16:
            decode_all(g, "png16." + name, data, decode16, MODES)
        else:
            decode_all(g, "png." + name, data, tvio.decode_png, MODES, fallback)
    # A PIL-written file (its own zlib settings and filters) read through decode_image.
    buf = pyio.BytesIO()
    Image.fromarray(rng.integers(0, 256, (23, 17, 3)).astype(np.uint8)).save(buf, "PNG", optimize=True)
    data = save("pil_rgb.png", buf.getvalue())
    decode_all(g, "png.pil_rgb", data, tvio.decode_image, MODES)

    # Hostile PNGs; the tests expect each to raise.
    rgb = open(os.path.join(OUT, "rgb8.png"), "rb").read()
    save("bad_truncated.png", rgb[: len(rgb) // 2])
    save("bad_no_iend.png", rgb[:-12])
    corrupt = bytearray(rgb)
    corrupt[rgb.index(b"IDAT") + 10] ^= 0xFF
    save("bad_idat_crc.png", bytes(corrupt))
    huge = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 100000, 100000, 8, 2, 0, 0, 0))
    huge += chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b"")
    save("bad_huge.png", huge)
    save("bad_zero_width.png", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 0, 5, 8, 2, 0, 0, 0)))
    save("bad_depth.png", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 3, 2, 0, 0, 0)))
    save("bad_no_idat.png", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0))
         + chunk(b"IEND", b""))
    # IDAT holding fewer rows than IHDR declares.
    few = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 11, 9, 8, 2, 0, 0, 0))
    few += chunk(b"IDAT", zlib.compress(b"\x00" + b"\x01" * 33)) + chunk(b"IEND", b"")
    save("bad_short_idat.png", few)


def jpeg_cases(g, rng):
    h, w = 29, 37
    yy, xx = np.mgrid[0:h, 0:w]
    rgb = np.stack([(xx * 7) % 256, (yy * 9) % 256, ((xx + yy) * 5) % 256], -1).astype(np.uint8)
    rgb = np.clip(rgb.astype(int) + rng.integers(-20, 20, rgb.shape), 0, 255).astype(np.uint8)
    im = Image.fromarray(rgb)
    specs = {
        "baseline420": dict(quality=90, subsampling=2),
        "baseline422": dict(quality=85, subsampling=1),
        "baseline444": dict(quality=95, subsampling=0),
        "progressive": dict(quality=80, progressive=True),
        "optimized": dict(quality=70, optimize=True),
    }
    for name, kw in specs.items():
        buf = pyio.BytesIO()
        im.save(buf, "JPEG", **kw)
        data = save(name + ".jpg", buf.getvalue())
        decode_all(g, "jpeg." + name, data, tvio.decode_jpeg, MODES)
    buf = pyio.BytesIO()
    im.convert("L").save(buf, "JPEG", quality=90)
    data = save("gray.jpg", buf.getvalue())
    decode_all(g, "jpeg.gray", data, tvio.decode_jpeg, MODES)
    buf = pyio.BytesIO()
    im.convert("CMYK").save(buf, "JPEG", quality=90)
    data = save("cmyk.jpg", buf.getvalue())
    decode_all(g, "jpeg.cmyk", data, tvio.decode_jpeg, MODES)
    decode_all(g, "jpeg.baseline420_image", open(os.path.join(OUT, "baseline420.jpg"), "rb").read(),
               tvio.decode_image, MODES)

    base = open(os.path.join(OUT, "baseline420.jpg"), "rb").read()
    save("bad_truncated.jpg", base[: len(base) * 2 // 3])
    save("bad_header_only.jpg", base[:200])
    sof = base.index(b"\xff\xc0")
    huge = bytearray(base[: base.index(b"\xff\xda") + 40])  # the headers and a little scan data
    huge[sof + 5: sof + 9] = struct.pack(">HH", 65000, 65000)
    save("bad_huge.jpg", bytes(huge))
    save("bad_garbage.jpg", b"\xff\xd8\xff" + bytes(rng.integers(0, 256, 300).astype(np.uint8)))


def encoder_cases(g, rng):
    yy, xx = np.mgrid[0:19, 0:23]
    img = np.stack([(xx * 11) % 256, (yy * 13) % 256, (xx * yy) % 256]).astype(np.uint8)
    img = torch.from_numpy(img)
    gray = img[:1].clone()
    g.add("enc.rgb", img)
    g.add("enc.gray", gray)
    for level in (0, 1, 6, 9):
        g.add("enc.png_rgb_%d" % level, tvio.encode_png(img, level))
        g.add("enc.png_gray_%d" % level, tvio.encode_png(gray, level))
    for q in (1, 10, 75, 95, 100):
        g.add("enc.jpeg_rgb_%d" % q, tvio.encode_jpeg(img, q))
        g.add("enc.jpeg_gray_%d" % q, tvio.encode_jpeg(gray, q))


def webp_cases(g, rng):
    h, w = 13, 17
    rgba = rng.integers(0, 256, (h, w, 4)).astype(np.uint8)
    for name, kw, arr in (("lossless_rgba", dict(lossless=True), rgba),
                          ("lossy_rgb", dict(quality=80), np.ascontiguousarray(rgba[..., :3])),
                          ("lossless_rgb", dict(lossless=True), np.ascontiguousarray(rgba[..., :3]))):
        buf = pyio.BytesIO()
        Image.fromarray(arr).save(buf, "WEBP", **kw)
        data = save(name + ".webp", buf.getvalue())
        im = Image.open(pyio.BytesIO(data))
        im.load()
        has_alpha = im.mode == "RGBA"
        rgb_out = torch.from_numpy(np.array(im.convert("RGB"))).permute(2, 0, 1)
        rgba_out = torch.from_numpy(np.array(im.convert("RGBA"))).permute(2, 0, 1)
        g.add("webp.%s.UNCHANGED" % name, rgba_out if has_alpha else rgb_out)
        g.add("webp.%s.RGB" % name, rgb_out)
        g.add("webp.%s.RGB_ALPHA" % name, rgba_out)
    data = open(os.path.join(OUT, "lossy_rgb.webp"), "rb").read()
    save("bad_truncated.webp", data[: len(data) // 2])


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(35)
    g = GoldenWriter("vision_io_images")
    png_cases(g, rng)
    jpeg_cases(g, rng)
    encoder_cases(g, rng)
    webp_cases(g, rng)
    g.save()


if __name__ == "__main__":
    main()
