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

def lattice(x, y, z):
    """A fuzz_mesh lattice vertex: x, y, z in -2..2 spacings."""
    return bytes([((x + 2) << 1) | 1, (y + 2) + 5 * (z + 2)])


def mesh(spacing, verts, tris, position=(0, 0, 0), q=(0, 0, 0, 1), one_sided=False):
    """fuzz_mesh's mesh: counts, spacing, lattice vertices, index bytes
    (index + 1; 0 and count + 1 are out of range), placement."""
    body = bytes([len(verts) - 1, len(tris) - 1]) + real(spacing)
    body += b"".join(lattice(*v) for v in verts)
    body += bytes(i + 1 for t in tris for i in t)
    return body + vec(*position) + vec(*q) + bytes([1 if one_sided else 0])


def hull_points(*pts):
    return bytes([len(pts) - 4]) + b"".join(vec(*p) for p in pts)


def mesh_queries(z, ignore=False):
    """The six movers (point, segment, sphere, capsule, box, hull) falling
    from height z onto the origin, then a ray and a sphere overlap."""
    opt = options(0, True) if ignore else NO_OPTIONS
    return (bytes([0x3F]) + vec(0, 0, z) + vec(0, 0, -2 * z) + opt
            + vec(-0.5, 0, z) + vec(0.5, 0, z) + vec(0.25, 0, -2 * z) + opt
            + sphere((0, 0, z), 0.5) + vec(0, 0, -2 * z) + opt
            + capsule((0, -1, z), (0, 1, z), 0.25) + vec(0.5, 0, -2 * z) + options(0.125)
            + box((0, 0, z), (0.5, 0.25, 0.25), (0, 0, 0.6, 0.8)) + vec(0, 0, -2 * z) + opt
            + hull_points((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)) + vec(0, 0, z) + vec(0, 0, 0, 1)
            + vec(0, 0, -2 * z) + opt
            + ray((0, 0, z), (0, 0, -1), 2 * z)
            + bytes([2]) + sphere((0.5, 0, 0), 1))


