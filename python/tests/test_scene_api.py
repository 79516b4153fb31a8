"""Scenes from Python: adding, moving and removing shapes, velocities,
filters, every query and its order, and shapes kept alive by the scene."""
import gc

import numpy as np

from conftest import real


def test_changes_and_queries(sw):
    scene = sw.Scene()
    mesh = sw.Mesh([[0, -5, -5], [0, 5, -5], [0, -5, 5], [0, 5, 5]], [[0, 1, 2], [1, 3, 2]])
    scene.add(10, mesh.place([6, 0, 0]), category=2)
    scene.add(-3, sw.box([3, 0, 0], [0.5, 0.5, 0.5]), category=1)
    scene.add(2**62, sw.sphere([0, 4, 0], 1))
    del mesh
    gc.collect()  # the scene keeps the mesh alive
    a = sw.sphere([0, 0, 0], 0.5)
    h = scene.sweep(a, [10, 0, 0])
    assert h.key == -3 and h.t == real(sw, 0.2) and h.normal == (-1, 0, 0)
    assert scene.sweep(a, [10, 0, 0], mask=2).key == 10
    assert scene.sweep(a, [10, 0, 0], mask=4) is None
    assert [x.key for x in scene.sweep(a, [10, 0, 0], hits="all")] == [-3, 10]
    assert scene.raycast([0, 0, 0], [1, 0, 0], 10).key == -3
    assert scene.raycast([0, 0, 0], [0, 1, 0], 10).t == 3
    # Move the box up with a velocity: the hit carries it.
    scene.move(-3, sw.box([3, 0, 0], [0.5, 0.5, 0.5]), velocity=[0, 1, 0], angular_velocity=[0, 0, 2])
    h = scene.sweep(a, [10, 0, 0])
    assert h.velocity == (0, 1, 0) and h.angular_velocity == (0, 0, 2)
    assert h.point_velocity == (0, 1 + 2 * -0.5, 0)  # v + w x (p - c), p - c = (-0.5, 0, 0)
    scene.remove(-3)
    assert scene.sweep(a, [10, 0, 0]).key == 10 and len(scene) == 2 and -3 not in scene
    assert [o.key for o in scene.overlap(sw.sphere([0, 4, 0], 0.5))] == [2**62]
    c = scene.closest(a)
    assert c.key == 2**62 and c.distance == 2.5
    assert scene.closest(a, max_distance=1) is None
    contacts = scene.contacts(sw.sphere([5.5, 0, 0], 0.4), 0.2)
    assert [k.key for k in contacts] == [10] and abs(contacts[0].distance - 0.1) < 1e-6
    scene.set_filter(10, category=8)
    assert scene.sweep(a, [10, 0, 0], mask=2) is None
    assert scene.shape(2**62).type == "sphere"
    scene.optimize()
    assert scene.keys() == [10, 2**62]


def test_many_hits_grow_past_the_first_buffer(sw):
    scene = sw.Scene()
    for k in range(100):
        scene.add(k, sw.sphere([k * 0.1, 0, 0], 0.5))
    a = sw.sphere([0, 0, 0], 0.5)
    assert len(scene.overlap(a)) == 11  # touching counts: centres 0 to 1.0
    assert len(scene.sweep(a, [20, 0, 0], hits="all")) == 100
    assert len(scene.contacts(a, 10)) == 100


def test_scene_batch_keys_and_velocities(sw):
    scene = sw.Scene()
    scene.add(5, sw.box([3, 0, 0], [1, 1, 1]))
    scene.move(5, sw.box([3, 0, 0], [1, 1, 1]), velocity=[0, 0, 1])
    r = scene.sweep_spheres(np.zeros((2, 3)), 0.5, np.array([[5.0, 0, 0], [0, 5.0, 0]]))
    assert r["key"].tolist() == [5, 0] and r["hit"].tolist() == [True, False]
    assert r["velocity"][0].tolist() == [0, 0, 1] and r["t"][0] == np.array(0.3, r["t"].dtype)
