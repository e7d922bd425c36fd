#!/usr/bin/env python3
"""Reads landform's glb meshes with Python's struct and json only (an
independent reader) and checks them against the r32 heightmap of the same
build: the GLB header and chunks, accessor min/max equal to the data,
triangles wound counter-clockwise seen from +Y (those folded over by the
simplifier counted as the manifest says, and measured too), vertex counts falling as
max_error rises, and the largest vertical distance between the mesh and the
heights at every cell centre within max_error (plus float32 rounding of the
stored positions, 1e-6 of the relief), and a max_triangles cap that wins over
max_error with the error reached in the manifest.

usage: check_glb.py LANDFORM WORK_DIR
"""
import json
import math
import os
import shutil
import struct
import subprocess
import sys

SIZE, CELL, SCALE = 97, 4.0, 80.0
ERRORS = [0.0, 0.5, 2.0, 8.0]
CAP = 2000  # triangles: fewer than max_error 0.5 m needs


def preset():
    outputs = [{"map": "height", "format": "r32"}]
    for e in ERRORS:
        outputs.append({"map": "mesh", "file": f"mesh_{e}.glb", "max_error": e})
    outputs.append({"map": "mesh", "file": "skirt.glb", "max_error": 2.0, "skirt": 10.0})
    outputs.append({"map": "mesh", "file": "capped.glb", "max_error": 0.5, "max_triangles": CAP})
    return {"landform": 1, "size": SIZE, "seed": 11, "cell_size": CELL, "height_scale": SCALE,
            "stages": [{"type": "opensimplex", "feature_size": 60, "octaves": 3},
                       {"type": "normalize", "mode": "min_max"}],
            "outputs": outputs}


def read_glb(path):
    data = open(path, "rb").read()
    magic, version, length = struct.unpack_from("<4sII", data, 0)
    assert magic == b"glTF", magic
    assert version == 2, version
    assert length == len(data), (length, len(data))
    json_len, json_type = struct.unpack_from("<II", data, 12)
    assert json_type == 0x4E4F534A and json_len % 4 == 0
    doc = json.loads(data[20:20 + json_len].decode("utf-8"))
    at = 20 + json_len
    bin_len, bin_type = struct.unpack_from("<II", data, at)
    assert bin_type == 0x004E4942 and bin_len % 4 == 0
    assert at + 8 + bin_len == length
    binary = data[at + 8:at + 8 + bin_len]
    assert doc["asset"]["version"] == "2.0"
    assert doc["buffers"][0]["byteLength"] <= bin_len
    return doc, binary


def accessor(doc, binary, index):
    acc = doc["accessors"][index]
    view = doc["bufferViews"][acc["bufferView"]]
    width = {"SCALAR": 1, "VEC2": 2, "VEC3": 3}[acc["type"]]
    code = {5126: "f", 5125: "I"}[acc["componentType"]]
    n = acc["count"] * width
    assert view["byteLength"] == 4 * n
    values = struct.unpack_from(f"<{n}{code}", binary, view.get("byteOffset", 0) + acc.get("byteOffset", 0))
    rows = [values[k:k + width] for k in range(0, n, width)]
    for c in range(width):
        column = [r[c] for r in rows]
        assert acc["min"][c] == min(column), (index, c, acc["min"][c], min(column))
        assert acc["max"][c] == max(column), (index, c, acc["max"][c], max(column))
    return rows


def mesh(path):
    doc, binary = read_glb(path)
    prim = doc["meshes"][0]["primitives"][0]
    assert prim.get("mode", 4) == 4
    pos = accessor(doc, binary, prim["attributes"]["POSITION"])
    nor = accessor(doc, binary, prim["attributes"]["NORMAL"])
    uv = accessor(doc, binary, prim["attributes"]["TEXCOORD_0"])
    idx = [i[0] for i in accessor(doc, binary, prim["indices"])]
    assert len(nor) == len(pos) == len(uv) and len(idx) % 3 == 0 and max(idx) < len(pos)
    for n in nor:
        assert abs(math.sqrt(n[0] ** 2 + n[1] ** 2 + n[2] ** 2) - 1) < 1e-5 and n[1] > 0
    return pos, idx


