#!/usr/bin/env bash
# Mutation check (issue 21): applies each one-line mutant of a mutants file to a copy of the source tree,
# rebuilds incrementally, runs a focused ctest subset, and reports whether some test noticed (killed) or
# none did (survived). Run it before resolving any issue that changes core/analysis.
#
#   tests/mutation/run_mutants.sh [options] [MUTANTS_FILE]      (default: tests/mutation/mutants.txt)
#     -R REGEX   tests to run (ctest -R); default: every tst_ test but the window ones, see DEFAULT_R/DEFAULT_E below
#     -E REGEX   tests to leave out (ctest -E); default: the window tests (they read no analysis rule)
#     -w DIR     work folder (default /tmp/bs-mutation, or $BS_MUTATION_DIR): DIR/src, DIR/build
#     -o ID,ID   only these mutant ids
#     -j N       parallel test jobs (default 2)
#     -n         only check that every mutant applies to the checkout (nothing is copied or built)
#
# The copy (of the checkout without build*/ and .git) is configured once (Ninja, RelWithDebInfo) and
# kept between runs, so each mutant costs one incremental build of the files it touches plus the tests.
# A test that already fails without any mutant (e.g. a rule table written ahead of its implementation)
# cannot kill anything and is listed once at the start. Exit status: 0 when every mutant was killed,
# 1 when one survived or did not apply, 2 on a usage or set-up error.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
src_root="$(cd "$here/../.." && pwd)"
shared_dir="$(cd "$src_root/../shared" 2>/dev/null && pwd || true)"

DEFAULT_R='^tst_'
DEFAULT_E='^(tst_screenshots|tst_main_window|tst_timeline)$'

regex="$DEFAULT_R"
exclude="$DEFAULT_E"
work="${BS_MUTATION_DIR:-/tmp/bs-mutation}"
only=""
jobs=2
check_only=0
while getopts "R:E:w:o:j:nh" opt; do
    case "$opt" in
    R) regex="$OPTARG" ;;
    E) exclude="$OPTARG" ;;
    w) work="$OPTARG" ;;
    o) only="$OPTARG" ;;
    j) jobs="$OPTARG" ;;
    n) check_only=1 ;;
    h) sed -n '2,19p' "$0"; exit 0 ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
mutants="${1:-$here/mutants.txt}"
[[ -f "$mutants" ]] || { echo "mutants file not found: $mutants" >&2; exit 2; }
mutants="$(cd "$(dirname "$mutants")" && pwd)/$(basename "$mutants")"
[[ -n "$shared_dir" ]] || { echo "the shared/ folder (spec, realdata) is not beside $src_root" >&2; exit 2; }

wsrc="$work/src"
wbuild="$work/build"
mkdir -p "$wsrc" "$wbuild"

# Mutants: parse, apply, revert, check (python: exact substring, must occur exactly once).
mutate() { # mutate list|check|apply|revert ID [ROOT]
    python3 - "$1" "$2" "$mutants" "${3:-$wsrc}" <<'PY'
import json, os, sys
action, wanted, path, root = sys.argv[1:5]
blocks, cur = [], None
for n, line in enumerate(open(path, encoding="utf-8"), 1):
    line = line.rstrip("\n")
    if line.startswith("## "):
        parts = line[3:].split(None, 1)
        cur = {"id": parts[0], "what": parts[1] if len(parts) > 1 else "", "file": None, "pairs": [], "line": n}
        blocks.append(cur)
    elif cur is not None and line.startswith("file: "):
        cur["file"] = line[6:].strip()
    elif cur is not None and line.startswith("after: "):
        cur["after"] = line[7:].strip()
    elif cur is not None and line.startswith("- "):
        cur["pairs"].append([line[2:].strip(), None])
    elif cur is not None and line.startswith("+ "):
        if not cur["pairs"] or cur["pairs"][-1][1] is not None:
            sys.exit(f"{path}:{n}: '+' line without its '-' line")
        cur["pairs"][-1][1] = line[2:].strip()
if action == "list":
    for b in blocks:
        print(b["id"], b["file"] or "?")
    sys.exit(0)
b = next((x for x in blocks if x["id"] == wanted), None)
if b is None or not b["file"] or not b["pairs"] or any(p[1] is None for p in b["pairs"]):
    sys.exit(f"mutant {wanted} is incomplete in {path}")
target = os.path.join(root, b["file"])
backup = target + ".mutation-orig"
if action == "revert":
    if os.path.exists(backup):
        os.replace(backup, target)
        os.utime(target)  # newer than the mutant's objects: the next build recompiles it
    sys.exit(0)
try:
    text = open(target, encoding="utf-8").read()
except OSError as e:
    sys.exit(f"mutant {wanted} does not apply: {e}")
# "after: TEXT" (TEXT must occur once) limits the search to what follows it, for a line that the file
# repeats elsewhere.
start = 0
if b.get("after"):
    if text.count(b["after"]) != 1:
        sys.exit(f"mutant {wanted} does not apply: {b['file']} holds '{b['after']}' {text.count(b['after'])} times (expected exactly once)")
    start = text.index(b["after"])
head, new = text[:start], text[start:]
for orig, repl in b["pairs"]:
    count = new.count(orig)
    if count != 1:
        where = f" after '{b['after']}'" if b.get("after") else ""
        sys.exit(f"mutant {wanted} does not apply: {b['file']} holds '{orig}'{where} {count} times (expected exactly once)")
    new = new.replace(orig, repl)
new = head + new
if action == "check":
    sys.exit(0)
with open(backup, "w", encoding="utf-8") as f:
    f.write(text)
with open(target, "w", encoding="utf-8") as f:
    f.write(new)
PY
}

