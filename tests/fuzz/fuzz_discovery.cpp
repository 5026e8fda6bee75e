// libFuzzer target: folder discovery on a synthetic tree described by the input (one path per line,
// trailing '/' for folders, "->" for a symlink), then loading every rank found.
#include "io/discovery.h"
#include "io/profile_loader.h"

#include <filesystem>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const fs::path root = fs::temp_directory_path() / ("bs_fuzz_tree_" + std::to_string(getpid()));
    std::error_code ec;
    fs::remove_all(root, ec);
    fs::create_directories(root, ec);
    std::string text(reinterpret_cast<const char*>(data), size);
    std::size_t pos = 0, made = 0;
    while (pos < text.size() && made < 64) {
        std::size_t nl = text.find('\n', pos);
        std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
        pos = nl == std::string::npos ? text.size() : nl + 1;
        if (line.empty() || line.size() > 200 || line.find("..") != std::string::npos ||
            line.find('\0') != std::string::npos)
            continue;
        while (!line.empty() && line.front() == '/')
            line.erase(0, 1);
        if (line.empty()) continue;
        ++made;
        const auto arrow = line.find("->");
        if (arrow != std::string::npos) {
            fs::create_directories((root / line.substr(0, arrow)).parent_path(), ec);
            fs::create_directory_symlink(root / line.substr(arrow + 2), root / line.substr(0, arrow), ec);
        } else if (line.back() == '/') {
            fs::create_directories(root / line, ec);
        } else {
            fs::create_directories((root / line).parent_path(), ec);
            std::FILE* f = std::fopen((root / line).c_str(), "wb");
            if (f) {
                std::fputs("Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait "
                           "Time(us),Block Dim\n1,a,N/A,N/A,1,1,0,0\n",
                           f);
                std::fclose(f);
            }
        }
    }
    auto found = bs::discoverProfiles(root.string());
    for (const auto& r : found.ranks)
        bs::loadRank(r);
    fs::remove_all(root, ec);
    return 0;
}
