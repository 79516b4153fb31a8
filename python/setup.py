"""Builds the sweep module's two extensions, sweep._float and sweep._double.

Each is the library (from the single header, generated here from the
repository's sources by scripts/single_header.py), the module's C code
(src/) and the mesh-file reader of the tools (tools/meshio, over assimp),
compiled with the numpy headers of the interpreter that runs the build.
Build from the repository (the sources are read from ..):

    python3 -m pip install --no-build-isolation --no-index ./python
"""
import os
import subprocess
import sys

import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
GENERATOR = os.path.join(ROOT, "scripts", "single_header.py")


class BuildWithSingleHeader(build_ext):
    """Generates sweep.h into the build directory before compiling."""

    def run(self):
        if not os.path.isfile(GENERATOR):
            sys.exit("sweep: build the module from the repository (scripts/single_header.py not found)")
        out_dir = os.path.join(os.path.abspath(self.build_temp), "single")
        subprocess.check_call([sys.executable, GENERATOR, os.path.join(out_dir, "sweep.h")])
        for ext in self.extensions:
            ext.include_dirs.insert(0, out_dir)
            ext.depends.append(os.path.join(out_dir, "sweep.h"))
        super().run()


def extension(precision):
    return Extension(
        f"sweep._{precision}",
        sources=[f"src/{precision}.c", f"src/lib_{precision}.c", f"src/meshio_{precision}.c"],
        include_dirs=[numpy.get_include(), os.path.join(ROOT, "include"), os.path.join(ROOT, "tools", "meshio")],
        depends=[os.path.join("src", f) for f in ("module.c", "batch.c", "scene.c")]
        + [os.path.join(ROOT, "tools", "meshio", f) for f in ("meshio.c", "meshio.h")],
        libraries=["assimp", "m"],
        # Warnings are errors, as in the library's own builds; -fno-math-errno
        # lets sqrt be one instruction (the answers do not change).
        extra_compile_args=["-std=c11", "-fno-math-errno", "-Wall", "-Wextra", "-Werror", "-Wno-unused-function",
                            "-Wno-missing-field-initializers", "-Wno-cast-function-type"],
    )


setup(
    ext_modules=[extension("float"), extension("double")],
    cmdclass={"build_ext": BuildWithSingleHeader},
)
