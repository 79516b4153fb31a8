"""Mesh files through Mesh.load (assimp): a unit cube written by the test
in OBJ (quads, split as fans), PLY, STL and glTF, each loaded and hit by a
ray; broken files are an OSError with the reason, never a crash."""
import base64
import json
import struct

import numpy as np
import pytest

CUBE_V = [(-1, -1, -1), (1, -1, -1), (1, 1, -1), (-1, 1, -1), (-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1)]
# Quads, counter-clockwise seen from outside.
CUBE_QUADS = [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (2, 3, 7, 6), (1, 2, 6, 5), (0, 4, 7, 3)]
CUBE_TRIS = [t for q in CUBE_QUADS for t in ((q[0], q[1], q[2]), (q[0], q[2], q[3]))]


def write_obj(path):
    lines = [f"v {x} {y} {z}" for x, y, z in CUBE_V] + ["f " + " ".join(str(i + 1) for i in q) for q in CUBE_QUADS]
    path.write_text("\n".join(lines) + "\n")


def write_ply(path):
    head = ["ply", "format ascii 1.0", f"element vertex {len(CUBE_V)}", "property float x", "property float y",
            "property float z", f"element face {len(CUBE_QUADS)}", "property list uchar int vertex_indices",
            "end_header"]
    body = [f"{x} {y} {z}" for x, y, z in CUBE_V] + ["4 " + " ".join(map(str, q)) for q in CUBE_QUADS]
    path.write_text("\n".join(head + body) + "\n")


def write_stl(path):
    out = ["solid cube"]
    for t in CUBE_TRIS:
        out += ["facet normal 0 0 0", "outer loop"] + [f"vertex {' '.join(map(str, CUBE_V[i]))}" for i in t]
        out += ["endloop", "endfacet"]
    path.write_text("\n".join(out + ["endsolid cube"]) + "\n")


def write_gltf(path):
    pos = b"".join(struct.pack("<3f", *v) for v in CUBE_V)
    idx = b"".join(struct.pack("<3H", *t) for t in CUBE_TRIS)
    data = pos + idx
    doc = {
        "asset": {"version": "2.0"},
        "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "mode": 4}]}],
        "buffers": [{"byteLength": len(data),
                     "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": len(pos)},
                        {"buffer": 0, "byteOffset": len(pos), "byteLength": len(idx)}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3", "min": [-1, -1, -1], "max": [1, 1, 1]},
            {"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"}],
    }
    path.write_text(json.dumps(doc))


@pytest.mark.parametrize("ext,writer", [("obj", write_obj), ("ply", write_ply), ("stl", write_stl),
                                        ("gltf", write_gltf)])
def test_each_format_loads_and_answers(sw, tmp_path, ext, writer):
    path = tmp_path / f"cube.{ext}"
    writer(path)
    mesh = sw.Mesh.load(str(path))
    assert mesh.triangle_count == 12
    assert mesh.bounds == ((-1.0, -1.0, -1.0), (1.0, 1.0, 1.0))
    cube = mesh.place([10, 0, 0])
    h = sw.raycast([0, 0.25, 0.5], [1, 0, 0], cube, max=20)
    assert h.hit and h.t == 9 and h.normal == (-1, 0, 0)
    # The same cube given as arrays answers the same, up to triangle numbering.
    same = sw.Mesh(np.array(CUBE_V, float), np.array(CUBE_TRIS)).place([10, 0, 0])
    g = sw.raycast([0, 0.25, 0.5], [1, 0, 0], same, max=20)
    assert (g.t, g.point, g.normal) == (h.t, h.point, h.normal)
    d = sw.sweep(sw.sphere([0, 0, 0], 0.5), [20, 0, 0], cube)
    assert d.hit and d.t == pytest.approx(8.5 / 20)


def test_obj_quads_are_fans_in_file_order(sw, tmp_path):
    path = tmp_path / "cube.obj"
    write_obj(path)
    mesh = sw.Mesh.load(path)  # a path-like object works too
    for i, t in enumerate(CUBE_TRIS):
        assert mesh.triangle(i) == tuple(tuple(float(c) for c in CUBE_V[k]) for k in t)


@pytest.mark.parametrize("name,text,reason", [
    ("missing.obj", None, "cannot open"),
    ("empty.obj", "# nothing\n", ""),
    ("lines.obj", "v 0 0 0\nv 1 0 0\nl 1 2\n", ""),
    ("garbage.ply", "ply\nformat nonsense\n", ""),
    ("nan.obj", "v nan 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", ""),
    ("bad_index.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n", ""),
])
def test_broken_files_raise(sw, tmp_path, name, text, reason):
    path = tmp_path / name
    if text is not None:
        path.write_text(text)
    with pytest.raises(OSError) as e:
        sw.Mesh.load(str(path))
    assert reason in str(e.value)
    assert str(e.value)  # a message, whatever assimp's wording
