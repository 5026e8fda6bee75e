#!/usr/bin/env python3
"""Help ▸ Glossary defines every label, tag and scope the core can put in front of the user, and Help ▸ Keyboard
shortcuts lists every key the window binds (issue 46 item 13).

The names are read from core's sources, not from a list kept here, so a new tag or label without an entry
fails this check:
  - window labels: the first argument of add("…") in core/analysis/soft_attribution.cpp (attributeWindow),
    and any labels.push_back / emplace_back("…") in core/;
  - tags: addTag(…, "…"), tags.push_back / emplace_back("…"), tags.insert(…, "…") anywhere in core/;
  - AI CPU classes: the strings assigned to .cls in core/analysis/op_analysis.cpp;
  - window scopes: the strings windowScopeName returns (core/analysis/bubble_windows.cpp);
  - recommendation scopes: the strings in the first argument of rec.add(…) (core/pipeline/recommendations.cpp);
  - the cluster's confidence values (.confidence = "…" in core/cluster/cluster_analysis.cpp): each named in the
    term of the "confidence" entry;
  - the cluster terms of issue 44 (concepts, not ids): lateness cost, clock offset, aligned clock, confidence,
    imbalance, last arriver.
An entry is a {"key", QT_TRANSLATE_NOOP("Glossary", term), QT_TRANSLATE_NOOP("Glossary", definition)} line of
ui/glossary.cpp; keys match case-insensitively, as glossaryDefinition does.

Keys: every Qt::Key_… of the timeline's and the Ranks tab's keyPressEvent and of timeline_keys.h, the "/" shortcut and every
QKeySequence::StandardKey the main window binds must appear in keyboardShortcutsHtml() (ui/glossary.cpp).

usage: check_glossary.py SOURCE_DIR
"""
import pathlib
import re
import sys

src = pathlib.Path(sys.argv[1])
core = src / "core"
LIT = re.compile(r'"((?:\\.|[^"\\\n])*)"')
problems = []


def read(p):
    return p.read_text(encoding="utf-8")


def core_sources():
    return sorted(core.rglob("*.cpp")) + sorted(core.rglob("*.h"))


