#pragma once
// Input shapes that used to make a reader or an analysis step quadratic (issue 19, item 11). Each
// function writes one torch_npu rank folder `<root>/<name>_ascend_pt` sized by n and returns its path.
// Shared by the complexity bench (timing at n and 8n) and tests/hostile/tst_input_bounds.cpp (results
// at a modest n). Plain C++: no Qt, no core headers.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace shapes {

// A capture start in µs (2025-01-09), as torch_npu writes it.
constexpr long long kBaseUs = 1736408883000000LL;

// "<base + ns>" in µs with three decimals, the kernel_details spelling.
inline std::string us(long long offsetNs) {
    const long long ns = kBaseUs * 1000 + offsetNs;
    char b[40];
    std::snprintf(b, sizeof b, "%lld.%03lld", ns / 1000, ns % 1000);
    return b;
}

inline std::string rankDir(const std::string& root, const std::string& name) {
    const std::string dir = root + "/" + name + "_ascend_pt";
    std::filesystem::create_directories(dir + "/ASCEND_PROFILER_OUTPUT");
    return dir;
}

inline void write(const std::string& path, const std::string& text) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << text;
}

inline std::string kernelCsv(const std::string& dir) {
    return dir + "/ASCEND_PROFILER_OUTPUT/kernel_details.csv";
}

const char* const kHeader =
    "Step Id,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us)";

// (a) trace_view.json that is a JSON array of `bytes` bytes of numbers (no object at all).
inline std::string traceOfNumbers(const std::string& root, std::size_t bytes) {
    const std::string dir = rankDir(root, "numbers");
    std::string t = "[";
    t.reserve(bytes + 16);
    while (t.size() + 8 < bytes)
        t += "1234567,";
    t += "1]";
    write(dir + "/ASCEND_PROFILER_OUTPUT/trace_view.json", t);
    return dir;
}

// (b) A kernel table with `columns` PMU columns (aic_c0 … ) and 4 rows; every PMU value is 0.5.
inline std::string pmuColumns(const std::string& root, std::size_t columns) {
    const std::string dir = rankDir(root, "pmu");
    std::string t = kHeader;
    for (std::size_t c = 0; c < columns; ++c)
        t += ",aic_c" + std::to_string(c);
    t += "\n";
    for (int r = 0; r < 4; ++r) {
        t += "1,2,K" + std::to_string(r) + ",MatMul,AI_CORE," + us(r * 20000LL) + ",10,0";
        for (std::size_t c = 0; c < columns; ++c)
            t += ",0.5";
        t += "\n";
    }
    write(kernelCsv(dir), t);
    return dir;
}

// (c) `rows` rows on one stream that all start at the same time; row i repeats row i - rows/2 exactly,
// so rows - rows/2 of them are duplicates and the rows/2 kept ones overlap each other on the stream.
inline std::string equalStarts(const std::string& root, std::size_t rows) {
    const std::string dir = rankDir(root, "dups");
    const std::size_t half = rows / 2 ? rows / 2 : 1;
    std::string t = std::string(kHeader) + "\n";
    const std::string start = us(0);
    for (std::size_t i = 0; i < rows; ++i)
        t += "1,2,K" + std::to_string(i % half) + ",Add,AI_CORE," + start + ",10,0\n";
    write(kernelCsv(dir), t);
    return dir;
}

// (d) `kernels` back-to-back kernels of one op type on one stream (10 µs apart, 5 µs long), no
// attention kernel: the structure search looks for a repeating pattern in a sequence of one symbol.
inline std::string oneOpType(const std::string& root, std::size_t kernels) {
    const std::string dir = rankDir(root, "oneop");
    std::string t = std::string(kHeader) + "\n";
    for (std::size_t i = 0; i < kernels; ++i)
        t += "1,2,MatMul_" + std::to_string(i % 10) + ",MatMul,AI_CORE," +
             us(static_cast<long long>(i) * 10000) + ",5,0\n";
    write(kernelCsv(dir), t);
    return dir;
}

// (e) `streams` streams with one kernel each: kernel i on stream i starts at i µs and lasts 1.5 µs,
// so stream i overlaps streams i - 1 and i + 1 and no other.
inline std::string manyStreams(const std::string& root, std::size_t streams) {
    const std::string dir = rankDir(root, "streams");
    std::string t = std::string(kHeader) + "\n";
    for (std::size_t i = 0; i < streams; ++i)
        t += "1," + std::to_string(i) + ",K,Add,AI_CORE," + us(static_cast<long long>(i) * 1000) + ",1.5,0\n";
    write(kernelCsv(dir), t);
    return dir;
}

