#!/usr/bin/env bash
# packaging/slurm/bubblescope-cluster.sbatch on a real one-node Slurm cluster (Debian's Slurm 22.05):
#  1. the job array + merge over a generated 16-rank collection gives the cluster JSON of
#     `bubblescope analyze PARENT --cluster-json` byte for byte, and the report;
#  2. a task whose bubblescope is killed (SIGKILL) mid-run requeues itself, and the merge still gives
#     the same bytes;
#  3. the same kill with --retries 0: the merge names the ranks without a summary and exits 5 (FAILED).
# Then it prints the accounting of the jobs (sacct from the jobcomp/filetxt records: no slurmdbd here).
#
# Usage (as root): tests/slurm/run_slurm_test.sh BUILD_DIR
# Installs slurmctld slurmd slurm-client munge (apt-get) when missing; runs munged, slurmctld and slurmd
# in the foreground as children of this script, on their own socket, ports and files under $work (nothing
# in /etc is written), and stops them by their PIDs on exit, also on failure. Running it again first stops
# what an interrupted earlier run left behind.
set -euo pipefail
[ "$#" -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "$0: run as root (it installs and runs Slurm)" >&2; exit 2; }
build=$(realpath "$1")
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bs=$build/app/bubblescope
synth=$build/tests/synth/bubblescope-synth
script=$src/packaging/slurm/bubblescope-cluster.sbatch
work=${BUBBLESCOPE_SLURM_TEST_DIR:-/tmp/bubblescope-slurm-test}
for f in "$bs" "$synth"; do [ -x "$f" ] || { echo "$0: $f not built" >&2; exit 2; }; done
start=$SECONDS
say() { echo "== [$((SECONDS - start)) s] $*"; }

# --- daemons -------------------------------------------------------------------------------------------
daemons=(slurmd slurmctld munged) # stopped in this order
stop_daemons() {
  local name pid i
  for name in "${daemons[@]}"; do
    pid=$(cat "$work/pids/$name" 2>/dev/null) || continue
    # Only a process of that name: the PID file may outlive a reboot.
    if [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$name" ]; then
      kill "$pid" 2>/dev/null || true
      i=0
      while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 50 ]; do sleep 0.1 && i=$((i + 1)); done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$work/pids/$name"
  done
}
cleanup() {
  local rc=$?
  set +e
  # A driver still waiting (timeout passes the signal on to it).
  [ -z "${driver:-}" ] || kill "$driver" 2>/dev/null
  if [ -f "$work/pids/slurmctld" ]; then
    # Jobs first (their slurmstepd would outlive slurmd), then the daemons.
    mapfile -t left < <(squeue -h -o %i 2>/dev/null)
    if [ "${#left[@]}" -gt 0 ]; then
      scancel "${left[@]}" 2>/dev/null
      for ((i = 0; i < 30; i++)); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.5; done
    fi
  fi
  stop_daemons
  if [ "$rc" -eq 0 ]; then rm -rf "$work"; else echo "kept $work for a look"; fi
  exit "$rc"
}

