#!/usr/bin/env python3
"""`--lang zh_CN` writes Chinese (issue 17 item 8): a Chinese report has no untranslated sentence.

Runs `bubblescope analyze --lang zh_CN` (text on standard output, --json, --report, --arch) over the sample,
one real rank and a generated profile with every planted anomaly; `bubblescope cluster --lang zh_CN` over
a generated collection with a slow rank and over the real two-rank collection; `bubblescope compare
--lang zh_CN` between a clean generated profile and the same one with anomalies. Every output is checked:

1. No message control byte (\\x02, \\x03, \\x1f: the marks of core/i18n/message.h) anywhere, standard
   error included: each would mean a message that left the program without render().
2. No English sentence: three or more English words in a row. A word is a token (split at white space,
   leading/trailing punctuation removed) of two or more letters, all lower case after the first letter
   ("wait", "The"). Not words, and so never part of a run, because they are not prose:
     - ALL_CAPS ids and rule names (HOST_LAUNCH_BOUND, COMM_WAIT_HEAVY), CamelCase and snake_case names
       (MatMulV2, busy_union), anything with a digit, a dot inside, '/', '\\', '_', ':' or '=' (paths, file
       names, URLs, options, JSON keys quoted in prose);
     - units (ms, us, µs, ns, MB, GB);
   Removed before the check, because they are names from the profile or machine text, not sentences:
     - Markdown `code spans` (the reports put every name from the profile in one) and fenced blocks' names
       (a fenced block is checked like text: its layout words are ours);
     - in JSON, the keys, and the values under keys that hold names from the profile or ids (NAME_KEYS
       below: kernel/op/frame/thread/file/folder/label names, enum values the schema fixes);
     - Markdown escapes (a backslash before punctuation);
     - the layer types of core/architecture ("Dense", "MoE+DFC", "MoE+GMM", "MoE (no expert kernel)", each
       possibly "… with sampling"): a closed vocabulary of ids, written as is in every language because the
       JSON, the architecture report and the before/after comparison match layers on them.
   Standard error is checked for control bytes only: with -q it holds the command's own usage/error lines
   (app text, English by design of this item's scope) and nothing else.
3. English is unchanged: not here; the golden tests of the English outputs (tst_report_claims,
   tst_anomaly_discovery, tst_generated_profiles, ...) cover it. Here the Chinese output must differ from
   the English one (else --lang did nothing).

Every offending line is printed as FILE:LINE: text, so whoever owns the sentence can find it.

Usage: check_chinese_reports.py BUBBLESCOPE SYNTH SOURCE_DIR REALDATA WORK_DIR
"""
import json, os, re, shutil, subprocess, sys

bs, synth, src, realdata, work = sys.argv[1:6]
CONTROL = re.compile('[\x02\x03\x1f]')
UNITS = {"ms", "us", "µs", "ns", "MB", "GB", "KB"}
WORD = re.compile(r"^[A-Za-z][a-z]+$")
EDGE = "\"'()[]{}<>,;:.!?*|`“”‘’，。；：（）、！？—–-…=+#"
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
URL = re.compile(r"https?://\S+")
LAYER_TYPE = re.compile(r"(?:MoE\+GMM|MoE\+DFC|Dense|MoE \(no expert kernel\))(?: with sampling)?")
# JSON values that are names from the profile or fixed ids (the schema's enum values), not sentences.
NAME_KEYS = {
    "name", "op_name", "frame", "frame_text", "path", "file", "folder", "label", "thread", "kernel_before",
    "kernel_after", "marker", "marker_source", "rank_dir", "rank_label", "role", "task_type", "location",
    "collective", "worst_collective", "last_arriver_label", "base_label", "new_label", "producer", "type",
    "layout", "kernel_source", "step_source", "source", "phase", "scope", "class", "status", "severity",
    "id", "finding_id", "group_id", "window_id", "structure_id", "labels", "tags", "kernels", "names",
    "profiler_level", "aic_metrics", "activities", "level", "stream_role", "position", "pmu_verdict",
    "confidence", "metric", "what", "base", "new", "tool", "version", "collection", "ranks_missing",
    "dominant_idle_pattern", "parent", "evidence_ops", "rank", "profiler_column", "field", "key", "extra", "missing",
}
problems = []


def english_runs(line):
    """The runs of 3+ English words in a line (after removing code spans and URLs)."""
    line = LAYER_TYPE.sub(" ", URL.sub(" ", CODE_SPAN.sub(" ", line))).replace("\\", "")
    runs, cur = [], []
    for raw in line.split():
        tok = raw.strip(EDGE)
        # a token with a CJK character, a digit or a symbol ends a run, as does one that is not a word
        # punctuation at a word's edges keeps the run going ("wait, transit, sync" is an English list)
        if tok and tok not in UNITS and WORD.match(tok):
            cur.append(tok)
            continue
        if len(cur) >= 3: runs.append(" ".join(cur))
        cur = []
    if len(cur) >= 3: runs.append(" ".join(cur))
    return runs


def check_text(label, text, english=True):
    for n, line in enumerate(text.split("\n"), 1):
        if CONTROL.search(line):
            problems.append(f"{label}:{n}: message control byte: {line!r}")
        if english:
            for run in english_runs(line):
                problems.append(f"{label}:{n}: English \"{run}\": {line.strip()[:200]}")


