#pragma once
// Literal input files for tst_health_check.cpp (kept out of the test source: moc cannot scan raw strings).

inline constexpr const char kTstHealthCheckFixture0[] = R"([
{"ph":"X","name":"ProfilerStep#1","pid":1,"tid":1,"ts":"1000.000","dur":900,"cat":"cpu_op"},
{"ph":"X","name":"ProfilerStep#2","pid":1,"tid":1,"ts":"2000.000","dur":50,"cat":"cpu_op"},
{"ph":"X","name":"ProfilerStep#3","pid":1,"tid":1,"ts":"2100.000","dur":50,"cat":"cpu_op"},
{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"Python"}}
])";