fail() {
  echo "FAIL: $*"
  local f
  for f in "$work"/driver*.txt "$work"/out*/logs/*.log; do
    [ -f "$f" ] && { echo "--- $f"; tail -n 40 "$f"; }
  done
  echo "--- slurmctld.log (end)" && tail -n 40 "$work/log/slurmctld.log" 2>/dev/null
  echo "--- slurmd.log (end)" && tail -n 20 "$work/log/slurmd.log" 2>/dev/null
  exit 1
}

install_slurm() {
  local -a pkgs=(slurmctld slurmd slurm-client munge procps)
  local c need=0
  for c in slurmctld slurmd sbatch sacct munged pgrep; do command -v "$c" >/dev/null || need=1; done
  [ "$need" -eq 1 ] || return 0
  say "installing ${pkgs[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends "${pkgs[@]}" >"$work/apt.log" 2>&1 ||
    { apt-get update >>"$work/apt.log" 2>&1 && apt-get install -y --no-install-recommends "${pkgs[@]}" >>"$work/apt.log" 2>&1; } ||
    { cat "$work/apt.log"; fail "apt-get install ${pkgs[*]} failed"; }
}

write_conf() {
  local host hw
  host=$(hostname -s)
  # The node as slurmd sees it (CPUs, sockets, RealMemory), under the name and address we choose.
  hw=$(slurmd -C | head -n 1 | sed 's/^NodeName=[^ ]* //')
  cat >"$work/slurm.conf" <<EOF
ClusterName=bubblescope-test
SlurmctldHost=$host(127.0.0.1)
# Ports and MUNGE socket of our own: a system Slurm or munged (if any) is left alone.
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
CredType=cred/munge
# cred_expire also delays a requeued job (BeginTime = requeue + cred_expire + 1 s; 120 s by default).
AuthInfo=socket=$work/munge/munge.sock,cred_expire=10
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
# No slurmdbd: sacct reads the job completion records (sacct --completion).
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$work/log/jobcomp.txt
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2,bf_interval=2
MinJobAge=3600
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 $hw State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

start_daemons() {
  mkdir -p "$work"/{state,spool,log,run,pids,munge}
  chmod 700 "$work/munge"
  dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$work/munge/munge.key"
  export SLURM_CONF=$work/slurm.conf
  write_conf
  munged -F --force --socket="$work/munge/munge.sock" --key-file="$work/munge/munge.key" \
    --pid-file="$work/run/munged.pid" --log-file="$work/log/munged.log" --seed-file="$work/munge/seed" \
    >>"$work/log/munged.out" 2>&1 &
  echo $! >"$work/pids/munged"
  for ((i = 0; i < 50; i++)); do [ -S "$work/munge/munge.sock" ] && break; sleep 0.1; done
  slurmctld -D -f "$SLURM_CONF" >>"$work/log/slurmctld.out" 2>&1 &
  echo $! >"$work/pids/slurmctld"
  slurmd -D -f "$SLURM_CONF" >>"$work/log/slurmd.out" 2>&1 &
  echo $! >"$work/pids/slurmd"
  local state=''
  for ((i = 0; i < 120; i++)); do
    state=$(sinfo -h -o %t 2>/dev/null) || true
    [ "$state" = idle ] && return
    sleep 0.5
  done
  cat "$work"/log/*.out
  fail "the node is not idle after 60 s (sinfo: '$state')"
}

# --- helpers -------------------------------------------------------------------------------------------
# The job ids the driver printed.
array_job() { sed -n 's/^array job: \([0-9]*\).*/\1/p' "$1"; }
merge_job() { sed -n 's/^merge job: \([0-9]*\).*/\1/p' "$1"; }
job_field() { scontrol -o show job "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }

# Starts the driver with --wait in the background (bounded by 10 min); its output goes to $work/driverN.txt.
start_run() {
  local n=$1
  shift
  timeout 600 bash "$script" --bubblescope "$bs" --wait "$@" "$parent" "$work/out$n" -- --mem=512M \
    >"$work/driver$n.txt" 2>&1 &
  driver=$!
}

# Kills (SIGKILL) the bubblescope of one task while it analyses: found by its command line as soon as it
# starts, killed 0.05 s later (its shard of 4 ranks takes ~0.6 s here), while it reads its first rank.
kill_task_midrun() {
  local pattern=$1 pid deadline=$((SECONDS + 300))
  until pid=$(pgrep -o -f -- "$pattern"); do
    kill -0 "$driver" 2>/dev/null || fail "the run ended before a process matching '$pattern' was seen"
    [ "$SECONDS" -lt "$deadline" ] || fail "no process matching '$pattern' within 300 s"
    sleep 0.02
  done
  sleep 0.05
  local cmd
  cmd=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || true
  kill -9 "$pid" 2>/dev/null || fail "bubblescope $pid ended before it could be killed: the shard ran too fast"
  echo "killed (SIGKILL) pid $pid: $cmd"
}

# Waits for the driver of run N; its exit status in $rc.
finish_run() {
  rc=0
  wait "$driver" || rc=$?
  [ "$rc" -ne 124 ] || fail "run $1: the merge did not end within 10 min"
}

# The labels of shard I/N (in --list-ranks order) that have no summary in DIR.
missing_of_shard() {
  local i=$1 n=$2 dir=$3 k
  local -a labels
  mapfile -t labels < <("$bs" analyze "$parent" --list-ranks)
  for ((k = i; k < ${#labels[@]}; k += n)); do
    [ -f "$dir/${labels[k]}.summary.json" ] || echo "${labels[k]}" # generated labels need no %XX
  done
}

# --- the test ------------------------------------------------------------------------------------------
# An interrupted earlier run: its daemons (by their PID files) and files.
stop_daemons
rm -rf "$work"
mkdir -p "$work"
trap cleanup EXIT
trap 'exit 130' INT TERM
install_slurm
say "starting munged, slurmctld, slurmd ($(slurmctld -V))"
start_daemons
sinfo

say "generating 16 ranks"
# 20 MB traces: a shard of 4 ranks takes ~0.6 s, long enough to be killed mid-run.
"$synth" --out "$work/coll" --ranks 16 --slow-rank 5 --slow-ms 4 --trace-mb 20 --quiet
parent=$work/coll # the folder holding the 16 rank folders
[ "$("$bs" analyze "$parent" --list-ranks | wc -l)" -eq 16 ] || fail "--list-ranks does not list 16 ranks"
"$bs" analyze "$parent" -q --cluster-json "$work/direct.json" >/dev/null
say "direct analysis done"

# 1. One task per rank, waiting for the merge.
say "run 1: 16 tasks, one rank each"
start_run 1
finish_run 1
cat "$work/driver1.txt"
[ "$rc" -eq 0 ] || fail "run 1: the driver exited with $rc"
cmp "$work/out1/cluster.json" "$work/direct.json" || fail "run 1: cluster.json differs from analyze --cluster-json"
[ -s "$work/out1/cluster_report.md" ] || fail "run 1: no cluster_report.md"
[ "$(grep -l 'task [0-9]* done' "$work"/out1/logs/task-*.log | wc -l)" -eq 16 ] || fail "run 1: not every task says done"
echo "ok   run 1: cluster.json equals analyze --cluster-json byte for byte; the report is written"

# 2. Task 3's bubblescope is killed mid-run: the task requeues itself and runs again.
say "run 2: 4 tasks of 4 ranks, one at a time; task 3 killed mid-run, --retries 1"
start_run 2 --ranks-per-task 4 --throttle 1 --retries 1
kill_task_midrun "--shard 3/4 --summary $work/out2/summaries"
finish_run 2
cat "$work/driver2.txt"
[ "$rc" -eq 0 ] || fail "run 2: the driver exited with $rc"
a2=$(array_job "$work/driver2.txt")
log2=$work/out2/logs/task-${a2}_3.log
restarts=$(job_field "${a2}_3" Restarts)
[ "$restarts" = 1 ] || fail "run 2: task 3 has Restarts=$restarts, not 1"
grep -q 'killed by SIGKILL (exit 137); requeueing' "$log2" || fail "run 2: task 3's log does not show the requeue"
grep -q 'attempt 2 of 2' "$log2" || fail "run 2: task 3's log does not show the second attempt"
grep -q 'task 3 done' "$log2" || fail "run 2: task 3's second attempt did not finish"
cmp "$work/out2/cluster.json" "$work/direct.json" || fail "run 2: cluster.json differs from analyze --cluster-json"
echo "--- $log2"
cat "$log2"
echo "ok   run 2: task 3 killed, requeued (Restarts=1), merged JSON equals the direct one"

# 3. The same kill without retries: the merge names the ranks without a summary and fails with 5.
say "run 3: the same kill with --retries 0"
start_run 3 --ranks-per-task 4 --throttle 1 --retries 0
kill_task_midrun "--shard 3/4 --summary $work/out3/summaries"
finish_run 3
cat "$work/driver3.txt"
[ "$rc" -eq 5 ] || fail "run 3: the driver exited with $rc, not 5 (the merge's 'rank missing')"
m3=$(merge_job "$work/driver3.txt")
a3=$(array_job "$work/driver3.txt")
[ "$(job_field "$m3" JobState) $(job_field "$m3" ExitCode)" = "FAILED 5:0" ] ||
  fail "run 3: the merge job is $(job_field "$m3" JobState) $(job_field "$m3" ExitCode), not FAILED 5:0"
mapfile -t missing < <(missing_of_shard 3 4 "$work/out3/summaries")
[ "${#missing[@]}" -gt 0 ] || fail "run 3: every rank of task 3 has a summary: the kill came too late"
log3=$work/out3/logs/task-${a3}_3.log
for label in "${missing[@]}"; do
  grep -q "^  $label\$" "$log3" || fail "run 3: task 3's log does not name $label"
  grep -F "$label" "$work/out3/cluster_report.md" | grep -q "no summary" || fail "run 3: the report does not name $label"
done
# cluster.json: exactly these ranks are not analysed, for want of a summary, and the summary_missing
# finding names each.
python3 - "$work/out3/cluster.json" "${missing[@]}" <<'PY' || fail "run 3: cluster.json does not name exactly the missing ranks"
import json, sys
cluster = json.load(open(sys.argv[1]))["cluster"]
missing = set(sys.argv[2:])
errors = {r["label"] for r in cluster["ranks"] if "no summary" in r.get("error", "")}
finding = [f["message"] for f in cluster["findings"] if f["id"] == "summary_missing"]
print("not analysed in cluster.json:", sorted(errors), "| summary_missing:", finding)
sys.exit(0 if errors == missing and len(finding) == 1 and all(m in finding[0] for m in missing) else 1)
PY
echo "--- $log3"
cat "$log3"
echo "--- the report's lines on them"
grep -F -e "${missing[0]}" "$work/out3/cluster_report.md"
echo "ok   run 3: ${missing[*]} named in task 3's log, cluster_report.md and cluster.json; merge FAILED 5:0"

# 4. Task 3 is cancelled mid-run (scancel, as an operator or a time limit would): the merge never runs, and the
# driver names the task that did not complete, its state and its log.
say "run 4: task 3 cancelled mid-run"
start_run 4 --ranks-per-task 4 --throttle 1 --retries 0
pattern4="--shard 3/4 --summary $work/out4/summaries"
deadline=$((SECONDS + 300))
until pid4=$(pgrep -o -f -- "$pattern4"); do
  kill -0 "$driver" 2>/dev/null || fail "run 4 ended before task 3 started"
  [ "$SECONDS" -lt "$deadline" ] || fail "run 4: task 3 did not start within 300 s"
  sleep 0.02
done
# Stopped first, so that the cancel finds it running however fast the machine is (scancel's signals end it).
kill -STOP "$pid4" 2>/dev/null || fail "run 4: task 3's bubblescope ended before it could be stopped"
a4=$(array_job "$work/driver4.txt")
scancel "${a4}_3" || fail "run 4: scancel ${a4}_3 failed"
finish_run 4
cat "$work/driver4.txt"
[ "$rc" -eq 1 ] || fail "run 4: the driver exited with $rc, not 1 (the merge was cancelled)"
grep -q "^merge job [0-9]*: CANCELLED" "$work/driver4.txt" || fail "run 4: the driver does not say the merge was cancelled"
grep -q "^  task 3: CANCELLED, exit status [0-9]*; log: $work/out4/logs/task-${a4}_3.log\$" "$work/driver4.txt" ||
  fail "run 4: the driver does not name task 3, its state and its log"
[ "$(grep -c '^  task [0-9]*:' "$work/driver4.txt")" -eq 1 ] || fail "run 4: tasks that completed are named too"
echo "ok   run 4: the cancelled merge names task 3 (CANCELLED) and its log"

# Accounting: sacct from the job completion records (no slurmdbd), which do not know array task ids
# (sacct prints "Unknown type ArrayJobId" for them, dropped here); the jobcomp file maps them.
say "sacct --completion"
sacct --completion --starttime=2000-01-01 -o JobID,JobName%20,State,ExitCode,Start,End,Elapsed 2>/dev/null
echo "--- job completion records (array task ids; a requeued instance is logged as PENDING)"
awk '{ delete f
       for (i = 1; i <= NF; i++) { p = index($i, "="); if (p) f[substr($i, 1, p - 1)] = substr($i, p + 1) }
       task = f["ArrayJobId"] == "" ? "-" : f["ArrayJobId"] "_" f["ArrayTaskId"]
       printf "JobId=%-4s %-7s %-20s %-10s ExitCode=%-5s %s %s\n", f["JobId"], task, f["Name"], f["JobState"],
              f["ExitCode"], f["StartTime"], f["EndTime"] }' "$work/log/jobcomp.txt"
echo "--- scontrol: task 3 of run 2 and the merges"
for j in "${a2}_3" "$(merge_job "$work/driver1.txt")" "$(merge_job "$work/driver2.txt")" "$m3"; do
  echo "$j: $(scontrol -o show job "$j" | tr ' ' '\n' | grep -E '^(JobName|JobState|Restarts|ExitCode)=' | tr '\n' ' ')"
done
say "passed"
