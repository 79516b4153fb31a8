#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets (fuzz/corpus/<target>/).

Each seed is a small hand-made query in the byte format of fuzz.c: a header
byte, then selector-coded values. Only encodings that read the same in the
float and the double build are used (no raw bit patterns), so one corpus
serves both. Run it after changing the input format of a target:

    python3 fuzz/make_corpus.py
"""
import os
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))

POINT, SEGMENT, SPHERE, CAPSULE, BOX, PLANE, TRIANGLE, POLYGON = range(8)


def real(v):
    """The shortest selector coding of v (fuzz.c, fz_real)."""
    f = Fraction(v).limit_denominator(1 << 32)
    if f.denominator == 1 and -16 <= f <= 15:
        return bytes([(int(f) + 16) << 3])
    if f.denominator == 1 and -128 <= f <= 127:
        return bytes([1, int(f) & 0xFF])
    for k in range(1, 33):
        n = f * (1 << k)
        if n.denominator == 1 and -128 <= n <= 127:
            return bytes([((k - 1) << 3) | 2, int(n) & 0xFF])
    for e in range(-16, 16):
        n = f / Fraction(10) ** e
        if n.denominator == 1 and -32768 <= n <= 32767:
            k = int(n) & 0xFFFF
            return bytes([((e + 16) << 3) | 4, k & 0xFF, k >> 8])
    raise ValueError(f"no portable coding for {v}")


def vec(*xs):
    return b"".join(real(x) for x in xs)


def sphere(c, r):
    return vec(*c) + real(r)


def capsule(a, b, r):
    return vec(*a) + vec(*b) + real(r)


def box(c, h, q=(0, 0, 0, 1)):
    return vec(*c) + vec(*h) + vec(*q)


def plane(n, off):
    return vec(*n) + real(off)


def triangle(v0, v1, v2, one_sided=False):
    return vec(*v0) + vec(*v1) + vec(*v2) + bytes([1 if one_sided else 0])


def regular_polygon(count_index, c, u, w, one_sided=False):
    """fz_polygon: counts[count_index] vertices c + cos(a) u + sin(a) w."""
    return bytes([count_index | (16 if one_sided else 0)]) + vec(*c) + vec(*u) + vec(*w)


def shape(kind, body):
    return bytes([kind]) + body


NO_OPTIONS = bytes([1])


def options(skin=None, ignore_separating=False):
    flags = (2 if skin is not None else 0) | (4 if ignore_separating else 0)
    return bytes([flags]) + (real(skin) if skin is not None else b"")


def ray(o, d, mx):
    return vec(*o) + vec(*d) + real(mx)


HEADER = bytes([0])

SEEDS = {
    "fuzz_sphere_sweep": {
        # entry, A, d, B, [db], options
        "sphere_sphere_hit": bytes([0]) + sphere((0, 0, 0), 1) + vec(10, 0, 0) + sphere((5, 0, 0), 1) + NO_OPTIONS,
        "sphere_sphere_skin": bytes([0]) + sphere((0, 0, 0), 1) + vec(10, 0, 0) + sphere((5, 0.5, 0), 1)
        + options(0.25),
        "sphere_point_graze": bytes([1]) + sphere((0, 1, 0), 1) + vec(4, 0, 0) + vec(2, 0, 0) + NO_OPTIONS,
        "moving_spheres": bytes([2]) + sphere((0, 0, 0), 1) + vec(4, 0, 0) + sphere((6, 0, 0), 1) + vec(-4, 0, 0)
        + NO_OPTIONS,
        "sphere_plane_separating": bytes([5]) + sphere((0, 0, 0.5), 1) + vec(0, 0, 1) + plane((0, 0, 1), 0)
        + options(0, True),
        "sphere_triangle": bytes([6]) + sphere((0.25, 0.25, 3), 0.5) + vec(0, 0, -6)
        + triangle((0, 0, 0), (1, 0, 0), (0, 1, 0)) + NO_OPTIONS,
        "sphere_polygon_one_sided": bytes([7]) + sphere((0, 0, -3), 0.5) + vec(0, 0, 6)
        + regular_polygon(6, (0, 0, 0), (2, 0, 0), (0, 2, 0), True) + NO_OPTIONS,
        "sphere_box_rotated": bytes([8]) + sphere((-5, 0.5, 0), 1) + vec(10, 0, 0)
        + box((0, 0, 0), (1, 2, 3), (0, 0, 0.5, 0.75)) + NO_OPTIONS,
        "capsule_capsule_crossing": bytes([12]) + capsule((-2, 0, 2), (2, 0, 2), 0.5) + vec(0, 0, -4)
        + capsule((0, -2, 0), (0, 2, 0), 0.5) + NO_OPTIONS,
        "capsule_box_edge": bytes([16]) + capsule((-1, 3, 3), (1, 3, 3), 0.25) + vec(0, -3, -3)
        + box((0, 0, 0), (1, 1, 1)) + options(0.125),
        "segment_triangle": bytes([18]) + vec(0.25, 0.25, 1) + vec(0.25, 0.25, 2) + vec(0, 0, -3)
        + triangle((0, 0, 0), (1, 0, 0), (0, 1, 0)) + NO_OPTIONS,
        "capsule_shape_plane": bytes([21]) + capsule((0, 0, 3), (1, 1, 4), 0.5) + vec(0, 0, -5)
        + shape(PLANE, plane((0, 0, 2), 1)) + NO_OPTIONS,
    },
    "fuzz_raycast": {
        "sphere_through": bytes([0]) + ray((-5, 0, 0), (1, 0, 0), 10) + sphere((0, 0, 0), 1),
        "sphere_tangent": bytes([0]) + ray((-5, 1, 0), (2, 0, 0), 5) + sphere((0, 0, 0), 1),
        "sphere_inside": bytes([0]) + ray((0.25, 0, 0), (0, 0, 1), 1) + sphere((0, 0, 0), 1),
        "capsule": bytes([1]) + ray((0, -5, 0), (0, 1, 0), 10) + capsule((-1, 0, 0), (1, 0, 0), 0.5),
        "plane": bytes([2]) + ray((0, 0, 5), (0, 0, -1), 10) + plane((0, 0, 3), 3),
        "triangle_edge": bytes([3]) + ray((0.5, 0, 2), (0, 0, -1), 4) + triangle((0, 0, 0), (1, 0, 0), (0, 1, 0)),
        "polygon_back": bytes([4]) + ray((0, 0, -2), (0, 0, 1), 4)
        + regular_polygon(4, (0, 0, 0), (1, 0, 0), (0, 1, 0), True),
        "box_rotated": bytes([5]) + ray((-5, 0.1, 0.2), (1, 0, 0), 10) + box((0, 0, 0), (1, 1, 1), (0, 0.6, 0, 0.8)),
        "dispatch_point": bytes([7]) + ray((0, 0, 0), (1, 1, 1), 3) + shape(POINT, vec(2, 2, 2)),
        "shape_segment": bytes([6]) + ray((0, -1, 0), (0, 1, 0), 2) + shape(SEGMENT, vec(-1, 0, 0) + vec(1, 0, 0)),
    },
    "fuzz_containment": {
        "sphere_in_sphere": bytes([0]) + sphere((0, 0, 0), 1) + vec(10, 0, 0) + sphere((0, 0, 0), 5),
        "sphere_too_big": bytes([0]) + sphere((0, 0, 0), 6) + vec(1, 0, 0) + sphere((0, 0, 0), 5),
        "sphere_in_box": bytes([1]) + sphere((0, 0, 0), 0.5) + vec(3, 4, 0) + box((0, 0, 0), (2, 2, 2)),
        "sphere_in_rotated_box": bytes([1]) + sphere((0.5, 0, 0), 0.25) + vec(0, 0, 9)
        + box((0, 0, 0), (1, 2, 3), (0.5, 0.5, 0.5, 0.5)),
        "dispatch_point_in_box": bytes([2]) + shape(POINT, vec(0, 0, 0)) + vec(5, 0, 0)
        + shape(BOX, box((0, 0, 0), (1, 1, 1))),
    },
    "fuzz_overlap_distance": {
        # entry, a, b
        "overlap_sphere_sphere": bytes([1]) + sphere((0, 0, 0), 1) + sphere((1.5, 0, 0), 1),
        "overlap_capsule_capsule_cross": bytes([3]) + capsule((-1, 0, 0), (1, 0, 0), 0.5)
        + capsule((0, -1, 0), (0, 1, 0), 0.5),
        "distance_segment_segment_parallel": bytes([5]) + vec(0, 0, 0) + vec(2, 0, 0) + vec(1, 1, 0) + vec(3, 1, 0),
        "distance_capsule_capsule": bytes([8]) + capsule((0, 0, 0), (0, 0, 1), 0.25)
        + capsule((2, 0, 0), (2, 1, 0), 0.25),
        "overlap_capsule_box": bytes([12]) + capsule((0, 0, 1.25), (0, 0, 3), 0.5) + box((0, 0, 0), (1, 1, 1)),
        "overlap_capsule_triangle": bytes([10]) + capsule((0.2, 0.2, -1), (0.2, 0.2, 1), 0.1)
        + triangle((0, 0, 0), (1, 0, 0), (0, 1, 0)),
        "distance_capsule_plane": bytes([14]) + capsule((0, 0, 3), (0, 1, 2), 0.5) + plane((0, 0, 1), 0),
        "distance_capsule_polygon": bytes([16]) + capsule((3, 0, 1), (3, 0, 2), 0.5)
        + regular_polygon(2, (0, 0, 0), (1, 0, 0), (0, 1, 0)),
        "overlap_dispatch_box_sphere": bytes([19]) + shape(BOX, box((0, 0, 0), (1, 1, 1)))
        + shape(SPHERE, sphere((1.5, 0, 0), 1)),
        "distance_dispatch_triangle_point": bytes([20]) + shape(TRIANGLE, triangle((0, 0, 0), (1, 0, 0), (0, 1, 0)))
        + shape(POINT, vec(1, 1, 1)),
        "closest_points_segments": bytes([22]) + vec(0, 0, 0) + vec(1, 0, 0) + vec(0.5, -1, 1) + vec(0.5, 1, 1),
    },
    "fuzz_dispatch": {
        # a, b, d, options, ray
        "sphere_box": shape(SPHERE, sphere((-3, 0, 0), 1)) + shape(BOX, box((0, 0, 0), (1, 1, 1))) + vec(6, 0, 0)
        + NO_OPTIONS + ray((-3, 0, 0), (1, 0, 0), 6),
        "capsule_triangle": shape(CAPSULE, capsule((0, 0, 2), (1, 0, 2), 0.5))
        + shape(TRIANGLE, triangle((0, 0, 0), (2, 0, 0), (0, 2, 0))) + vec(0, 0, -3) + options(0.125)
        + ray((0.5, 0.5, 2), (0, 0, -1), 3),
        "box_sphere_mirrored": shape(BOX, box((0, 0, 0), (1, 1, 1), (0, 0, 0.6, 0.8)))
        + shape(SPHERE, sphere((4, 0, 0), 1)) + vec(4, 0, 0) + NO_OPTIONS + ray((4, 0, 0), (-1, 0, 0), 5),
        "point_plane": shape(POINT, vec(0, 0, 1)) + shape(PLANE, plane((0, 0, 1), 0)) + vec(0, 0, -2)
        + options(0, True) + ray((0, 0, 1), (0, 0, -1), 2),
        "segment_polygon": shape(SEGMENT, vec(-1, 0, 1) + vec(1, 0, 1))
        + shape(POLYGON, regular_polygon(3, (0, 0, 0), (1, 0, 0), (0, 1, 0))) + vec(0, 0, -2) + NO_OPTIONS
        + ray((0, 0, 1), (0, 0, -1), 2),
        "sphere_in_sphere": shape(SPHERE, sphere((0, 0, 0), 1)) + shape(SPHERE, sphere((0, 0, 0), 3))
        + vec(5, 0, 0) + NO_OPTIONS + ray((0, 0, 0), (1, 0, 0), 1),
    },
}

QUERIES = {
    "sweep_sphere_box": '{"id":1,"op":"sweep","a":{"type":"sphere","center":[-3,0,0],"radius":1},"d":[6,0,0],'
    '"b":{"type":"box","center":[0,0,0],"half":[1,1,1],"rotation":[0,0,0.38268343,0.92387953]}}',
    "sweep_skin": '{"id":"s","op":"sweep","a":{"type":"capsule","a":[0,0,2],"b":[1,0,2],"radius":0.5},'
    '"d":[0,0,-3],"b":{"type":"segment","a":[-1,-1,0],"b":[2,2,0]},"skin":0.1,"ignore_separating":true}',
    "raycast": '{"op":"raycast","origin":[0,0,5],"dir":[0,0,-1],"max":10,"b":{"type":"sphere","center":[0,0,0],'
    '"radius":1}}',
    "sweep_inside": '{"id":[1,2],"op":"sweep_inside","a":{"type":"sphere","center":[0,0,0],"radius":1},'
    '"d":[9,0,0],"b":{"type":"sphere","center":[0,0,0],"radius":4}}',
    "overlap_distance": '{"op":"overlap","a":{"type":"point","p":[0,0,0]},"b":{"type":"sphere","center":[0.5,0,0],'
    '"radius":1}}\n{"op":"distance","a":{"type":"segment","a":[0,0,0],"b":[1,0,0]},'
    '"b":{"type":"capsule","a":[0,2,0],"b":[1,2,0],"radius":0.5}}',
    "hulls": '{"op":"sweep","a":{"type":"hull","points":[[0,0,0],[1,0,0],[0,1,0],[0,0,1],[1,1,1]],'
    '"position":[-3,0,0],"rotation":[0,0,0.38268343,0.92387953]},"d":[6,0,0],"b":{"type":"hull",'
    '"points":[[0,0,0],[1,0,0],[1,1,0],[0,1,0],[0,0,1],[1,0,1],[1,1,1],[0,1,1],[0.5,0.5,1]]}}\n'
    '{"op":"raycast","origin":[0,0,5],"dir":[0,0,-1],"max":10,"b":{"type":"hull",'
    '"points":[[-1,-1,-1],[1,-1,-1],[0,1,-1],[0,0,1]]}}\n'
    '{"op":"overlap","a":{"type":"hull","points":[[0,0,0],[2,0,0],[0,2,0],[0,0,2]]},'
    '"b":{"type":"triangle","v":[[0.5,0.5,-1],[0.5,0.5,1],[3,3,0]]}}',
    "moving_box": '{"op":"sweep","a":{"type":"box","center":[0,0,3],"half":[1,1,1],"rotation":[0.1,0,0,1]},'
    '"d":[0,0,-6],"b":{"type":"box","center":[0,0,0],"half":[2,2,0.5]},"skin":0}\n'
    '{"op":"sweep","a":{"type":"box","center":[0,0,3],"half":[1,0,1]},"d":[0,0,-6],'
    '"b":{"type":"polygon","v":[[-1,-1,0],[1,-1,0],[1,1,0],[-1,1,0]],"one_sided":true}}\n'
    '{"op":"distance","a":{"type":"box","center":[0,0,3],"half":[1,1,1]},"b":{"type":"plane","normal":[0,0,1],'
    '"offset":0}}',
    "bad_lines": '{"op":"sweep"}\nnot json\n\n{"id":null,"op":"raycast","origin":[0,0,0],"dir":[1,0,0],"max":-1,'
    '"b":{"type":"point","p":[1,0,0]}}\n{"op":"overlap","a":{"type":"sphere","center":[0,0,0],"radius":-1},'
    '"b":{"type":"point","p":[0,0,0]}}',
}


def main():
    for target, seeds in SEEDS.items():
        folder = os.path.join(HERE, "corpus", target)
        os.makedirs(folder, exist_ok=True)
        for name, body in seeds.items():
            with open(os.path.join(folder, name), "wb") as f:
                f.write(HEADER + body)
    folder = os.path.join(HERE, "corpus", "fuzz_query")
    os.makedirs(folder, exist_ok=True)
    for name, text in QUERIES.items():
        with open(os.path.join(folder, name + ".jsonl"), "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
