// libFuzzer target: the CSV readers (kernel_details / op_summary / task_time / step_trace_time) on arbitrary
// bytes.
#include "io/csv_reader.h"
#include "io/kernel_table_reader.h"
#include "io/side_file_readers.h"

#include <cstdio>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string path = "/tmp/bs_fuzz_csv_" + std::to_string(getpid()) + ".csv";
    {
        std::FILE* f = std::fopen(path.c_str(), "wb");
        if (!f) return 0;
        std::fwrite(data, 1, size, f);
        std::fclose(f);
    }
    bs::CsvReader r(std::string_view(reinterpret_cast<const char*>(data), size));
    std::vector<std::string_view> fields;
    while (r.next(fields)) {
    }
    for (auto kind :
         {bs::KernelSource::KernelDetails, bs::KernelSource::OpSummary, bs::KernelSource::TaskTime}) {
        bs::Profile p;
        bs::FindingSink sink;
        bs::readKernelTable(path, kind, p, sink);
    }
    bs::Profile p;
    bs::FindingSink sink;
    bs::readStepTraceTime(path, p, sink);
    return 0;
}
