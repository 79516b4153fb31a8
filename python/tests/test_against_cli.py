"""Every query through the module and through `sweep query`, on the same
random cases: the numbers must be identical (the program prints each
with enough digits to read back to the same value)."""
import numpy as np
import pytest

from conftest import real, run_cli

SHAPE_TYPES = ["point", "segment", "sphere", "capsule", "box", "plane", "triangle", "polygon", "hull", "mesh"]


def rand_vec(rng, scale=2.0):
    # Values the float build holds exactly, so both sides start from the same numbers.
    return [float(np.float32(x)) for x in rng.uniform(-scale, scale, 3)]


def rand_quat(rng):
    q = rng.normal(size=4)
    return [float(np.float32(x)) for x in q / np.linalg.norm(q)]


def make_shape(sw, rng, kind, near):
    """(module shape, protocol JSON) of a random shape of kind near `near`."""
    c = [near[i] + v for i, v in enumerate(rand_vec(rng, 1.0))]
    r = float(np.float32(rng.uniform(0.1, 1.0)))
    if kind == "point":
        return sw.point(c), {"type": "point", "p": c}
    if kind == "segment":
        b = [c[i] + v for i, v in enumerate(rand_vec(rng, 1.0))]
        return sw.segment(c, b), {"type": "segment", "a": c, "b": b}
    if kind == "sphere":
        return sw.sphere(c, r), {"type": "sphere", "center": c, "radius": r}
    if kind == "capsule":
        b = [c[i] + v for i, v in enumerate(rand_vec(rng, 1.0))]
        return sw.capsule(c, b, r), {"type": "capsule", "a": c, "b": b, "radius": r}
    if kind == "box":
        h = [float(np.float32(x)) for x in rng.uniform(0.1, 1.0, 3)]
        q = rand_quat(rng)
        return sw.box(c, h, q), {"type": "box", "center": c, "half": h, "rotation": q}
    if kind == "plane":
        n = [float(np.float32(x)) for x in rng.normal(size=3)]
        return sw.plane(n, -3.0), {"type": "plane", "normal": n, "offset": -3.0}
    if kind == "triangle":
        v = [[c[i] + x for i, x in enumerate(rand_vec(rng, 1.0))] for _ in range(3)]
        return sw.triangle(*v), {"type": "triangle", "v": v}
    if kind == "polygon":
        # A regular hexagon in the plane z = c.z.
        v = [[c[0] + float(np.float32(r * np.cos(a))), c[1] + float(np.float32(r * np.sin(a))), c[2]]
             for a in np.arange(6) * np.pi / 3]
        return sw.polygon(v), {"type": "polygon", "v": v}
    if kind == "hull":
        pts = [rand_vec(rng, 1.0) for _ in range(12)]
        q = rand_quat(rng)
        return sw.Hull(pts).place(c, q), {"type": "hull", "points": pts, "position": c, "rotation": q}
    if kind == "mesh":
        v = [rand_vec(rng, 1.5) for _ in range(8)]
        tri = [[int(i) for i in rng.choice(8, 3, replace=False)] for _ in range(6)]
        q = rand_quat(rng)
        shape = sw.Mesh(v, tri).place(c, q)
        return shape, {"type": "mesh", "v": v, "tri": tri, "position": c, "rotation": q}
    raise AssertionError(kind)


def same(sw, a, b):
    """Module value a (float or tuple) equals protocol value b, read as the module's real type."""
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same(sw, x, y) for x, y in zip(a, b))
    return real(sw, a) == real(sw, b)


def check_hit(sw, h, ans, where):
    assert "error" not in ans, (where, ans)
    assert h.hit == ans["hit"], (where, h, ans)
    if not h.hit:
        return
    assert h.overlapping == ans["overlapping"], where
    for field in ("t", "depth", "point", "normal"):
        assert same(sw, getattr(h, field), ans[field]), (where, field, getattr(h, field), ans[field])
    assert h.feature[0] == ans["feature"]["kind"], where
    if h.feature[0] != "none":
        assert h.feature[1] == ans["feature"]["index"], where
    assert h.triangle == ans.get("triangle", 0), where


def call(fn, *args, **kw):
    try:
        return fn(*args, **kw)
    except (NotImplementedError, ValueError):  # the pair is not answered, or A cannot move
        return None


