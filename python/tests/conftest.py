"""Shared fixtures: both builds of the module, and the `sweep` program of
the same precision (SWEEP_CLI_FLOAT / SWEEP_CLI_DOUBLE, by default the
test builds' programs under build/), to compare answers with."""
import functools
import json
import os
import subprocess

import numpy as np
import pytest

import sweep
import sweep.double

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODULES = {"float": sweep, "double": sweep.double}
CLI_DEFAULT = {
    "float": os.path.join(ROOT, "build", "test-float", "tools", "sweep", "sweep"),
    "double": os.path.join(ROOT, "build", "test-double", "tools", "sweep", "sweep"),
}


@pytest.fixture(params=["float", "double"])
def sw(request):
    """The module of each precision."""
    return MODULES[request.param]


def cli_path(precision):
    path = os.environ.get(f"SWEEP_CLI_{precision.upper()}", CLI_DEFAULT[precision])
    if not os.access(path, os.X_OK):
        pytest.fail(f"the {precision} sweep program is not at {path}: build it (make test-{precision}) "
                    f"or set SWEEP_CLI_{precision.upper()}")
    return path


@functools.lru_cache(maxsize=None)
def checked_cli(precision):
    """The program of that precision, its --version asked once per run."""
    path = cli_path(precision)
    version = subprocess.run([path, "--version"], capture_output=True, text=True).stdout
    assert precision in version, f"{path} is not the {precision} build: {version}"
    return path


def run_cli(precision, requests):
    """Answers of `sweep query` to the requests (dicts), one per request."""
    text = "".join(json.dumps(r) + "\n" for r in requests)
    proc = subprocess.run([checked_cli(precision), "query"], input=text, capture_output=True, text=True, check=False)
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == len(requests), proc.stderr
    return answers


def real(sw, x):
    """x as the module's real type, as a Python float."""
    return float(np.float32(x)) if sw.precision == "float" else float(x)
