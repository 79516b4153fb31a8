#!/usr/bin/env python3
"""Hash of the library's answers, to show that a change keeps behaviour
bit for bit (a refactoring, a split of files, a new layout).

    python3 scripts/answer_hash.py PATH/TO/sweep [COUNT] [--keep FILE]

Writes COUNT (default 60000) requests from a fixed seed — every operation
(sweep with and without skin and ignore_separating, raycast, sweep_inside,
overlap, distance) on every pair of shape types, touching, grazing,
overlapping and far from the origin, and queries over a scene — runs them
through `sweep query`, and prints the SHA-256 of its answers. The program
prints every number so that it reads back to the same value, so two
builds with equal hashes gave the same answers to the last bit. Run it
with the float and the double program, before and after the change.
Only the standard library is used.
"""
import hashlib
import json
import math
import random
import struct
import subprocess
import sys

TYPES = ["point", "segment", "sphere", "capsule", "box", "plane", "triangle", "polygon", "hull", "mesh"]


def f32(x):
    # Values a float holds exactly, so both precisions start from the same numbers.
    return struct.unpack("f", struct.pack("f", x))[0]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def num(self, lo, hi):
        return f32(self.r.uniform(lo, hi))

    def vec(self, c=(0, 0, 0), s=1.0):
        return [f32(c[i] + self.r.uniform(-s, s)) for i in range(3)]

    def quat(self):
        q = [self.r.gauss(0, 1) for _ in range(4)]
        n = math.sqrt(sum(x * x for x in q)) or 1.0
        return [f32(x / n) for x in q]

    def shape(self, kind, c, s):
        r = self.num(0.05 * s, 0.8 * s)
        if kind == "point":
            return {"type": "point", "p": self.vec(c, s)}
        if kind == "segment":
            return {"type": "segment", "a": self.vec(c, s), "b": self.vec(c, s)}
        if kind == "sphere":
            return {"type": "sphere", "center": self.vec(c, s), "radius": r}
        if kind == "capsule":
            return {"type": "capsule", "a": self.vec(c, s), "b": self.vec(c, s), "radius": r}
        if kind == "box":
            return {"type": "box", "center": self.vec(c, s), "half": [self.num(0.05 * s, s) for _ in range(3)],
                    "rotation": self.quat()}
        if kind == "plane":
            n = self.vec((0, 0, 0), 1.0)
            if not any(n):
                n = [0.0, 0.0, 1.0]
            return {"type": "plane", "normal": n, "offset": f32(sum(n[i] * c[i] for i in range(3)) - s)}
        if kind == "triangle":
            return {"type": "triangle", "v": [self.vec(c, s) for _ in range(3)],
                    "one_sided": self.r.random() < 0.3}
        if kind == "polygon":
            k = self.r.randint(3, 8)
            ang = sorted(self.r.uniform(0, 2 * math.pi) for _ in range(k))
            if len(set(ang)) < 3:
                ang = [0, 2, 4]
            return {"type": "polygon", "v": [[f32(c[0] + r * math.cos(a)), f32(c[1] + r * math.sin(a)), f32(c[2])]
                                             for a in ang]}
        if kind == "hull":
            n = self.r.choice([4, 8, 16, 32])
            return {"type": "hull", "points": [self.vec((0, 0, 0), s) for _ in range(n)], "position": self.vec(c, 0.1),
                    "rotation": self.quat()}
        if kind == "mesh":
            v = [self.vec((0, 0, 0), s) for _ in range(6)]
            tri = [self.r.sample(range(6), 3) for _ in range(5)]
            return {"type": "mesh", "v": v, "tri": tri, "position": self.vec(c, 0.1), "rotation": self.quat(),
                    "one_sided": self.r.random() < 0.3}
        raise AssertionError(kind)


def requests(count):
    g = Gen(20261129)
    out = []
    scene = [dict(g.shape(t, g.vec((0, 0, 0), 20), 1.0), key=k)
             for k, t in enumerate(t for t in TYPES * 20 if t != "plane")]
    out.append({"op": "scene_create", "scene": "s", "shapes": scene})
    while len(out) < count:
        a_kind, b_kind = g.r.choice(TYPES), g.r.choice(TYPES)
        far = g.r.choice([0.0, 0.0, 0.0, 1e3, 1e5])
        c = [far, -far, far / 2]
        s = g.r.choice([1.0, 1.0, 0.01, 50.0])
        b = g.shape(b_kind, c, s)
        a = g.shape(a_kind, g.vec(c, 2 * s), s)
        d = g.vec((0, 0, 0), 4 * s)
        if g.r.random() < 0.1:
            d = [0.0, 0.0, 0.0]
        op = g.r.choice(["sweep", "sweep", "sweep", "raycast", "overlap", "distance", "inside", "scene"])
        if op == "sweep":
            req = {"op": "sweep", "a": a, "d": d, "b": b}
            if g.r.random() < 0.3:
                req["skin"] = g.num(0, 0.1 * s)
            if g.r.random() < 0.3:
                req["ignore_separating"] = True
        elif op == "raycast":
            req = {"op": "raycast", "origin": g.vec(c, 2 * s), "dir": d, "max": g.num(0, 2), "b": b}
        elif op == "inside":
            req = {"op": "sweep_inside", "a": g.shape(g.r.choice(["point", "sphere", "capsule", "box"]), c, 0.3 * s),
                   "d": d, "b": g.shape(g.r.choice(["sphere", "box"]), c, 2 * s)}
        elif op == "scene":
            q = g.shape(g.r.choice(["sphere", "capsule", "box", "hull"]), g.vec((0, 0, 0), 25), 1.0)
            kind = g.r.choice(["sweep", "raycast", "overlap", "distance"])
            req = {"op": kind, "scene": "s"}
            if kind == "sweep":
                req.update(a=q, d=g.vec((0, 0, 0), 30), hits=g.r.choice(["closest", "all", "any"]))
            elif kind == "raycast":
                req.update(origin=g.vec((0, 0, 0), 25), dir=g.vec((0, 0, 0), 30), hits=g.r.choice(["closest", "all"]))
            else:
                req.update(a=q)
        else:
            req = {"op": op, "a": a, "b": b}
        req["id"] = len(out)
        out.append(req)
    return out


def main():
    args = [x for x in sys.argv[1:] if not x.startswith("--")]
    if not args:
        sys.exit(__doc__)
    program = args[0]
    count = int(args[1]) if len(args) > 1 else 60000
    text = "".join(json.dumps(r) + "\n" for r in requests(count))
    proc = subprocess.run([program, "query"], input=text.encode(), capture_output=True, check=False)
    answers = proc.stdout
    if "--keep" in sys.argv:
        with open(sys.argv[sys.argv.index("--keep") + 1], "wb") as f:
            f.write(answers)
    lines = answers.count(b"\n")
    errors = answers.count(b'"error"')
    print(f"{hashlib.sha256(answers).hexdigest()}  {lines} answers ({errors} errors) from {program}")


if __name__ == "__main__":
    main()
