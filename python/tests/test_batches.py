"""Batches against one-by-one calls: every record identical to the single
call's answer, for spheres, capsules and rays, against one shape and
against a scene, on one thread and on several."""
import numpy as np
import pytest


def one_shape_targets(sw):
    hull = sw.Hull(np.random.default_rng(3).normal(size=(30, 3)))
    v = np.array([[0, 0, 0], [4, 0, 0], [0, 4, 0], [4, 4, 0.5]], float)
    mesh = sw.Mesh(v, [[0, 1, 2], [1, 3, 2]])
    return [sw.sphere([1, 0, 0], 1.5), sw.box([1, 0, 0], [1, 2, 0.5], [0.1, 0.2, 0.3, 0.9]),
            sw.capsule([0, -1, 0], [2, 1, 0], 0.7), sw.triangle([0, -2, -1], [3, 2, 0], [-1, 2, 1]),
            hull.place([1, 0, 0]), mesh.place([-1, -1, 0])]


def fields_equal(rec, h):
    return (bool(rec["hit"]) == h.hit and bool(rec["overlapping"]) == h.overlapping and rec["t"] == h.t
            and rec["depth"] == h.depth and tuple(rec["point"]) == h.point and tuple(rec["normal"]) == h.normal
            and int(rec["triangle"]) == h.triangle and int(rec["feature_index"]) == h.feature[1]
            and ["none", "vertex", "edge", "face"][rec["feature_kind"]] == h.feature[0])


def inputs(n, seed):
    rng = np.random.default_rng(seed)
    c = rng.uniform(-4, 4, (n, 3))
    d = rng.uniform(-6, 6, (n, 3))
    r = rng.uniform(0, 0.8, n)
    return c, d, r


def test_pair_batches_equal_single_calls(sw):
    c, d, r = inputs(300, 1)
    p1 = c + np.random.default_rng(2).uniform(-1, 1, c.shape)
    for b in one_shape_targets(sw):
        recs = sw.sweep_spheres(c, r, d, b, skin=0.01)
        hits = 0
        for i in range(len(c)):
            h = sw.sweep(sw.sphere(c[i], r[i]), d[i], b, skin=0.01)
            assert fields_equal(recs[i], h), (b, i)
            hits += h.hit
        assert 0 < hits < len(c), b  # the inputs reach both answers
        recs = sw.sweep_capsules(c, p1, 0.25, d, b, ignore_separating=True)
        for i in range(len(c)):
            h = sw.sweep(sw.capsule(c[i], p1[i], 0.25), d[i], b, ignore_separating=True)
            assert fields_equal(recs[i], h), (b, i)
        recs = sw.raycast_many(c, d, b, max=r * 2)
        for i in range(len(c)):
            assert fields_equal(recs[i], sw.raycast(c[i], d[i], b, max=r[i] * 2)), (b, i)


def make_scene(sw, n, seed):
    rng = np.random.default_rng(seed)
    scene = sw.Scene()
    hull = sw.Hull(rng.normal(size=(20, 3)) * 0.5)
    for key in range(n):
        p = rng.uniform(-20, 20, 3)
        kind = key % 4
        if kind == 0:
            s = sw.sphere(p, rng.uniform(0.2, 1))
        elif kind == 1:
            s = sw.box(p, rng.uniform(0.2, 1, 3))
        elif kind == 2:
            s = sw.capsule(p, p + rng.uniform(-1, 1, 3), 0.3)
        else:
            s = hull.place(p)
        scene.add(key * 3 - 50, s, category=1 << (key % 3))
    scene.optimize()
    return scene


@pytest.mark.parametrize("threads", [1, 3])
@pytest.mark.parametrize("hits", ["closest", "any"])
def test_scene_batches_equal_single_calls(sw, threads, hits):
    scene = make_scene(sw, 200, 4)
    c, d, r = inputs(500, 5)
    c *= 5
    d *= 3
    p1 = c + 0.5
    recs = scene.sweep_spheres(c, r, d, hits=hits, threads=threads, mask=0b101)
    found = 0
    for i in range(len(c)):
        h = scene.sweep(sw.sphere(c[i], r[i]), d[i], hits=hits, mask=0b101)
        if h is None:
            assert not recs[i]["hit"] and recs[i]["key"] == 0
        else:
            found += 1
            assert fields_equal(recs[i], h) and recs[i]["key"] == h.key, i
            assert (h.key + 50) // 3 % 3 != 1  # the mask left out category 2
    assert 0 < found < len(c)
    recs = scene.sweep_capsules(c, p1, r, d, hits=hits, threads=threads)
    for i in range(len(c)):
        h = scene.sweep(sw.capsule(c[i], p1[i], r[i]), d[i], hits=hits)
        assert (h is None and not recs[i]["hit"]) or (fields_equal(recs[i], h) and recs[i]["key"] == h.key), i
    recs = scene.raycast_many(c, d, 1.0, hits=hits, threads=threads)
    for i in range(len(c)):
        h = scene.raycast(c[i], d[i], 1.0, hits=hits)
        assert (h is None and not recs[i]["hit"]) or (fields_equal(recs[i], h) and recs[i]["key"] == h.key), i


def test_batch_dtypes_and_layouts(sw):
    b = sw.sphere([0, 0, 0], 1)
    c, d, r = inputs(50, 9)
    want = sw.sweep_spheres(c, r, d, b)
    # Other dtypes and memory layouts give the same answers as float64 C-order.
    for cc, dd in [(c.astype(np.float32), d.astype(np.float32)), (np.asfortranarray(c), d[:, :]),
                   (np.ascontiguousarray(c[::-1])[::-1], d)]:
        got = sw.sweep_spheres(cc, r, dd, b)
        if cc.dtype == np.float32 and sw.precision == "double":
            continue  # rounded inputs: other answers
        assert (got == want).all()
    ints = sw.sweep_spheres(np.zeros((2, 3), np.int32), 1, np.array([[3, 0, 0], [0, 0, 3]], np.int64), sw.box([2, 0, 0], [0.5, 0.5, 0.5]))
    assert ints["hit"].tolist() == [True, False]
    assert sw.sweep_spheres(np.zeros((0, 3)), 1.0, np.zeros((0, 3)), b).shape == (0,)
    assert want.dtype == sw.hit_dtype
    assert want["t"].dtype == (np.float32 if sw.precision == "float" else np.float64)


def test_batches_release_the_gil(sw):
    """Two Python threads run batches on one scene at once and get the
    answers of one thread alone."""
    import threading
    scene = make_scene(sw, 300, 6)
    c, d, r = inputs(20000, 7)
    want = scene.sweep_spheres(c, r, d)
    got = [None, None]

    def work(k):
        got[k] = scene.sweep_spheres(c, r, d)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert (got[0] == want).all() and (got[1] == want).all()