# Two cells: six vertices (at most 8), four triangles (at most 6), the
# middle edge and its two vertices shared.
GRID = [(x, y, 0) for y in (0, 1) for x in (-1, 0, 1)]
GRID_TRIS = [(0, 1, 4), (0, 4, 3), (1, 2, 4), (2, 5, 4)]
TETRA = [(0, 0, 0), (2, 0, 0), (0, 2, 0), (0, 0, 2)]
TETRA_TRIS = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]
SEEDS["fuzz_mesh"] = {
    "floor_drops": mesh(1, GRID, GRID_TRIS) + mesh_queries(2),
    "floor_slides_ignore": mesh(1, GRID, GRID_TRIS) + mesh_queries(0.5, True),
    "floor_rotated_one_sided": mesh(0.5, GRID, GRID_TRIS, (100, -50, 3), (0.1, 0.2, 0.3, 0.9), True)
    + mesh_queries(3),
    "tetrahedron": mesh(1, TETRA, TETRA_TRIS, (0.25, 0.25, -1)) + mesh_queries(3),
    "bad_index": mesh(1, GRID[:4], [(0, 1, 2), (0, 2, 4)]) + mesh_queries(2),
    "degenerate": mesh(1, GRID[:4], [(0, 1, 1), (0, 1, 2), (3, 3, 3)]) + mesh_queries(1),
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


# fuzz_scene: a program of scene changes and queries (fuzz_scene.c). Keys
# are indices into its key table: 0 -> 0, 1 -> 1, 2 -> -1, 3 -> 2, 7 ->
# INT64_MAX, 8 -> INT64_MIN. A moving A is an index into point, sphere,
# segment, capsule, box, hull; hulls and meshes are prototypes 0 and 1.
HULL, MESH = 8, 9


def placed(kind, proto, pos, q=(0, 0, 0, 1), one_sided=False):
    return bytes([kind, proto | (8 if one_sided else 0)]) + vec(*pos) + vec(*q)


def s_add(slot, body, bits=0xFF):
    return bytes([0, slot]) + body + bytes([bits])


def s_move(slot, body, v=(0, 0, 0), w=(0, 0, 0)):
    return bytes([3, slot]) + body + vec(*v) + vec(*w)


NO_FILTER = bytes([1])


def s_filter(mask, cat, callback=False, rule=0):
    return bytes([(2 if callback else 0) | (rule << 2), mask, cat])


def q_ray(o, d, mx, filt=NO_FILTER, cap=255):
    return bytes([6, 0]) + ray(o, d, mx) + filt + bytes([cap])


def q_sweep(a, body, d, opt=NO_OPTIONS, filt=NO_FILTER, cap=255):
    return bytes([6, 1, a]) + body + vec(*d) + opt + filt + bytes([cap])


def q_overlap(a, body, filt=NO_FILTER, cap=255):
    return bytes([6, 2, a]) + body + filt + bytes([cap])


def q_closest(a, body, limit=None, filt=NO_FILTER):
    return bytes([6, 3, a]) + body + filt + (bytes([1]) if limit is None else bytes([0]) + real(limit))


def q_contacts(a, body, margin, filt=NO_FILTER, cap=255):
    return bytes([6, 4, a]) + body + filt + bytes([cap]) + real(margin)


def scene_row(x0, one_sided=False):
    """One of each static type along +x from x0, keys 0..8."""
    return (s_add(0, shape(POINT, vec(x0, 0, 0))) + s_add(1, shape(SEGMENT, vec(x0 + 2, -1, 0) + vec(x0 + 2, 1, 0)))
            + s_add(2, shape(SPHERE, sphere((x0 + 4, 0, 0), 0.5)))
            + s_add(3, shape(CAPSULE, capsule((x0 + 6, 0, -1), (x0 + 6, 0, 1), 0.25)))
            + s_add(4, shape(BOX, box((x0 + 8, 0, 0), (0.5, 1, 1), (0, 0, 0.25, 1))))
            + s_add(5, shape(TRIANGLE, triangle((x0 + 10, -1, -1), (x0 + 10, 1, -1), (x0 + 10, 0, 1), one_sided)))
            + s_add(6, shape(POLYGON, regular_polygon(4, (x0 + 12, 0, 0), (0, 1, 0), (0, 0, 1), one_sided)))
            + s_add(7, placed(HULL, 0, (x0 + 14, 0, 0)))
            + s_add(8, placed(MESH, 0, (x0 + 16, 0, 0), (0, 0.5, 0, 0.5), one_sided)))


SEEDS["fuzz_scene"] = {
    "row_of_every_type": scene_row(2) + q_ray((0, 0, 0.1), (1, 0, 0), 20)
    + q_sweep(1, sphere((0, 0.25, 0), 0.5), (20, 0, 0)) + q_sweep(4, box((0, 0, 0), (0.5, 0.5, 0.5)), (20, 0, 0))
    + q_sweep(5, bytes([1]) + vec(0, 0, 0) + vec(0, 0, 0, 1), (20, 0.5, 0), options(0.25))
    + q_overlap(3, capsule((2, 0, 0), (18, 0, 0), 0.5)) + q_closest(2, vec(9, 3, 0) + vec(9, 3, 1))
    + q_contacts(1, sphere((8, 1.5, 0), 0.5), 1),
    "ties_and_extreme_keys": s_add(7, shape(SPHERE, sphere((5, 0, 0), 1))) + s_add(8, shape(SPHERE, sphere((5, 0, 0), 1)))
    + s_add(2, shape(SPHERE, sphere((5, 0, 0), 1))) + s_add(0, shape(BOX, box((5, 0, 0), (1, 1, 1))))
    + q_ray((0, 0, 0), (1, 0, 0), 10, NO_FILTER, 2) + q_sweep(0, vec(0, 0, 0), (10, 0, 0), NO_OPTIONS, NO_FILTER, 1)
    + q_overlap(1, sphere((5, 0, 0), 0.5), NO_FILTER, 3) + q_closest(1, sphere((0, 0, 0), 0.5), 4),
    "changes_and_errors": scene_row(0) + s_move(2, shape(SPHERE, sphere((1, 0, 0), 0.5)), (1, 0, 0), (0, 0, 2))
    + bytes([2, 4]) + bytes([2, 4]) + s_add(3, shape(POINT, vec(0, 0, 0))) + s_add(10, shape(PLANE, plane((0, 0, 1), 0)))
    + bytes([3, 11]) + shape(POINT, vec(0, 0, 0)) + vec(0, 0, 0) + vec(0, 0, 0) + bytes([5, 2, 0x21])
    + q_ray((-1, 0, 0), (1, 0, 0), 30) + q_sweep(3, capsule((-2, 0, 0), (-2, 0, 1), 0.25), (20, 0, 0), options(0, True))
    + q_contacts(4, box((4, 0, 0), (2, 2, 2)), 0.5),
    "filters": scene_row(0) + bytes([5, 1, 0x12, 5, 3, 0x44, 5, 7, 0x88])
    + q_ray((-1, 0, 0), (1, 0, 0), 30, s_filter(0x0F, 0x0F)) + q_ray((-1, 0, 0), (1, 0, 0), 30, s_filter(0xFF, 0xFF, True, 1))
    + q_sweep(1, sphere((-1, 0, 0), 0.5), (20, 0, 0), NO_OPTIONS, s_filter(0x03, 0xFF, True, 4))
    + q_overlap(3, capsule((0, 0, 0), (18, 0, 0), 1), s_filter(0x05, 0x0A)),
    "far": scene_row(10000, True) + q_ray((9999, 0, 0.1), (1, 0, 0), 20)
    + q_sweep(1, sphere((9999, 0.25, 0), 0.5), (20, 0, 0)) + q_contacts(3, capsule((10000, 0, 0), (10016, 0, 0), 0.5), 0.25),
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