def check_json(label, text):
    if CONTROL.search(text):
        for n, line in enumerate(text.split("\n"), 1):
            if CONTROL.search(line): problems.append(f"{label}:{n}: message control byte: {line.strip()[:200]!r}")
    try:
        doc = json.loads(text)
    except ValueError as e:
        problems.append(f"{label}: not JSON ({e})")
        return
    lines = text.split("\n")

    def where(s):
        needle = json.dumps(s, ensure_ascii=False)[1:-1]
        for n, l in enumerate(lines, 1):
            if needle in l: return n
        return 0

    def walk(v, key, path):
        if isinstance(v, dict):
            for k, x in v.items(): walk(x, k, f"{path}.{k}")
        elif isinstance(v, list):
            for i, x in enumerate(v): walk(x, key, f"{path}[{i}]")
        elif isinstance(v, str) and key not in NAME_KEYS:
            for run in english_runs(v):
                problems.append(f"{label}:{where(v)}: English \"{run}\" in {path}: {v[:200]}")
    walk(doc, "", "$")


def read(p):
    with open(p, encoding="utf-8", errors="replace") as f:
        return f.read()


def run(args, label):
    r = subprocess.run([bs] + args, capture_output=True, text=True, errors="replace", timeout=600)
    check_text(f"{label} (stderr)", r.stderr, english=False)
    if r.returncode not in (0, 5):
        problems.append(f"{label}: exit {r.returncode}: {r.stderr.strip()[:300]}")
    return r


shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
gen = os.path.join(work, "gen")
def synthesize(*args):
    subprocess.run([synth, "--out", gen] + list(args), check=True, stdout=subprocess.DEVNULL)
synthesize("--name", "all", "--dense", "2", "--dfc", "3", "--steps", "3", "--anomalies", "all")
synthesize("--name", "clean", "--dense", "2", "--dfc", "3", "--steps", "3")
coll = os.path.join(work, "coll")
subprocess.run([synth, "--out", coll, "--name", "c", "--dense", "2", "--steps", "4", "--ranks", "4", "--slow-rank",
                "2", "--slow-ms", "8"], check=True, stdout=subprocess.DEVNULL)

real_parent = os.path.join(realdata, "torch_npu_resnet_ddp", "level1")
inputs = [("sample", os.path.join(src, "resources", "sample", "sample_ascend_pt")),
          ("real_rank0", os.path.join(real_parent, "rank0_ascend_pt")),
          ("generated_all_anomalies", os.path.join(gen, "all_ascend_pt"))]
out = os.path.join(work, "out")
outputs = 0
for name, path in inputs:
    if not os.path.isdir(path):
        problems.append(f"{name}: input {path} is missing")
        continue
    o = os.path.join(out, name)
    os.makedirs(o)
    files = {k: os.path.join(o, f"{k}.zh") for k in ("json", "report")}
    r = run(["analyze", "-q", "--lang", "zh_CN", "--json", files["json"], "--report", files["report"], "--arch", o,
             path], f"{name}: analyze")
    check_text(f"{name}: analyze text output", r.stdout)
    en = subprocess.run([bs, "analyze", "-q", path], capture_output=True, text=True, errors="replace", timeout=600)
    if en.stdout == r.stdout:
        problems.append(f"{name}: the zh_CN text output is the English one")
    if os.path.exists(files["json"]): check_json(files["json"], read(files["json"]))
    else: problems.append(f"{name}: no --json written")
    if os.path.exists(files["report"]): check_text(files["report"], read(files["report"]))
    else: problems.append(f"{name}: no --report written")
    arch = [f for f in os.listdir(o) if f.startswith("model_architecture_report_")]
    if not arch: problems.append(f"{name}: no --arch written")
    for f in arch: check_text(os.path.join(o, f), read(os.path.join(o, f)))
    outputs += 4

for name, path in (("cluster_generated_slow_rank", coll), ("cluster_real_two_ranks", real_parent)):
    o = os.path.join(out, name)
    os.makedirs(o)
    j, m = os.path.join(o, "cluster.json"), os.path.join(o, "cluster.md")
    r = run(["cluster", "-q", "--lang", "zh_CN", "--json", j, "--report", m, path], f"{name}: cluster")
    check_text(f"{name}: cluster text output", r.stdout)
    if os.path.exists(j): check_json(j, read(j))
    if os.path.exists(m): check_text(m, read(m))
    outputs += 3

o = os.path.join(out, "compare")
os.makedirs(o)
j, m = os.path.join(o, "compare.json"), os.path.join(o, "compare.md")
r = run(["compare", "-q", "--lang", "zh_CN", "--json", j, "--report", m, os.path.join(gen, "clean_ascend_pt"),
         os.path.join(gen, "all_ascend_pt")], "compare")
check_text("compare text output", r.stdout)
if os.path.exists(j): check_json(j, read(j))
if os.path.exists(m): check_text(m, read(m))
outputs += 3

# --lang is checked: a wrong value is a usage error.
bad = subprocess.run([bs, "analyze", "--lang", "fr", inputs[0][1]], capture_output=True, text=True)
if bad.returncode != 2 or "--lang" not in bad.stderr:
    problems.append(f"--lang fr: exit {bad.returncode}, not a usage error: {bad.stderr.strip()[:200]}")

for p in problems:
    print(p)
print(f"{outputs} Chinese outputs checked; {len(problems)} problem(s)")
sys.exit(1 if problems else 0)