// (f) `steps` steps from the Step Id column, 200 µs apart, each with two kernels covering 100 µs
// (10 µs internal gap): between two steps lies a 100 µs device gap outside every step window, i.e.
// steps - 1 global bubble windows.
inline std::string manySteps(const std::string& root, std::size_t steps) {
    const std::string dir = rankDir(root, "steps");
    std::string t = std::string(kHeader) + "\n";
    for (std::size_t j = 0; j < steps; ++j) {
        const long long s = static_cast<long long>(j) * 200000;
        const std::string id = std::to_string(j + 1);
        t += id + ",2,MatMul_1,MatMul,AI_CORE," + us(s) + ",50,0\n";
        t += id + ",2,Add_1,Add,AI_VECTOR_CORE," + us(s + 60000) + ",40,0\n";
    }
    write(kernelCsv(dir), t);
    return dir;
}

// (g) `windows` device gaps of 100 µs (kernels 100 µs long, 200 µs apart, one Step Id step) under a host
// trace of 2 x `windows` threads: on thread i one short event inside gap i (120 … 170 µs after kernel
// i starts), on thread windows + i one 11 ms event from kernel i's start. Every gap sees 2 short-lane
// neighbours at most but ~55 long events, each on its own thread: the host evidence of a window once
// scanned every long event and every lane.
inline std::string hostLanes(const std::string& root, std::size_t windows) {
    const std::string dir = rankDir(root, "hosts");
    std::string t = std::string(kHeader) + "\n";
    for (std::size_t i = 0; i <= windows; ++i)
        t += "1,2,MatMul_1,MatMul,AI_CORE," + us(static_cast<long long>(i) * 200000) + ",100,0\n";
    write(kernelCsv(dir), t);
    std::string j = "[";
    for (std::size_t i = 0; i < windows; ++i) {
        const long long s = static_cast<long long>(i) * 200000;
        j +=
            "{\"ph\":\"X\",\"name\":\"aten::add\",\"cat\":\"cpu_op\",\"pid\":1,\"tid\":" + std::to_string(i) +
            ",\"ts\":\"" + us(s + 120000) + "\",\"dur\":50},";
        j += "{\"ph\":\"X\",\"name\":\"python_loop\",\"cat\":\"python_function\",\"pid\":1,\"tid\":" +
             std::to_string(windows + i) + ",\"ts\":\"" + us(s) + "\",\"dur\":11000},";
    }
    j += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"Python\"}}]";
    write(dir + "/ASCEND_PROFILER_OUTPUT/trace_view.json", j);
    return dir;
}

// (l) `events` host events nested on one thread of trace_view.json: event i, named "f<i mod 4096>" (distinct
// within any 4096 in a row, and no string pool of a million names), starts i µs after the capture start and
// ends 2 x events - i µs after it (event i + 1 inside event i), as 'X' events or as B/E pairs (all B in start
// order, then all E innermost first). Kernels every 128 µs, 32 µs long, and one more 64 µs after the nest (so
// that no event encloses the step): the device gaps under the nest are windows whose host evidence is the
// whole chain above them.
inline std::string nestedTrace(const std::string& root, std::size_t events, bool beginEnd) {
    const std::string dir = rankDir(root, beginEnd ? "nestbe" : "nestx");
    const auto n = static_cast<long long>(events);
    std::string t = std::string(kHeader) + "\n";
    for (long long s = 0; s < 2 * n * 1000; s += 128000)
        t += "1,2,MatMul_1,MatMul,AI_CORE," + us(s) + ",32,0\n";
    t += "1,2,MatMul_1,MatMul,AI_CORE," + us(2 * n * 1000 + 64000) + ",32,0\n";
    write(kernelCsv(dir), t);
    std::string j = "[";
    j.reserve(static_cast<std::size_t>(n) * (beginEnd ? 180 : 120));
    auto event = [&](char ph, long long i, long long tsNs) {
        j += "{\"ph\":\"";
        j += ph;
        j += "\",\"name\":\"f" + std::to_string(i % 4096) +
             "\",\"cat\":\"cpu_op\",\"pid\":1,\"tid\":1,\"ts\":\"" + us(tsNs) + "\"";
        if (ph == 'X') j += ",\"dur\":" + std::to_string(2 * n - 2 * i);
        j += "},";
    };
    for (long long i = 0; i < n; ++i)
        event(beginEnd ? 'B' : 'X', i, i * 1000);
    for (long long i = beginEnd ? n - 1 : -1; i >= 0; --i)
        event('E', i, (2 * n - i) * 1000);
    j += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"Python\"}}]";
    write(dir + "/ASCEND_PROFILER_OUTPUT/trace_view.json", j);
    return dir;
}

} // namespace shapes