mapfile -t listing < <(mutate list - )
if [[ $check_only -eq 1 ]]; then
    bad=0
    for row in "${listing[@]}"; do
        id="${row%% *}"
        [[ -n "$only" && ",$only," != *",$id,"* ]] && continue
        if msg="$(mutate check "$id" "$src_root" 2>&1)"; then echo "   $id applies"; else echo "!! $msg"; bad=1; fi
    done
    exit $bad
fi

# 1. The copy: the checkout as it is now (uncommitted edits included), without build trees and .git.
#    Compared by content, not by time, and copied files get the current time: a file that differs from
#    what the copy was last built from (a reverted mutant, someone's edit) is always rebuilt.
echo "== copying $src_root to $wsrc"
python3 - "$src_root" "$wsrc" <<'PY'
import os, shutil, sys
src, dst = sys.argv[1:3]
def skip(rel):
    top = rel.split(os.sep, 1)[0]
    return top == ".git" or top.startswith("build")
seen = set()
for root, dirs, files in os.walk(src):
    rel_root = os.path.relpath(root, src)
    dirs[:] = [d for d in dirs if not skip(os.path.normpath(os.path.join(rel_root, d)))]
    os.makedirs(os.path.join(dst, rel_root), exist_ok=True)
    for name in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
        rel = os.path.normpath(os.path.join(rel_root, name))
        if skip(rel):
            continue
        seen.add(rel)
        s, d = os.path.join(src, rel), os.path.join(dst, rel)
        if os.path.islink(s):
            if not os.path.islink(d) or os.readlink(d) != os.readlink(s):
                if os.path.lexists(d):
                    os.remove(d)
                os.symlink(os.readlink(s), d)
            continue
        with open(s, "rb") as f:
            data = f.read()
        same = False
        if os.path.isfile(d) and not os.path.islink(d) and os.path.getsize(d) == len(data):
            with open(d, "rb") as f:
                same = f.read() == data
        if not same:
            if os.path.lexists(d):
                os.remove(d)
            with open(d, "wb") as f:  # a new time: the build recompiles what changed
                f.write(data)
            shutil.copymode(s, d)
for root, dirs, files in os.walk(dst, topdown=False):
    for name in files:
        rel = os.path.normpath(os.path.relpath(os.path.join(root, name), dst))
        if rel not in seen and not rel.endswith(".mutation-orig"):
            os.remove(os.path.join(root, name))
PY

# 2. One configuration, kept between runs.
if [[ ! -f "$wbuild/build.ninja" ]]; then
    echo "== configuring $wbuild"
    cmake -S "$wsrc" -B "$wbuild" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DBUBBLESCOPE_SHARED_DIR="$shared_dir" >"$work/configure.log" 2>&1 ||
        { echo "configure failed, see $work/configure.log" >&2; exit 2; }
else
    cmake "$wbuild" >"$work/configure.log" 2>&1 || { echo "re-configure failed, see $work/configure.log" >&2; exit 2; }
fi

