"""sweep: exact, fast, robust sweep tests, ray casts, overlap and distance
queries between shapes, meshes and scenes, with numpy batches.

``import sweep`` gives the float build (the C library's default);
``import sweep.double`` gives the double build, with the same names. The
two are separate modules: shapes, hulls, meshes and scenes of one cannot
be given to the other.

A shape moves along a straight path d for t in [0, 1]; the answer says
when it first touches B, where and with which normal (from B toward A).
See the README's Python section and docs/python.md.
"""
from ._float import *  # noqa: F401,F403
from ._float import __version__, precision  # noqa: F401