@pytest.mark.parametrize("seed", [1, 2])
def test_pairs_match_the_program(sw, seed):
    rng = np.random.default_rng(seed)
    cases, requests = [], []
    for b_kind in SHAPE_TYPES:
        for a_kind in SHAPE_TYPES:
            for _ in range(3):
                b, bj = make_shape(sw, rng, b_kind, [0.0, 0.0, 0.0])
                a, aj = make_shape(sw, rng, a_kind, [-3.0, 0.5, 0.0])
                d = [float(np.float32(x)) for x in [6.0, *rng.uniform(-1, 1, 2)]]
                skin = float(np.float32(rng.choice([0.0, 0.05])))
                ign = bool(rng.integers(2))
                cases.append(("sweep", a, d, b, skin, ign))
                requests.append({"op": "sweep", "a": aj, "d": d, "b": bj, "skin": skin, "ignore_separating": ign})
                cases.append(("overlap", a, None, b, 0, False))
                requests.append({"op": "overlap", "a": aj, "b": bj})
                cases.append(("distance", a, None, b, 0, False))
                requests.append({"op": "distance", "a": aj, "b": bj})
                if a_kind == "point":
                    o = aj["p"]
                    cases.append(("raycast", o, d, b, 1.0, False))
                    requests.append({"op": "raycast", "origin": o, "dir": d, "max": 1.0, "b": bj})
                if b_kind in ("sphere", "box") and a_kind in ("point", "sphere", "box", "capsule"):
                    inner, ij = make_shape(sw, rng, a_kind, [0.0, 0.0, 0.0])
                    big, gj = make_shape(sw, rng, b_kind, [0.0, 0.0, 0.0])
                    cases.append(("sweep_inside", inner, d, big, 0, False))
                    requests.append({"op": "sweep_inside", "a": ij, "d": d, "b": gj})
    answers = run_cli(sw.precision, requests)
    compared = 0
    for (op, a, d, b, x, ign), ans, req in zip(cases, answers, requests):
        where = (op, req)
        if op == "sweep":
            h = call(sw.sweep, a, d, b, skin=x, ignore_separating=ign)
        elif op == "raycast":
            h = call(sw.raycast, a, d, b, max=x)
        elif op == "sweep_inside":
            h = call(sw.sweep_inside, a, d, b)
        elif op == "overlap":
            h = call(sw.overlap, a, b)
        else:
            h = call(sw.distance, a, b)
        if h is None:
            assert "error" in ans, where
            continue
        compared += 1
        if op == "overlap":
            assert h.overlapping == ans["overlapping"], where
            if h.overlapping:
                assert same(sw, h.depth, ans["depth"]) and same(sw, h.normal, ans["normal"]), where
                assert same(sw, h.point, ans["point"]), where
        elif op == "distance":
            assert same(sw, h.distance, ans["distance"]), where
            assert same(sw, h.point_a, ans["point_a"]) and same(sw, h.point_b, ans["point_b"]), where
        else:
            check_hit(sw, h, ans, where)
    assert compared > 600


@pytest.mark.parametrize("hits", ["closest", "any", "all"])
def test_scenes_match_the_program(sw, hits):
    rng = np.random.default_rng(7)
    scene, shapes_json = sw.Scene(), []
    kinds = [k for k in SHAPE_TYPES if k != "plane"]
    for key in range(60):
        s, sj = make_shape(sw, rng, kinds[key % len(kinds)], rand_vec(rng, 6.0))
        scene.add(key, s)
        shapes_json.append(dict(sj, key=key))
    scene.optimize()  # as the program does after loading a scene
    requests = [{"op": "scene_create", "scene": "s", "shapes": shapes_json}]
    queries = []
    for i in range(80):
        a, aj = make_shape(sw, rng, ["sphere", "capsule", "box", "hull"][i % 4], rand_vec(rng, 6.0))
        d = rand_vec(rng, 6.0)
        queries.append(("sweep", a, d))
        requests.append({"op": "sweep", "a": aj, "d": d, "scene": "s", "hits": hits})
        o = rand_vec(rng, 6.0)
        queries.append(("raycast", o, d))
        requests.append({"op": "raycast", "origin": o, "dir": d, "max": 2.0, "scene": "s", "hits": hits})
        queries.append(("overlap", a, None))
        requests.append({"op": "overlap", "a": aj, "scene": "s"})
        queries.append(("distance", a, None))
        requests.append({"op": "distance", "a": aj, "scene": "s"})
    answers = run_cli(sw.precision, requests)[1:]
    for (op, a, d), ans, req in zip(queries, answers, requests[1:]):
        where = (op, req)
        if op in ("sweep", "raycast"):
            r = scene.sweep(a, d, hits=hits) if op == "sweep" else scene.raycast(a, d, 2.0, hits=hits)
            if hits == "all":
                assert len(r) == len(ans["hits"]), where
                for h, aa in zip(r, ans["hits"]):
                    check_hit(sw, h, aa, where)
                    assert h.key == aa["key"], where
            elif r is None:
                assert ans["hit"] is False, where
            else:
                check_hit(sw, r, ans, where)
                assert r.key == ans["key"], where
        elif op == "overlap":
            r = scene.overlap(a)
            assert [o.key for o in r] == [o["key"] for o in ans["overlaps"]], where
            for o, aa in zip(r, ans["overlaps"]):
                assert same(sw, o.depth, aa["depth"]) and same(sw, o.normal, aa["normal"]), where
        else:
            r = scene.closest(a)
            assert r.key == ans["key"] and same(sw, r.distance, ans["distance"]), where
            assert same(sw, r.point_a, ans["point_a"]) and same(sw, r.point_b, ans["point_b"]), where