# 3. The tests to run and the targets they need (a test named like a target is built from it; the
#    target's add_dependencies bring the rest, e.g. bubblescope-synth).
mapfile -t tests < <(ctest --test-dir "$wbuild" -N -R "$regex" -E "$exclude" | sed -n 's/^ *Test *#[0-9]*: \(.*\)$/\1/p')
[[ ${#tests[@]} -gt 0 ]] || { echo "no test matches -R '$regex' -E '$exclude'" >&2; exit 2; }
mapfile -t alltargets < <(ninja -C "$wbuild" -t targets all | sed -n 's/^\([^:/]*\): .*/\1/p')
targets=()
for t in "${tests[@]}"; do
    for a in "${alltargets[@]}"; do [[ "$a" == "$t" ]] && { targets+=("$t"); break; }; done
done
echo "== ${#tests[@]} tests, ${#targets[@]} test executables"

build() { cmake --build "$wbuild" --target "${targets[@]}" >"$work/build.log" 2>&1; }
# Runs the tests; prints the names of the failing ones, one per line.
run_tests() {
    rm -f "$wbuild/Testing/Temporary/LastTestsFailed.log"
    QT_QPA_PLATFORM=offscreen ctest --test-dir "$wbuild" -R "$regex" -E "$exclude" -j "$jobs" --timeout 300 \
        >"$work/ctest.log" 2>&1 || true
    if [[ -f "$wbuild/Testing/Temporary/LastTestsFailed.log" ]]; then
        sed 's/^[0-9]*://' "$wbuild/Testing/Temporary/LastTestsFailed.log"
    fi
}


ids=()
declare -A file_of
for row in "${listing[@]}"; do
    id="${row%% *}"
    [[ -n "$only" && ",$only," != *",$id,"* ]] && continue
    ids+=("$id")
    file_of[$id]="${row#* }"
done
[[ ${#ids[@]} -gt 0 ]] || { echo "no mutant selected from $mutants" >&2; exit 2; }

# Revert anything an interrupted run left behind, now and on exit (touched: its objects are rebuilt).
restore_all() {
    find "$wsrc" -name '*.mutation-orig' -print0 | while IFS= read -r -d '' f; do
        mv "$f" "${f%.mutation-orig}" && touch "${f%.mutation-orig}"
    done
}
restore_all
trap restore_all EXIT

# 5. Baseline: the unmutated tree must build; tests failing already are noted and cannot kill.
echo "== baseline build"
build || { echo "the unmutated tree does not build, see $work/build.log" >&2; exit 2; }
mapfile -t baseline_fail < <(run_tests)
known_fail=" " # space-separated names, with a space on each side
for t in "${baseline_fail[@]}"; do [[ -n "$t" ]] && known_fail+="$t "; done
if [[ "$known_fail" != " " ]]; then
    echo "== failing before any mutant (ignored as killers):$known_fail"
fi

declare -A result killers
survived=0
for id in "${ids[@]}"; do
    start=$SECONDS
    if ! msg="$(mutate apply "$id" 2>&1)"; then
        echo "!! $msg" >&2
        result[$id]="NOT APPLIED"
        killers[$id]="$msg"
        survived=$((survived + 1))
        continue
    fi
    if ! build; then
        result[$id]="killed"
        killers[$id]="(does not compile)"
    else
        mapfile -t failed < <(run_tests)
        k=()
        for t in "${failed[@]}"; do [[ -n "$t" && "$known_fail" != *" $t "* ]] && k+=("$t"); done
        if [[ ${#k[@]} -gt 0 ]]; then
            result[$id]="killed"
            killers[$id]="${k[*]}"
        else
            result[$id]="SURVIVED"
            killers[$id]="-"
            survived=$((survived + 1))
        fi
    fi
    mutate revert "$id"
    printf '   %-5s %-9s %4ds  %s\n' "$id" "${result[$id]}" $((SECONDS - start)) "${killers[$id]}"
done
# Leave the copy built from the unmutated sources.
build || true

echo
printf '| %-5s | %-46s | %-11s | %s\n' "id" "file" "result" "killing tests"
printf '|%s|%s|%s|%s\n' "-------" "------------------------------------------------" "-------------" "--------------"
for id in "${ids[@]}"; do
    printf '| %-5s | %-46s | %-11s | %s\n' "$id" "${file_of[$id]}" "${result[$id]}" "${killers[$id]}"
done
echo
echo "$(( ${#ids[@]} - survived )) of ${#ids[@]} mutants killed, $survived survived or did not apply ($(basename "$mutants"))"
[[ $survived -eq 0 ]]
