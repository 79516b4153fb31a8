#!/usr/bin/env python3
"""Plots how mesh and scene queries grow with size, from `sweep bench --json`.

    sweep bench --json --runs 5 --filter terrain > mesh.jsonl
    sweep bench --json --runs 5 --filter scene > scene.jsonl
    python3 scripts/plot_growth.py mesh.jsonl scene.jsonl > docs/growth.svg

Two panels, ns per query against triangles (meshes: the terrain rows) and
objects (scenes: the growth rows, optimized, one thread), both axes
logarithmic, so a logarithmic growth shows as a flat, slowly rising line.
Standard library only: the SVG is written by hand.
"""
import json
import math
import sys


def series(lines, size_key, b):
    """{(op, a): [(size, ns)]} of the growth rows of one kind."""
    out = {}
    for line in lines:
        row = json.loads(line)
        if row.get("b") != b or size_key not in row or "ns" not in row:
            continue
        if row.get("op") not in ("raycast", "sweep") or "threads" in row or row.get("optimized") is False:
            continue
        if b == "mesh" and not str(row.get("mesh", "")).startswith("terrain"):
            continue
        if b == "mesh" and row.get("a") == "capsule":
            continue
        out.setdefault((row["op"], row["a"]), []).append((row[size_key], row["ns"]))
    return {k: sorted(v) for k, v in out.items()}


def panel(x0, title, xlabel, data):
    """SVG of one panel whose left edge is at x0."""
    w, h, left, bottom, top = 420, 300, 60, 50, 30
    pts = [p for v in data.values() for p in v]
    if not pts:
        return ""
    lx = [math.log10(p[0]) for p in pts]
    ly = [math.log10(p[1]) for p in pts]
    xmin, xmax = math.floor(min(lx)), math.ceil(max(lx))
    ymin, ymax = math.floor(min(ly)), math.ceil(max(ly))

    def px(v):
        return x0 + left + (math.log10(v) - xmin) / (xmax - xmin) * (w - left - 20)

    def py(v):
        return top + (ymax - math.log10(v)) / (ymax - ymin) * (h - top - bottom)

    s = [f'<text x="{x0 + w / 2}" y="18" text-anchor="middle" font-size="14">{title}</text>']
    s.append(f'<rect x="{x0 + left}" y="{top}" width="{w - left - 20}" height="{h - top - bottom}" '
             'fill="none" stroke="#888"/>')
    for e in range(xmin, xmax + 1):
        x = px(10 ** e)
        s.append(f'<line x1="{x}" y1="{h - bottom}" x2="{x}" y2="{h - bottom + 5}" stroke="#888"/>')
        s.append(f'<text x="{x}" y="{h - bottom + 18}" text-anchor="middle" font-size="11">1e{e}</text>')
    for e in range(ymin, ymax + 1):
        y = py(10 ** e)
        s.append(f'<line x1="{x0 + left - 5}" y1="{y}" x2="{x0 + left}" y2="{y}" stroke="#888"/>')
        s.append(f'<text x="{x0 + left - 8}" y="{y + 4}" text-anchor="end" font-size="11">{10 ** e:g}</text>')
    s.append(f'<text x="{x0 + w / 2}" y="{h - 12}" text-anchor="middle" font-size="12">{xlabel}</text>')
    s.append(f'<text x="{x0 + 14}" y="{(top + h - bottom) / 2}" font-size="12" text-anchor="middle" '
             f'transform="rotate(-90 {x0 + 14} {(top + h - bottom) / 2})">ns per query</text>')
    colors = ["#1f6fd1", "#d1491f", "#2a9d4b", "#8a3fc1"]
    for i, ((op, a), v) in enumerate(sorted(data.items())):
        c = colors[i % len(colors)]
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in v)
        s.append(f'<polyline points="{path}" fill="none" stroke="{c}" stroke-width="2"/>')
        for x, y in v:
            s.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{c}"/>')
        name = "rays" if op == "raycast" else f"{a} sweeps"
        s.append(f'<text x="{x0 + left + 10}" y="{top + 16 + 15 * i}" font-size="12" fill="{c}">{name}</text>')
    return "\n".join(s)


def main():
    lines = []
    for path in sys.argv[1:]:
        with open(path) as f:
            lines += [l for l in f if l.strip().startswith("{")]
    body = panel(0, "meshes (terrains)", "triangles", series(lines, "triangles", "mesh"))
    body += panel(440, "scenes (W8 density)", "objects", series(lines, "objects", "scene"))
    print('<svg xmlns="http://www.w3.org/2000/svg" width="860" height="300" font-family="sans-serif">')
    print('<rect width="860" height="300" fill="white"/>')
    print(body)
    print("</svg>")


if __name__ == "__main__":
    main()
