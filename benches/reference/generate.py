#!/usr/bin/env python3
"""Writes the benchmark draw descriptions (docs/draw-description.md; d3d11-ref's refrender reads the same) into OUT:

- p1_N.json: P1, one 1920x1080 full-target draw (two triangles) of the textured, lit pixel program
  (shaders/ps_lit.hlsl: two bilinear samples of a 256x256 RGBA8 texture, normalize, dot, pow) into RGBA8, drawn as N
  instances of the same quad (DrawIndexedInstanced), so that N full-target passes cost N times the shading and
  nothing else: d3d11-ref's refrender creates the programs and resources anew for every entry of "draws", which
  would time llvmpipe's shader compiler, not its rasterizer;
- p2.json: P2, one 1920x1080 draw of a 224x224-cell grid over the whole target (100,352 triangles, 50,625 vertices)
  of the same programs, with depth testing, whose pixels `iridia inspect` is timed on (P2 has no reference figure: its
  target is an absolute time);
- p1b_N.json: P1b, a 1920x1080 frame of N mesh draws (a 12x12-quad grid, 288 triangles each) with depth testing
  (D32_FLOAT, LESS), placed by a seeded generator so that the draws cover the target about three times over. The
  reference's figure includes refrender creating each draw's programs and resources (see P1).

Every description is deterministic (SEED). Usage: generate.py OUT_DIR [P1_COUNTS] [P1B_COUNTS]."""
import json, math, os, random, sys

SEED = 20261202
WIDTH, HEIGHT = 1920, 1080
TEXTURE = 256


def texture_bytes():
    """A smooth, seeded 256x256 RGBA8 pattern (sums of sines), so that bilinear filtering does real work."""
    rng = random.Random(SEED)
    waves = [(rng.uniform(1, 9), rng.uniform(1, 9), rng.uniform(0, 6.28)) for _ in range(12)]
    out = bytearray()
    for y in range(TEXTURE):
        for x in range(TEXTURE):
            for c in range(4):
                fx, fy, ph = waves[c * 3 + (x + y) % 3]
                v = 0.5 + 0.5 * math.sin(fx * x / TEXTURE * 6.28 + fy * y / TEXTURE * 6.28 + ph)
                out.append(int(v * 255 + 0.5))
    return list(out)


def col_major(m):
    return [m[r][c] for c in range(4) for r in range(4)]


LAYOUT = [
    {"semantic": "POSITION", "format": "R32G32B32_FLOAT", "offset": 0},
    {"semantic": "NORMAL", "format": "R32G32B32_FLOAT", "offset": 12},
    {"semantic": "TEXCOORD", "format": "R32G32_FLOAT", "offset": 24},
]
LIGHT = [0.3, 0.8, 0.5, 0, 1.0, 0.95, 0.9, 1, 0.15, 0.15, 0.2, 1]


def common(depth):
    d = {
        "vs": "vs_lit.dxbc",
        "ps": "ps_lit.dxbc",
        "width": WIDTH,
        "height": HEIGHT,
        "rt_format": "R8G8B8A8_UNORM",
        "clear_color": [0.05, 0.1, 0.15, 1],
        "input_layout": LAYOUT,
        "topology": "TRIANGLELIST",
        "ps_cbuffers": [{"slot": 0, "f32": LIGHT}],
        "ps_textures": [{"slot": 0, "format": "R8G8B8A8_UNORM", "width": TEXTURE, "height": TEXTURE, "mip_levels": 1,
                         "array_size": 1, "subresources": [{"u8": texture_bytes()}]}],
        "ps_samplers": [{"slot": 0, "filter": "MIN_MAG_MIP_LINEAR", "address_u": "WRAP", "address_v": "WRAP"}],
        "viewport": {"x": 0, "y": 0, "w": WIDTH, "h": HEIGHT, "min_depth": 0, "max_depth": 1},
        "rasterizer": {"cull": "NONE"},
    }
    if depth:
        d["depth"] = {"format": "D32_FLOAT", "enable": True, "write": True, "func": "LESS"}
        d["clear_depth"] = 1.0
    return d


IDENTITY = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]


