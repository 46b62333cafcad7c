#!/usr/bin/python3
"""Generate firelab's particle textures procedurally.

    scripts/make_textures.py [--out DIR]

Writes flame.png, smoke.png, spark.png, ember.png, ring.png, flame_atlas.png and gaussian.png (8-bit RGBA, straight
alpha) into DIR, by default the repository's textures/ folder next to this
script's folder. Everything comes from seeded gradient noise built with numpy and a
small PNG writer built on zlib, so running it again gives byte-identical files.

RGB is kept near white / grey everywhere, including where alpha is 0, so that the
renderer's particle colour tints it and bilinear filtering of straight alpha does
not pull dark fringes in from transparent texels. Alpha carries the shape and is
exactly 0 on the border texels of every sprite (and of every atlas frame).
"""

import argparse
import os
import struct
import sys
import zlib

import numpy as np

SEED = 1234

# ---------------------------------------------------------------------------
# PNG writer
# ---------------------------------------------------------------------------


def _png_chunk(kind, data):
    chunk = kind + data
    return struct.pack(">I", len(data)) + chunk + struct.pack(">I", zlib.crc32(chunk) & 0xFFFFFFFF)


def write_png(path, rgba):
    """Write an (H, W, 4) uint8 array as an 8-bit RGBA PNG.

    Every row uses the 'Sub' filter (each byte minus the same channel of the
    pixel to its left), which compresses smooth gradients well, and the output
    depends only on the pixels, so the bytes are reproducible.
    """
    rgba = np.ascontiguousarray(rgba, dtype=np.uint8)
    height, width, channels = rgba.shape
    assert channels == 4
    rows = rgba.reshape(height, width * 4).astype(np.int16)
    filtered = rows.copy()
    filtered[:, 4:] = rows[:, 4:] - rows[:, :-4]
    filtered = (filtered & 0xFF).astype(np.uint8)
    raw = np.concatenate([np.ones((height, 1), np.uint8), filtered], axis=1)  # filter type 1 = Sub
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    data = (b"\x89PNG\r\n\x1a\n"
            + _png_chunk(b"IHDR", ihdr)
            + _png_chunk(b"IDAT", zlib.compress(raw.tobytes(), 9))
            + _png_chunk(b"IEND", b""))
    with open(path, "wb") as f:
        f.write(data)
    return len(data)


def to_rgba8(rgb, alpha):
    """Float RGB (H, W, 3) and alpha (H, W) in [0, 1] -> uint8 (H, W, 4)."""
    out = np.concatenate([rgb, alpha[..., None]], axis=-1)
    return np.round(np.clip(out, 0.0, 1.0) * 255.0).astype(np.uint8)


# ---------------------------------------------------------------------------
# Noise
# ---------------------------------------------------------------------------

_rng = np.random.RandomState(SEED)
_PERM = _rng.permutation(256).astype(np.int64)
_GRADIENTS = {}  # dimension -> (256, dims) random unit vectors


def _gradients(dims):
    if dims not in _GRADIENTS:
        g = np.random.RandomState(SEED + dims).normal(size=(256, dims))
        _GRADIENTS[dims] = g / np.linalg.norm(g, axis=1, keepdims=True)
    return _GRADIENTS[dims]


def noise(coords, seed=0, period=None):
    """Smooth N-dimensional gradient (Perlin-style) noise, roughly in [0, 1], mean 0.5.

    coords: list of equally shaped float arrays, one per dimension.
    seed:   small int that picks an independent noise field.
    period: optional list (None or an int per dimension): the noise repeats
            every `period` lattice cells along that dimension.
    """
    dims = len(coords)
    grads = _gradients(dims)
    base, offs, fade = [], [], []
    for c in coords:
        f = np.floor(c)
        base.append(f.astype(np.int64))
        t = c - f
        offs.append(t)
        fade.append(t * t * t * (t * (t * 6.0 - 15.0) + 10.0))  # quintic fade
    result = np.zeros(np.shape(coords[0]))
    for corner in range(1 << dims):
        h = np.full(np.shape(coords[0]), seed & 255, dtype=np.int64)
        weight = np.ones(np.shape(coords[0]))
        dot = np.zeros(np.shape(coords[0]))
        for d in range(dims):
            bit = (corner >> d) & 1
            i = base[d] + bit
            if period is not None and period[d]:
                i = np.mod(i, period[d])
            h = _PERM[(h + i) & 255]
            weight = weight * (fade[d] if bit else 1.0 - fade[d])
        g = grads[h]
        for d in range(dims):
            dot += g[..., d] * (offs[d] - ((corner >> d) & 1))
        result += weight * dot
    return 0.5 + result * (0.9 + 0.25 * dims) / 2.0


