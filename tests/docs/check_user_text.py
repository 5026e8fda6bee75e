#!/usr/bin/env python3
"""Every user-visible output speaks for itself: no "seed", no "problem N" and no name of a document the user
does not have (our specs); every reference to our own docs resolves to a heading of docs/collection-problems.md.

Runs `bubblescope analyze` (text, JSON, Markdown report, architecture report, stderr) over the sample,
every real rank, a generated profile with every planted anomaly and the broken collections that raise
the most findings (trace only, Level0, empty output folder, garbage trace, truncated trace), and reads the
GUI strings of the zh_CN .ts file (source and translation).

Usage: check_user_text.py BUBBLESCOPE SYNTH SOURCE_DIR REALDATA WORK_DIR
"""
import os, re, shutil, subprocess, sys

bs, synth, src, realdata, work = sys.argv[1:6]
FORBIDDEN = [re.compile(r"\bseed(s|ed)?\b", re.I), re.compile(r"\bproblem \d\b", re.I),
             re.compile(r"\b00[0-3]_[0-9a-f]{6}"), re.compile(r"SKILL\.md|cannbot", re.I),
             re.compile(r"\b(ANALYSIS|FORMATS|STYLE)\.md\b")]
REF = re.compile(r"collection-problems\.md(?:#([a-z0-9-]+)|, \\?\"([^\"\\]+)\\?\")")

def anchor(title):
    t = title.strip().lower()
    t = re.sub(r"[^a-z0-9 -]", "", t)
    return t.replace(" ", "-")

doc = open(os.path.join(src, "docs", "collection-problems.md"), encoding="utf-8").read()
titles = [m.group(1) for m in re.finditer(r"^## (.+)$", doc, re.M)]
anchors = {anchor(t) for t in titles}
problems = []

def check(label, text):
    for rx in FORBIDDEN:
        for m in rx.finditer(text):
            ctx = text[max(0, m.start() - 60): m.end() + 60].replace("\n", " ")
            problems.append(f"{label}: '{m.group(0)}' in …{ctx}…")
    for m in REF.finditer(text):
        a, t = m.group(1), m.group(2)
        if a is not None and a not in anchors:
            problems.append(f"{label}: reference #{a} is not a heading of docs/collection-problems.md")
        if t is not None and t not in titles:
            problems.append(f"{label}: section \"{t}\" is not a heading of docs/collection-problems.md")
    return len(REF.findall(text))

shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
inputs = [os.path.join(src, "resources", "sample", "sample_ascend_pt")]
for root, dirs, _ in os.walk(realdata):
    for d in dirs:
        if d.endswith("_ascend_pt") or d.startswith("PROF_"):
            inputs.append(os.path.join(root, d))
gen = os.path.join(work, "gen")
subprocess.run([synth, "--out", gen, "--name", "all", "--dense", "2", "--dfc", "3", "--steps", "3",
                "--anomalies", "all"], check=True, stdout=subprocess.DEVNULL)
subprocess.run([synth, "--out", gen, "--name", "cut", "--dense", "2", "--steps", "3", "--truncate", "0.6"],
               check=True, stdout=subprocess.DEVNULL)
subprocess.run([synth, "--out", gen, "--name", "lv0", "--dense", "2", "--steps", "3", "--level0"],
               check=True, stdout=subprocess.DEVNULL)
inputs += [os.path.join(gen, n) for n in ("all_ascend_pt", "cut_ascend_pt", "lv0_ascend_pt")]
# trace only: a real rank's timeline without its CSV files
real_l1 = os.path.join(realdata, "torch_npu_resnet_ddp", "level1", "rank0_ascend_pt")
to = os.path.join(work, "traceonly_ascend_pt", "ASCEND_PROFILER_OUTPUT")
os.makedirs(to)
shutil.copy(os.path.join(real_l1, "ASCEND_PROFILER_OUTPUT", "trace_view.json"), to)
inputs.append(os.path.dirname(to))
os.makedirs(os.path.join(work, "empty_ascend_pt", "ASCEND_PROFILER_OUTPUT"))
inputs.append(os.path.join(work, "empty_ascend_pt"))
g = os.path.join(work, "garbage_ascend_pt", "ASCEND_PROFILER_OUTPUT")
os.makedirs(g)
open(os.path.join(g, "trace_view.json"), "wb").write(b"\x00\x01garbage")
inputs.append(os.path.dirname(g))

refs = 0
outdir = os.path.join(work, "out")
for i, path in enumerate(inputs):
    o = os.path.join(outdir, str(i))
    os.makedirs(o)
    r = subprocess.run([bs, "analyze", path, "--json", os.path.join(o, "a.json"), "--report",
                        os.path.join(o, "r.md"), "--arch", o], capture_output=True, text=True,
                       errors="replace", timeout=300)
    refs += check(f"{path} (text)", r.stdout) + check(f"{path} (stderr)", r.stderr)
    if r.returncode not in (0, 3):
        problems.append(f"{path}: exit {r.returncode}: {r.stderr[:300]}")
    for f in sorted(os.listdir(o)):
        refs += check(f"{path} ({f})", open(os.path.join(o, f), encoding="utf-8", errors="replace").read())

ts = open(os.path.join(src, "translations", "bubblescope_zh_CN.ts"), encoding="utf-8").read()
for m in re.finditer(r"<(source|translation)[^>]*>(.*?)</\1>", ts, re.S):
    check("GUI string (translations/bubblescope_zh_CN.ts)", m.group(2))

if problems:
    print("\n".join(problems))
    sys.exit(1)
if refs == 0:
    print("no output referred to docs/collection-problems.md: the broken collections should")
    sys.exit(1)
print(f"{len(inputs)} inputs, no internal references; {refs} references to docs/collection-problems.md, "
      f"all resolve ({len(titles)} sections)")
