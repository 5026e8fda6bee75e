// libFuzzer target: communication.json and profiler_info JSON readers.
#include "io/side_file_readers.h"

#include <cstdio>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string path = "/tmp/bs_fuzz_comm_" + std::to_string(getpid()) + ".json";
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return 0;
    std::fwrite(data, 1, size, f);
    std::fclose(f);
    bs::Profile p;
    bs::FindingSink sink;
    bs::readCommunicationJson(path, p, sink);
    bs::readProfilerInfo(path, p, sink);
    return 0;
}
