#!/usr/bin/env python3
"""Runs `bubblescope analyze --json` on every real folder and on generated profiles and validates
each root object against ../shared/spec/anomaly_discovery.schema.json (Debian's python3-jsonschema).
Usage: validate_anomaly_json.py BUBBLESCOPE SYNTH SCHEMA REALDATA SAMPLE WORKDIR"""
import json
import os
import subprocess
import sys

import jsonschema

binary, synth, schema_path, realdata, sample, work = sys.argv[1:7]
schema = json.load(open(schema_path))
os.makedirs(work, exist_ok=True)

targets = [
    ("real-l0-r0", os.path.join(realdata, "torch_npu_resnet_ddp/level0/rank0_ascend_pt")),
    ("real-l0-r1", os.path.join(realdata, "torch_npu_resnet_ddp/level0/rank1_ascend_pt")),
    ("real-l1-r0", os.path.join(realdata, "torch_npu_resnet_ddp/level1/rank0_ascend_pt")),
    ("real-l1-r1", os.path.join(realdata, "torch_npu_resnet_ddp/level1/rank1_ascend_pt")),
    ("real-msprof", os.path.join(realdata, "msprof_vllm_ascend")),
    ("real-legacy-advisor", os.path.join(realdata, "torch_npu_legacy_2024/advisor_backend_compute_advice")),
    ("real-legacy-compute", os.path.join(realdata, "torch_npu_legacy_2024/compute_advice_data")),
    ("real-legacy-timeline", os.path.join(realdata, "torch_npu_legacy_2024/timeline_advice")),
    ("sample", os.path.join(sample, "sample_ascend_pt")),
]
for name, args in [("gen-clean", ["--anomalies", "none"]), ("gen-level0", ["--level0", "--anomalies", "all"]),
                   ("gen-cut", ["--truncate", "0.7", "--anomalies", "all"]),
                   ("gen-dense", ["--dense", "4", "--dfc", "0", "--gmm", "0", "--steps", "4", "--anomalies", "all"])]:
    out = os.path.join(work, name)
    subprocess.run([synth, "--out", out, "--name", name, "--quiet"] + args, check=True)
    targets.append((name, os.path.join(out, name + "_ascend_pt")))

failures = 0
for name, path in targets:
    js = os.path.join(work, name + ".json")
    r = subprocess.run([binary, "analyze", path, "--json", js, "--format", "json"], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"FAIL {name}: exit {r.returncode}: {r.stderr.strip()}")
        failures += 1
        continue
    doc = json.load(open(js))
    try:
        jsonschema.validate(doc, schema)
    except jsonschema.ValidationError as e:
        print(f"FAIL {name}: {e.message} at {list(e.absolute_path)}")
        failures += 1
        continue
    if json.loads(r.stdout) != doc:
        print(f"FAIL {name}: stdout JSON differs from the file")
        failures += 1
        continue
    print(f"ok   {name}: {len(doc['bubble_windows'])} windows, confidence {doc['confidence']}")
print(f"{len(targets) - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