def fbm(coords, octaves=5, lacunarity=2.0, gain=0.5, seed=0, period=None, billow=False,
        rotate=False):
    """Fractal sum of gradient noise, normalised to [0, 1].

    billow=True folds each octave (|2n - 1|), which gives puffy, cloud-like
    structure for smoke. With a period, lacunarity must be an integer so every
    octave still repeats. rotate=True turns the first two dimensions by a
    different angle at each octave, which hides the lattice's axis-aligned look
    (not usable together with a period).
    """
    assert not (rotate and period is not None)
    total = np.zeros(np.shape(coords[0]))
    amp, norm, freq = 1.0, 0.0, 1.0
    for o in range(octaves):
        p = None
        if period is not None:
            p = [int(round(q * freq)) if q else None for q in period]
        cs = list(coords)
        if rotate:
            a = 0.9 + 1.7 * o
            cs[0], cs[1] = (np.cos(a) * coords[0] - np.sin(a) * coords[1],
                            np.sin(a) * coords[0] + np.cos(a) * coords[1])
        n = noise([c * freq for c in cs], seed=seed + 37 * o, period=p)
        if billow:
            n = np.abs(2.0 * n - 1.0)
        total += amp * n
        norm += amp
        amp *= gain
        freq *= lacunarity
    return total / norm


# ---------------------------------------------------------------------------
# Shared helpers
# ---------------------------------------------------------------------------


def smoothstep(e0, e1, x):
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


def grid(width, height):
    """Texel-centre coordinates: x in [-1, 1] left to right, y in [-1, 1] bottom to top."""
    x = (np.arange(width) + 0.5) / width * 2.0 - 1.0
    y = 1.0 - (np.arange(height) + 0.5) / height * 2.0
    return np.meshgrid(x, y)


def border_window(width, height, margin):
    """1 inside, easing to exactly 0 on the outermost texels (margin in texels)."""
    ix = np.minimum(np.arange(width), np.arange(width)[::-1])
    iy = np.minimum(np.arange(height), np.arange(height)[::-1])
    dist = np.minimum(ix[None, :], iy[:, None]).astype(float)
    return smoothstep(0.0, margin, dist)


# ---------------------------------------------------------------------------
# Textures
# ---------------------------------------------------------------------------


