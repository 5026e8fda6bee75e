#pragma once
// Literal input files for tst_trace_json.cpp (kept out of the test source: moc cannot scan raw strings).

inline constexpr const char kTstTraceJsonFixture0[] =
    R"([{"ph": "X", "name": "ProfilerStep#7", "pid": 10, "tid": 10, "ts": "1736408883686740.710", "dur": 155985.8, "cat": "cpu_op", "args": {"Call stack": "a.py(1): f;\r\nb.py(2): g"}},
{"name": "MatMul_1", "pid": 3170820512, "tid": 2, "ts": "1736408883700059.821", "dur": 840.07675, "args": {"Model Id": 4294967295, "Task Type": "AI_CORE", "Physic Stream Id": 2}, "ph": "X"},
{"ph": "s", "bp": "e", "name": "HostToDevice1", "id": "111669149696", "pid": 10, "tid": 10, "ts": "1736408883700000.000", "cat": "HostToDevice"},
{"ph": "f", "bp": "e", "name": "HostToDevice1", "id": "111669149696", "pid": 3170820512, "tid": 2, "ts": "1736408883699999.000", "cat": "HostToDevice"},
{"ph": "C", "name": "HBM", "pid": 5, "tid": 0, "ts": "1736408883700000.000", "args": {"Read": 1}},
{"name": "process_name", "ph": "M", "pid": 3170820512, "tid": 0, "args": {"name": "Ascend Hardware"}},
{"name": "process_labels", "ph": "M", "pid": 3170820512, "tid": 0, "args": {"labels": "NPU"}},
{"name": "thread_name", "ph": "M", "pid": 3170820512, "tid": 2, "args": {"name": "Stream 2"}},
{"name": "thread_sort_index", "ph": "M", "pid": 3170820512, "tid": 2, "args": {"sort_index": 2}},
{"name": "process_name", "ph": "M", "pid": 10, "tid": 0, "args": {"name": "Python"}}
])";

inline constexpr const char kTstTraceJsonFixture1[] = R"({"displayTimeUnit": "ns", "traceEvents": [
 {"ph": "B", "name": "outer", "pid": 1, "tid": 1, "ts": 100.5},
 {"ph": "B", "name": "inner", "pid": 1, "tid": 1, "ts": 101},
 {"ph": "E", "pid": 1, "tid": 1, "ts": 102.25},
 {"ph": "E", "pid": 1, "tid": 1, "ts": 110},
 {"ph": "i", "name": "mark", "pid": 1, "tid": 1, "ts": 105, "s": "t"}
], "otherData": {}})";

inline constexpr const char kTstTraceJsonFixture2[] =
    R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":"1","dur":1},{"ph":"X","ts":tru},{"ph":"X","name":"b","pid":1,"tid":1,"ts":"3","dur":1}])";