def vertical_error(pos, idx, heights):
    """Max |mesh - height| over every cell centre, by rasterising each triangle
    (folded-over ones too), and the count of folded triangles."""
    covered = [[False] * SIZE for _ in range(SIZE)]
    worst, folded = 0.0, 0
    for t in range(0, len(idx), 3):
        p = [pos[i] for i in idx[t:t + 3]]
        g = [(round(v[0] / CELL), round(v[2] / CELL), v[1]) for v in p]
        area = (g[1][0] - g[0][0]) * (g[2][1] - g[0][1]) - (g[1][1] - g[0][1]) * (g[2][0] - g[0][0])
        folded += area > 0  # z south: counter-clockwise from above is negative here
        if area == 0:
            continue
        sign = -1 if area > 0 else 1
        for r in range(min(v[1] for v in g), max(v[1] for v in g) + 1):
            for c in range(min(v[0] for v in g), max(v[0] for v in g) + 1):
                w = []
                for k in range(3):
                    a, b = g[(k + 1) % 3], g[(k + 2) % 3]
                    w.append((b[0] - a[0]) * (r - a[1]) - (b[1] - a[1]) * (c - a[0]))
                if not all(sign * x <= 0 for x in w):
                    continue
                z = sum(w[k] * g[k][2] for k in range(3)) / area
                covered[r][c] = True
                worst = max(worst, abs(z - heights[r * SIZE + c]))
    assert all(all(row) for row in covered), "a cell centre lies under no triangle"
    return worst, folded


def main():
    landform, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    with open(os.path.join(work, "preset.json"), "w") as f:
        json.dump(preset(), f)
    subprocess.run([landform, "build", os.path.join(work, "preset.json"), "-o", os.path.join(work, "out"),
                    "--quiet"], check=True)
    out = os.path.join(work, "out")
    raw = open(os.path.join(out, "height.r32"), "rb").read()
    heights = [h * SCALE for h in struct.unpack(f"<{SIZE * SIZE}f", raw)]
    slack = 1e-6 * (max(heights) - min(heights))
    manifest = json.load(open(os.path.join(out, "manifest.json")))
    counts = []
    for e in ERRORS:
        pos, idx = mesh(os.path.join(out, f"mesh_{e}.glb"))
        err, folded = vertical_error(pos, idx, heights)
        print(f"max_error {e} m: {len(pos)} vertices, {len(idx) // 3} triangles, measured {err:.4f} m")
        assert err <= e + slack, (e, err)
        entry = next(f for f in manifest["files"] if f["file"] == f"mesh_{e}.glb")
        assert entry["vertices"] == len(pos) and entry["triangles"] == len(idx) // 3
        assert entry["folded_triangles"] == folded, (entry["folded_triangles"], folded)
        counts.append(len(pos))
    assert counts[0] == SIZE * SIZE, counts
    assert all(a > b for a, b in zip(counts, counts[1:])), f"vertex counts do not fall: {counts}"
    pos, idx = mesh(os.path.join(out, "skirt.glb"))
    surface, _ = mesh(os.path.join(out, "mesh_2.0.glb"))  # the same surface, no skirt
    assert pos[:len(surface)] == surface
    skirt = pos[len(surface):]  # one lowered vertex per border vertex
    assert len(skirt) == 4 * (SIZE - 1), len(skirt)
    border = heights[:SIZE] + heights[-SIZE:] + heights[::SIZE] + heights[SIZE - 1::SIZE]
    lowest = min(p[1] for p in skirt)
    assert abs(lowest - (min(border) - 10.0)) < 1e-3, lowest
    pos, idx = mesh(os.path.join(out, "capped.glb"))
    err, folded = vertical_error(pos, idx, heights)
    entry = next(f for f in manifest["files"] if f["file"] == "capped.glb")
    print(f"max_error 0.5 m, max_triangles {CAP}: {len(idx) // 3} triangles, measured {err:.4f} m")
    assert len(idx) // 3 <= CAP and entry["limited_by"] == "max_triangles", (len(idx) // 3, entry["limited_by"])
    assert abs(entry["measured_error_m"] - err) <= slack and err > 0.5, (entry["measured_error_m"], err)
    print("glb structure, accessor bounds, winding, counts, vertical error, skirt and cap: ok")


if __name__ == "__main__":
    main()
