"""The README's Python example runs and prints what the README says."""
import os
import re
import subprocess
import sys

from conftest import ROOT


def test_readme_example():
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    m = re.search(r"<!-- python:begin -->\s*```python\n(.*?)```\s*<!-- python:end -->", text, re.S)
    assert m, "README.md: no Python example between the python markers"
    out = subprocess.run([sys.executable, "-c", m.group(1)], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["t = 0.35, normal = (-1.0, 0.0, 0.0)", "2 0.15 1000000"], out