def call_args(text, start):
    """The text of a call's arguments from the '(' at `start` to its matching ')' (string literals skipped)."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c == '"':
            i += 1
            while text[i] != '"':
                i += 2 if text[i] == '\\' else 1
        elif c == '(':
            depth += 1
        elif c == ')':
            depth -= 1
            if depth == 0:
                return text[start + 1:i]
        i += 1
    return text[start + 1:]


def first_arg(args):
    depth = 0
    for i, c in enumerate(args):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == ',' and depth == 0:
            return args[:i]
    return args


def calls(text, name):
    """The argument texts of every call of `name` (a regex for the callee)."""
    for m in re.finditer(name + r"\s*\(", text):
        yield call_args(text, m.end() - 1)


names = {}  # name -> where it was found


def found(kind, name, where):
    names.setdefault(name, f"{kind} ({where})")


# Window labels.
soft = core / "analysis" / "soft_attribution.cpp"
for args in calls(read(soft), r"\badd"):
    for lit in LIT.findall(first_arg(args))[:1]:
        found("window label", lit, soft.name)
for p in core_sources():
    t = read(p)
    for args in calls(t, r"\blabels\.(?:push_back|emplace_back)"):
        m = LIT.fullmatch(args.strip())
        if m: found("window label", m.group(1), p.name)
    # Tags.
    for args in calls(t, r"\baddTag"):
        for lit in LIT.findall(args):
            found("tag", lit, p.name)
    for args in calls(t, r"\b(?:tags|globalTags)\.(?:push_back|emplace_back|insert)"):
        for lit in LIT.findall(args):
            found("tag", lit, p.name)
# AI CPU classes.
ops = core / "analysis" / "op_analysis.cpp"
for m in re.finditer(r"\.cls\s*=([^;]*);", read(ops)):
    for lit in LIT.findall(m.group(1)):
        found("AI CPU class", lit, ops.name)
# Window scopes.
run = read(core / "analysis" / "bubble_windows.cpp")
body = re.search(r"windowScopeName\(WindowScope s\)\s*\{(.*?)\n\}", run, re.S)
if not body:
    problems.append("bubble_windows.cpp: windowScopeName not found (update check_glossary.py)")
else:
    for lit in re.findall(r'return\s+"([^"]+)"', body.group(1)):
        found("window scope", lit, "bubble_windows.cpp")
# Recommendation scopes.
recs = core / "pipeline" / "recommendations.cpp"
for args in calls(read(recs), r"\brec\.add"):
    for lit in LIT.findall(first_arg(args)):
        found("recommendation scope", lit, recs.name)
# The cluster's terms.
cluster = read(core / "cluster" / "cluster_analysis.cpp")
confidences = set()
for m in re.finditer(r'\.confidence\s*=\s*([^;]*);', cluster):
    confidences |= set(LIT.findall(m.group(1)))
confidences = sorted(confidences)
for term in ("lateness cost", "clock offset", "aligned clock", "confidence", "imbalance", "last arriver"):
    found("cluster term", term, "issue 44")

# The glossary's entries.
gl = read(src / "ui" / "glossary.cpp")
entries = {}
for m in re.finditer(r'\{(?:QStringLiteral\()?"([^"]+)"\)?,\s*(?:t\()?QT_TRANSLATE_NOOP\("Glossary",\s*"([^"]+)"\)\)?,'
                     r'\s*(?:t\()?QT_TRANSLATE_NOOP\("Glossary"', gl):
    entries[m.group(1).lower()] = m.group(2)

for name, where in sorted(names.items()):
    if name.lower() not in entries:
        problems.append(f"'{name}' ({where}) has no entry in ui/glossary.cpp")
if not confidences:
    problems.append("cluster_analysis.cpp: no '.confidence = \"…\"' found (update check_glossary.py)")
for c in confidences:
    if c not in entries.get("confidence", ""):
        problems.append(f"the cluster's confidence '{c}' is not named in the term of the glossary's 'confidence' entry")
if len(names) < 30:
    problems.append(f"only {len(names)} names found in core: the patterns above no longer match its sources")

# Keys.
shortcuts = re.search(r"QString keyboardShortcutsHtml\(\)\s*\{(.*?)\n\}", gl, re.S)
shortcuts = shortcuts.group(1) if shortcuts else ""
if not shortcuts:
    problems.append("ui/glossary.cpp: keyboardShortcutsHtml() not found")
KEY_TEXT = {"W": "W / S", "S": "W / S", "Plus": "+ / −", "Equal": "+ / −", "Minus": "+ / −", "A": "A / D",
            "D": "A / D", "F": '"F"', "L": '"L"', "N": "N / P", "P": "N / P", "F3": "QKeySequence::FindNext)",
            "Return": '"Enter"', "Enter": '"Enter"', "Escape": '"Esc"', "Left": "← / →", "Right": "← / →",
            "Up": "↑ / ↓", "Down": "↑ / ↓", "Slash": ", /"}
for f in ("ui/timeline_input.cpp", "ui/ranks_timeline.cpp", "ui/timeline_keys.h"):
    text = read(src / f)
    # The keys both timelines share are bound in timeline_keys.h's viewKeyOf.
    kp = re.search(r"(?:::keyPressEvent\(QKeyEvent\* e\)|ViewKey viewKeyOf\(int key, bool arrowsPan\))\s*\{(.*?)\n\}", text, re.S)
    if not kp:
        problems.append(f"{f}: keyPressEvent not found (update check_glossary.py)")
        continue
    for key in re.findall(r"case Qt::Key_(\w+):", kp.group(1)):
        want = KEY_TEXT.get(key)
        if want is None:
            problems.append(f"{f}: Qt::Key_{key} is bound; list it in keyboardShortcutsHtml() and in KEY_TEXT here")
        elif want not in shortcuts:
            problems.append(f"{f}: Qt::Key_{key} is bound but the shortcuts list does not show {want}")
    for std in re.findall(r"matches\(QKeySequence::(\w+)\)", kp.group(1)):
        if not re.search(rf"QKeySequence::{std}\b", shortcuts):
            problems.append(f"{f}: QKeySequence::{std} is bound but not in the shortcuts list")
mw = read(src / "ui" / "main_window.cpp")
for std in sorted(set(re.findall(r"QKeySequence::(Open|Find|FindNext|FindPrevious|Quit|Save|Close|Copy)\b", mw))):
    if not re.search(rf"QKeySequence::{std}\b", shortcuts):
        problems.append(f"main_window.cpp binds QKeySequence::{std}; the shortcuts list does not show it")
for key in re.findall(r"new QShortcut\(QKeySequence\(Qt::Key_(\w+)\)", mw):
    want = KEY_TEXT.get(key)
    if want is None or want not in shortcuts:
        problems.append(f"main_window.cpp binds Qt::Key_{key}; the shortcuts list does not show it")
for combo in re.findall(r"QKeySequence\((Qt::CTRL[^)]*)\)", mw):
    if combo.replace(" ", "") not in shortcuts.replace(" ", ""):
        problems.append(f"main_window.cpp binds {combo}; the shortcuts list does not show it")

for p in problems:
    print(p)
print(f"{len(names)} names from core, {len(entries)} glossary entries, {len(problems)} problem(s)")
sys.exit(1 if problems else 0)
