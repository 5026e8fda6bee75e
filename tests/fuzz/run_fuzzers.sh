#!/usr/bin/env bash
# Builds the fuzz targets with clang (ASan + UBSan + libFuzzer) and runs each for SECONDS (default 1200),
# JOBS at a time (default 2), seeding the corpora from ../shared/realdata and a generated profile.
# Crashes land in build-fuzz/crashes/<target>/; every crash found must become a regression test.
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_PER=${1:-1200}
JOBS=${2:-2}
B=build-fuzz
CXX=clang++ CC=clang cmake -S . -B $B -G Ninja -DBUBBLESCOPE_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow -fno-omit-frame-pointer" > $B.log 2>&1
cmake --build $B --target fuzz_csv fuzz_trace_json fuzz_comm_json fuzz_discovery fuzz_analysis >> $B.log 2>&1
R=../shared/realdata
mkdir -p $B/corpus/{fuzz_csv,fuzz_trace_json,fuzz_comm_json,fuzz_discovery,fuzz_analysis} $B/crashes
find $R -name '*.csv' -size -200k -exec cp {} $B/corpus/fuzz_csv/ \; 2>/dev/null || true
for f in $(find $R -name '*.json' -size -300k); do cp "$f" $B/corpus/fuzz_trace_json/$(echo "$f" | md5sum | cut -c1-12).json; done
for f in $(find $R -name 'communication*.json' -o -name 'profiler_info*.json'); do cp "$f" $B/corpus/fuzz_comm_json/$(echo "$f" | md5sum | cut -c1-12).json; done
printf 'run_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv\nPROF_1/mindstudio_profiler_output/\nloop->.\n' > $B/corpus/fuzz_discovery/seed1
head -c 3000 $R/torch_npu_resnet_ddp/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv > $B/corpus/fuzz_analysis/seed1
printf '\0' >> $B/corpus/fuzz_analysis/seed1
head -c 20000 $R/torch_npu_resnet_ddp/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json >> $B/corpus/fuzz_analysis/seed1
run() {
  local t=$1
  mkdir -p $B/crashes/$t
  ASAN_OPTIONS=detect_leaks=1 $B/tests/fuzz/$t $B/corpus/$t -max_total_time=$SECONDS_PER -max_len=65536 -timeout=20 \
    -artifact_prefix=$B/crashes/$t/ -print_final_stats=1 > $B/$t.log 2>&1 || true
  echo "$t: $(grep -E 'stat::number_of_executed_units' $B/$t.log | tail -1) crashes: $(ls $B/crashes/$t | wc -l)"
}
export -f run
export B SECONDS_PER
printf '%s\n' fuzz_csv fuzz_trace_json fuzz_comm_json fuzz_discovery fuzz_analysis | xargs -P "$JOBS" -I{} bash -c 'run {}'