def p1(count):
    """The full-target quad: clip-space corners at z 0.5, normals leaning out at the corners, uv 0..6 (wrapping)."""
    corners = [(-1, -1, 0, 6), (1, -1, 6, 6), (-1, 1, 0, 0), (1, 1, 6, 0)]
    data = []
    for x, y, u, v in corners:
        n = [x * 0.4, y * 0.4, 1.0]
        data += [x, y, 0.5] + n + [u, v]
    d = common(depth=False)
    d["vertex_buffers"] = [{"stride": 32, "f32": data}]
    d["indices"] = [0, 1, 2, 2, 1, 3]
    d["index_format"] = "R16_UINT"
    d["vs_cbuffers"] = [{"slot": 0, "f32": col_major(IDENTITY)}]
    d["instance_count"] = count
    return d


GRID = 12


def grid_mesh(cells=GRID, z_at=lambda x, y: 0.3 * (1 - (x * x + y * y) / 2), uv_scale=2):
    """A `cells` x `cells` grid over [-1, 1]^2, its depth `z_at(x, y)` (by default bulged toward the viewer, z in
    [0, 0.3]), normals of the bulge, texture coordinates 0..uv_scale."""
    data, indices = [], []
    for j in range(cells + 1):
        for i in range(cells + 1):
            x, y = i / cells * 2 - 1, j / cells * 2 - 1
            n = [x * 0.6, y * 0.6, 1.0]
            data += [x, y, z_at(x, y)] + n + [i / cells * uv_scale, j / cells * uv_scale]
    for j in range(cells):
        for i in range(cells):
            a = j * (cells + 1) + i
            indices += [a, a + 1, a + cells + 1, a + cells + 1, a + 1, a + cells + 2]
    return data, indices


P2_GRID = 224


def p2():
    """The P2 mesh: a P2_GRID x P2_GRID grid over the whole target, bulged toward the viewer, identity transform."""
    data, indices = grid_mesh(P2_GRID, lambda x, y: 0.5 - 0.3 * (1 - (x * x + y * y) / 2), 8)
    d = common(depth=True)
    d["vertex_buffers"] = [{"stride": 32, "f32": [round(v, 6) for v in data]}]
    d["indices"] = indices
    d["index_format"] = "R32_UINT"
    d["vs_cbuffers"] = [{"slot": 0, "f32": col_major(IDENTITY)}]
    return d


def p1b(count):
    """`count` grids, each scaled to a square of side s pixels at a random place and depth: the squares' total area is
    three times the target's, so that the frame's overdraw is about 3 (the grids' bulge and the depth test decide
    which fragment stays)."""
    rng = random.Random(SEED + count)
    side = math.sqrt(3 * WIDTH * HEIGHT / count)
    data, indices = grid_mesh()
    d = common(depth=True)
    d["vertex_buffers"] = [{"stride": 32, "f32": data}]
    d["indices"] = indices
    d["index_format"] = "R16_UINT"
    draws = []
    for _ in range(count):
        cx, cy = rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT)
        depth = rng.uniform(0.1, 0.8)
        sx, sy = side / WIDTH, side / HEIGHT
        tx, ty = cx / WIDTH * 2 - 1, 1 - cy / HEIGHT * 2
        m = [[sx, 0, 0, tx], [0, sy, 0, ty], [0, 0, -0.2, depth], [0, 0, 0, 1]]
        draws.append({"vs_cbuffers": [{"slot": 0, "f32": col_major(m)}]})
    d["draws"] = draws
    return d


def main():
    out = sys.argv[1]
    p1_counts = [int(n) for n in (sys.argv[2] if len(sys.argv) > 2 else "1,5").split(",")]
    p1b_counts = [int(n) for n in (sys.argv[3] if len(sys.argv) > 3 else "1,300").split(",")]
    os.makedirs(out, exist_ok=True)
    for n in p1_counts:
        with open(os.path.join(out, f"p1_{n}.json"), "w") as f:
            json.dump(p1(n), f)
    with open(os.path.join(out, "p2.json"), "w") as f:
        json.dump(p2(), f)
    for n in p1b_counts:
        with open(os.path.join(out, f"p1b_{n}.json"), "w") as f:
            json.dump(p1b(n), f)


if __name__ == "__main__":
    main()