def flame_frame(size, phase=None, seed=0):
    """One flame sprite as (rgb, alpha).

    phase: None for a still sprite, else an angle in [0, 2*pi) -- the noise is
    sampled on a circle in two extra dimensions and scrolled upward by exactly
    one noise period per turn, so phase 2*pi gives the same image as phase 0.
    """
    x, y = grid(size, size)
    rise_period = 2  # y-period of the base octave, in lattice cells
    if phase is None:
        ring = [np.zeros_like(x) + 0.37, np.zeros_like(x) + 0.81]
        scroll = 0.0
    else:
        r = 0.45
        ring = [np.full_like(x, r * np.cos(phase)), np.full_like(x, r * np.sin(phase))]
        scroll = rise_period * phase / (2.0 * np.pi)
    period = [None, rise_period, None, None]

    def flame_noise(fx, fy, s, octaves=5):
        # fx, fy in base-octave lattice units; fy scrolls downward so features rise.
        return fbm([fx, fy - scroll] + ring, octaves=octaves, seed=seed + s, period=period)

    base_y, tip_y = -0.84, 0.86
    height = np.clip((y - base_y) / (tip_y - base_y), 0.0, 1.0)  # 0 at the base, 1 at the tip

    # Domain warp: sideways licking that grows towards the tip.
    wx = flame_noise(x * 1.4, y * 1.1, 11) - 0.5
    wy = flame_noise(x * 1.4 + 5.3, y * 1.1, 23) - 0.5
    sx = x + wx * (0.1 + 0.9 * height ** 1.5)
    sy = y + wy * 0.22

    # Teardrop: half-width sqrt(h) * (1 - h) gives a round base and a pointed tip.
    h = (sy - base_y) / (tip_y - base_y)
    hc = np.clip(h, 0.0, 1.0)
    half_w = 0.6 / 0.385 * np.sqrt(hc) * (1.0 - hc) ** 1.1 + 1e-4
    across = np.abs(sx) / half_w
    body = smoothstep(1.0, 0.0, across) ** 1.3 * smoothstep(0.0, 0.1, h) * smoothstep(1.0, 0.8, h)

    # Wisps: fractal noise eats into the upper part and splits it into tongues;
    # the core near the base stays solid.
    wisp = flame_noise(x * 3.6, y * 1.3, 47, octaves=5)  # stretched vertically: tongues
    keep = 1.0 - smoothstep(0.1, 0.7, hc)  # how much of the body survives erosion
    erode = keep + (1.0 - keep) * smoothstep(0.35, 0.75, wisp + 0.25 * body)
    alpha = body * erode * (1.0 - 0.4 * hc)
    alpha = np.clip(alpha * 1.15, 0.0, 1.0) * border_window(size, size, size * 0.06)

    core = smoothstep(0.15, 0.9, body)
    rgb = np.stack([np.ones_like(core),
                    0.90 + 0.10 * core,
                    0.80 + 0.20 * core], axis=-1)  # warm white, pure white at the core
    return rgb, alpha


def make_flame(size=128):
    return to_rgba8(*flame_frame(size, phase=None, seed=0))


def make_flame_atlas(frame=128, cols=4, rows=4):
    out = np.zeros((rows * frame, cols * frame, 4), np.uint8)
    count = cols * rows
    for k in range(count):
        img = to_rgba8(*flame_frame(frame, phase=2.0 * np.pi * k / count, seed=100))
        r, c = divmod(k, cols)  # row-major from the top-left
        out[r * frame:(r + 1) * frame, c * frame:(c + 1) * frame] = img
    return out


def make_smoke(size=128):
    x, y = grid(size, size)

    def billows(dy=0.0):
        return fbm([x * 2.2 + 4.0, (y + dy) * 2.2], octaves=5, seed=310, billow=True, rotate=True)

    # A round falloff whose edge is pushed in and out by billowy noise, so the
    # silhouette is lumpy and the inside shows puffs of different density.
    b = billows()
    rad = np.hypot(x, y * 1.08)
    field = 1.0 - rad / 0.78 + 0.55 * (b - 0.45)
    density = smoothstep(0.0, 0.55, field) * smoothstep(0.95, 0.7, rad)  # no stray islands
    detail = fbm([x * 7.0 + 9.0, y * 7.0], octaves=3, seed=320, rotate=True)
    alpha = density * (0.75 + 0.35 * detail) * 0.85
    alpha = np.clip(alpha, 0.0, 1.0) * border_window(size, size, size * 0.06)

    # Grey; puffs are a little lighter on their upper side (light from above),
    # and the whole puff is darker towards its bottom.
    slope = (billows(-0.04) - b) / 0.04  # > 0 where density falls going up: a puff's top
    light = np.clip(0.5 + 0.12 * slope, 0.0, 1.0)
    grey = np.clip(0.58 + 0.22 * light + 0.10 * y + 0.06 * (detail - 0.5), 0.0, 1.0)
    rgb = np.repeat(grey[..., None], 3, axis=-1)
    return to_rgba8(rgb, alpha)


def make_spark(width=64, height=16):
    x, y = grid(width, height)
    # Across: a narrow gaussian core with a soft glow. Along: fades at both ends,
    # slightly brighter towards +x (the head of the streak).
    px_y = y * height / 2.0  # y in texels from the centre line
    across = 0.75 * np.exp(-(px_y / 1.4) ** 2) + 0.25 * np.exp(-(px_y / 3.5) ** 2)
    along = smoothstep(-1.0, 0.2, x) * smoothstep(1.0, 0.7, x)
    along = along * (0.6 + 0.4 * (x + 1.0) / 2.0)
    alpha = np.clip(across * along * 1.3, 0.0, 1.0) * border_window(width, height, 2.5)
    core = np.exp(-(px_y / 1.2) ** 2) * along
    rgb = np.stack([np.ones_like(core), 0.92 + 0.08 * core, 0.82 + 0.18 * core], axis=-1)
    return to_rgba8(rgb, alpha)


