#!/usr/bin/env python3
"""Every include of core/ points down (issue 47 item 6): core's folders are layers, lowest first, and a file
may include its own folder and the folders below it, never one above. A circle between two folders (the
analysis run reaching up into architecture, architecture's files including each other's headers) cannot
come back unnoticed, nor can a new folder without a place in the order.

Usage: check_core_layers.py SOURCE_DIR
"""
import pathlib
import re
import sys

# Lowest first; the order is core/README.md "Layers".
LAYERS = ["i18n", "model", "io", "analysis", "architecture", "replay", "pipeline", "report", "compare", "cluster",
          "gate"]
# Within core/architecture the files are layered too (the circle of issue 47): kernel_roles at the bottom,
# architecture_analysis at the top.
ARCH_FILES = ["architecture_model", "kernel_roles", "layer_types", "structures", "comm_pipeline",
              "architecture_analysis"]

root = pathlib.Path(sys.argv[1]) / "core"
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z0-9_]+)/([A-Za-z0-9_.]+)"', re.M)
problems = []
folders = sorted(p.name for p in root.iterdir() if p.is_dir())
for f in folders:
    if f not in LAYERS:
        problems.append(f"core/{f}/ has no place in the layer order (tests/docs/check_core_layers.py, core/README.md)")
files = 0
for path in sorted(root.glob("*/*")):
    if path.suffix not in (".h", ".cpp", ".inc") or path.parent.name not in LAYERS:
        continue
    files += 1
    here = path.parent.name
    text = path.read_text(encoding="utf-8", errors="replace")
    for folder, name in INCLUDE.findall(text):
        if folder not in LAYERS:
            continue
        if LAYERS.index(folder) > LAYERS.index(here):
            problems.append(f"core/{here}/{path.name} includes {folder}/{name}: {folder} is above {here}")
        if here == folder == "architecture":
            a, b = path.stem, pathlib.Path(name).stem
            if a in ARCH_FILES and b in ARCH_FILES and ARCH_FILES.index(b) > ARCH_FILES.index(a):
                problems.append(f"core/architecture/{path.name} includes {name}, which is above it")
if files < 20:
    problems.append(f"only {files} core files were read: is {root} the source tree?")
if problems:
    print("\n".join(problems))
    sys.exit(1)
print(f"{files} core files; every include points down ({' < '.join(LAYERS)})")
