// Memory estimate against the measured peak (issue 45, item 6): for each profile folder, the loader's
// estimate (core/io/memory_estimate.h) beside the peak resident set of `bubblescope analyze --json` on it
// (fork/exec, ru_maxrss from wait4; the loader's own refusal lifted with BUBBLESCOPE_MEMORY_LIMIT_MB so that
// the peak is measured even where the estimate would refuse). Goal: estimate / peak within 0.8 … 1.5.
//   bubblescope-bench-memory BUBBLESCOPE PROFILE_DIR…   (exit status 1 when a ratio is outside the goal)
#include "io/discovery.h"
#include "io/load_control.h"
#include "io/memory_estimate.h"

#include <fmt/format.h>

#include <cstdio>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

// Peak RSS (bytes) of `bubblescope analyze DIR -q --json /dev/null`, or 0 when it did not exit 0.
double peakOf(const char* bubblescope, const std::string& dir) {
    std::fflush(stdout); // the child must not print the table's lines again
    const pid_t child = ::fork();
    if (child == 0) {
        ::setenv("BUBBLESCOPE_MEMORY_LIMIT_MB", "100000000", 1);
        if (!std::freopen("/dev/null", "w", stdout)) ::_exit(126);
        ::execl(bubblescope, bubblescope, "analyze", dir.c_str(), "-q", "--json", "/dev/null", nullptr);
        ::_exit(127);
    }
    int status = 0;
    struct rusage ru {};
    if (child < 0 || ::wait4(child, &status, 0, &ru) != child || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        return 0;
    return static_cast<double>(ru.ru_maxrss) * 1024.0;
}

double mib(double bytes) {
    return bytes / 1048576.0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fputs("usage: bubblescope-bench-memory BUBBLESCOPE PROFILE_DIR...\n", stderr);
        return 2;
    }
    std::puts("| Profile | trace MiB | tables MiB | comm.json MiB | DB MiB | estimate MiB | peak MiB | "
              "estimate / peak |");
    std::puts("|---|---|---|---|---|---|---|---|");
    bool ok = true;
    for (int i = 2; i < argc; ++i) {
        const bs::DiscoveryResult found = bs::discoverProfiles(argv[i]);
        if (found.ranks.size() != 1) {
            std::fprintf(stderr, "%s: expected one rank, found %zu\n", argv[i], found.ranks.size());
            return 2;
        }
        const bs::MemoryEstimate e =
            bs::estimateLoadMemory(bs::listRankFiles(found.ranks[0]), bs::DataSource::Auto);
        const double peak = peakOf(argv[1], found.ranks[0].root);
        const double need = static_cast<double>(e.needBytes);
        const double ratio = peak > 0 ? need / peak : 0;
        ok = ok && ratio >= 0.8 && ratio <= 1.5;
        std::puts(fmt::format("| {} | {:.0f} | {:.0f} | {:.0f} | {:.0f} | {:.0f} | {:.0f} | {:.2f} |",
                              argv[i], mib(static_cast<double>(e.traceBytes)),
                              mib(static_cast<double>(e.tableBytes)), mib(static_cast<double>(e.commBytes)),
                              mib(static_cast<double>(e.dbBytes)), mib(need), mib(peak), ratio)
                      .c_str());
        std::fflush(stdout);
    }
    return ok ? 0 : 1;
}