def make_ember(size=32):
    # A glowing dot: a hot core with a soft halo; round, so velocity facing stretches it into a streak
    # along the motion.
    x, y = grid(size, size)
    r = np.hypot(x, y)
    alpha = np.clip(0.8 * np.exp(-(r / 0.32) ** 2) + 0.2 * np.exp(-(r / 0.6) ** 2), 0.0, 1.0)
    alpha = alpha * smoothstep(1.0, 0.85, r) * border_window(size, size, 1.5)
    core = np.exp(-(r / 0.25) ** 2)
    rgb = np.stack([np.ones_like(core), 0.9 + 0.1 * core, 0.8 + 0.2 * core], axis=-1)
    return to_rgba8(rgb, alpha)


# The medium's kernel as a sprite (src/render/particles/medium.h): a 3D Gaussian of sigma = size / 6 seen along
# any ray integrates to exp(-d^2 / (2 sigma^2)), d the ray's distance from the centre, cut at d = 3 sigma. Over
# the sprite (uv in 0..1 across the quad, `size` wide) that is sigma = 1/6 and the cut at radius 0.5. Each
# texel takes the mean over 4x4 samples of its area, so mipmaps and filtering start from the exact profile.
GAUSSIAN_SIGMA = 1.0 / 6.0
GAUSSIAN_REACH = 3.0


def make_gaussian(size=256, samples=4):
    offsets = (np.arange(samples) + 0.5) / samples
    alpha = np.zeros((size, size))
    for oy in offsets:
        for ox in offsets:
            u = (np.arange(size)[None, :] + ox) / size - 0.5
            v = (np.arange(size)[:, None] + oy) / size - 0.5
            r2 = u * u + v * v
            inside = r2 <= (GAUSSIAN_REACH * GAUSSIAN_SIGMA) ** 2
            alpha += np.where(inside, np.exp(-r2 / (2.0 * GAUSSIAN_SIGMA ** 2)), 0.0)
    alpha /= samples * samples
    rgb = np.ones((size, size, 3))
    return to_rgba8(rgb, alpha)


def make_ring(size=256):
    # A shockwave ring seen from above: a bright, noise-broken band at 0.8 of the radius with a soft
    # inner wake; drawn lying on the ground (facing = "ground") and grown over its life.
    x, y = grid(size, size)
    r = np.hypot(x, y)
    angle = np.arctan2(y, x)
    breakup = fbm([np.cos(angle) * 3.0 + 5.0, np.sin(angle) * 3.0, r * 2.0], octaves=3, seed=410)
    band = np.exp(-((r - 0.78) / (0.07 + 0.04 * breakup)) ** 2)
    wake = 0.25 * smoothstep(0.2, 0.75, r) * smoothstep(0.85, 0.7, r)
    alpha = np.clip((band + wake) * (0.7 + 0.5 * breakup), 0.0, 1.0)
    alpha = alpha * smoothstep(1.0, 0.92, r) * border_window(size, size, 2.0)
    rgb = np.ones(r.shape + (3,))
    return to_rgba8(rgb, alpha)


TEXTURES = [
    ("flame.png", make_flame),
    ("ember.png", make_ember),
    ("ring.png", make_ring),
    ("smoke.png", make_smoke),
    ("spark.png", make_spark),
    ("flame_atlas.png", make_flame_atlas),
    ("gaussian.png", make_gaussian),
]


def main(argv=None):
    default_out = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "textures")
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=default_out, help="output folder (default: %(default)s)")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    for name, make in TEXTURES:
        img = make()
        path = os.path.join(args.out, name)
        nbytes = write_png(path, img)
        h, w = img.shape[:2]
        print(f"wrote {path}: {w}x{h} RGBA, {nbytes} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
