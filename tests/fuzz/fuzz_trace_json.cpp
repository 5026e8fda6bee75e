// libFuzzer target: the streaming trace reader (trace_view.json / msprof_*.json), with a small chunk size so
// carry-over and buffer growth are exercised.
#include "io/trace_json_reader.h"

#include <cstdio>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string path = "/tmp/bs_fuzz_trace_" + std::to_string(getpid()) + ".json";
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return 0;
    std::fwrite(data, 1, size, f);
    std::fclose(f);
    for (std::size_t chunk : {std::size_t(4096), std::size_t(1) << 20}) {
        bs::Profile p;
        bs::FindingSink sink;
        bs::TraceReadOptions o;
        o.chunkBytes = chunk;
        bs::readTraceJson(path, p, sink, {}, o);
    }
    return 0;
}
