"""Bad input: a Python exception with a message naming the problem, never
a crash or a NaN passed off as an answer."""
import math

import numpy as np
import pytest


def raises(exc, match, fn, *args, **kw):
    with pytest.raises(exc, match=match):
        fn(*args, **kw)


def test_bad_shapes(sw):
    nan, inf = math.nan, math.inf
    raises(ValueError, "center must be finite", sw.sphere, [0, nan, 0], 1)
    raises(ValueError, "radius must be >= 0", sw.sphere, [0, 0, 0], -1)
    raises(ValueError, "radius must be finite", sw.capsule, [0, 0, 0], [1, 0, 0], inf)
    raises(ValueError, "within", sw.point, [1e200, 0, 0])
    raises(ValueError, "3 components", sw.sphere, [0, 0], 1)
    raises(TypeError, "sequence", sw.sphere, 3, 1)
    raises(TypeError, "real number", sw.sphere, ["a", 0, 0], 1)
    raises(ValueError, "zero quaternion", sw.box, [0, 0, 0], [1, 1, 1], [0, 0, 0, 0])
    raises(ValueError, "half extent|invalid box", sw.box, [0, 0, 0], [1, -1, 1])
    raises(ValueError, "invalid plane", sw.plane, [0, 0, 0], 1)
    raises(ValueError, "invalid polygon", sw.polygon, [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    raises(ValueError, "3 to 64", sw.polygon, [[0, 0, 0], [1, 0, 0]])
    raises(ValueError, "4 to", sw.Hull, [[0, 0, 0]] * 3)
    raises(ValueError, "plane", sw.Hull, [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]])
    raises(ValueError, "not a vertex index", sw.Mesh, [[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 3]])
    raises(ValueError, "not a vertex index", sw.Mesh, [[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, -1]])
    raises(TypeError, "integers", sw.Mesh, [[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0.0, 1.0, 2.0]])
    raises(ValueError, r"shape \(T, 3\)", sw.Mesh, [[0, 0, 0], [1, 0, 0], [0, 1, 0]], [0, 1, 2])
    raises(ValueError, "not finite", sw.Mesh, [[0, 0, nan], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]])


def test_bad_queries(sw):
    a, b = sw.sphere([0, 0, 0], 1), sw.box([3, 0, 0], [1, 1, 1])
    raises(ValueError, "d must be finite", sw.sweep, a, [math.nan, 0, 0], b)
    raises(ValueError, "skin must be >= 0", sw.sweep, a, [1, 0, 0], b, skin=-0.1)
    raises(ValueError, "max must be >= 0", sw.raycast, [0, 0, 0], [1, 0, 0], b, max=-1)
    raises(ValueError, "cannot be the moving shape", sw.sweep, sw.plane([0, 0, 1], 0), [1, 0, 0], b)
    raises(NotImplementedError, "no method", sw.sweep_inside, a, [1, 0, 0], sw.capsule([0, 0, 0], [1, 0, 0], 1))
    raises(TypeError, "sweep shape", sw.sweep, a, [1, 0, 0], "box")
    other = __import__("sweep.double" if sw.precision == "float" else "sweep", fromlist=["x"])
    raises(TypeError, "precision", sw.sweep, a, [1, 0, 0], other.sphere([0, 0, 0], 1))


def test_bad_batches(sw):
    b = sw.sphere([0, 0, 0], 1)
    c, d = np.zeros((4, 3)), np.ones((4, 3))
    raises(ValueError, r"centers must have shape", sw.sweep_spheres, np.zeros((4, 2)), 1, d, b)
    raises(ValueError, r"d must have shape", sw.sweep_spheres, c, 1, np.ones((5, 3)), b)
    raises(ValueError, r"radii must have shape", sw.sweep_spheres, c, np.ones(3), d, b)
    raises(TypeError, "real numbers", sw.sweep_spheres, c.astype(complex), 1, d, b)
    raises(TypeError, "real numbers", sw.sweep_spheres, np.array([["a", "b", "c"]]), 1, d[:1], b)
    raises(TypeError, "real numbers", sw.sweep_spheres, c.astype(object), 1, d, b)
    bad = c.copy()
    bad[2, 1] = np.nan
    raises(ValueError, r"centers\[2\]\[1\] = nan", sw.sweep_spheres, bad, 1, d, b)
    raises(ValueError, r"radii\[3\] = -1 is negative", sw.sweep_spheres, c, np.array([1, 1, 1, -1.0]), d, b)
    raises(ValueError, "radii must be >= 0", sw.sweep_spheres, c, -1, d, b)
    raises(ValueError, r"max\[0\]", sw.raycast_many, c, d, b, max=np.array([-1.0, 1, 1, 1]))
    scene = sw.Scene()
    scene.add(1, b)
    raises(ValueError, "closest' or 'any'", scene.sweep_spheres, c, 1, d, hits="all")
    raises(ValueError, "hits must be", scene.sweep, b, [1, 0, 0], hits="first")
    raises(ValueError, "mask must be", scene.sweep, b, [1, 0, 0], mask=-1)


def test_bad_scene_changes(sw):
    scene = sw.Scene()
    s = sw.sphere([0, 0, 0], 1)
    scene.add(7, s)
    raises(ValueError, "already", scene.add, 7, s)
    raises(KeyError, "key 8", scene.remove, 8)
    raises(KeyError, "key 8", scene.move, 8, s)
    raises(KeyError, "key 8", scene.shape, 8)
    raises(ValueError, "plane", scene.add, 9, sw.plane([0, 0, 1], 0))
    raises(ValueError, "velocity must be finite", scene.move, 7, s, velocity=[math.inf, 0, 0])
    raises(OverflowError, "", scene.add, 2**63, s)
    assert len(scene) == 1 and scene.keys() == [7]
