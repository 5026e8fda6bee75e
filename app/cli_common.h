#pragma once
// Pieces the headless commands share (`analyze`, `cluster`): standard output that remembers its first
// failure, the checks of the cluster outputs, and one output written whole or not at all.
#include "i18n/message.h"

#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace bs {
struct OutputTarget;
struct Rulebook;
struct GateExpr;
enum class DataSource;
enum class GateCommand;
namespace cli {

class Progress;

constexpr int kExitOk = 0;
constexpr int kExitUsage = 2;
constexpr int kExitNoData = 3;
constexpr int kExitWriteFailed = 4;
constexpr int kExitIncomplete = 5; // `cluster`: merged, but a rank has no summary or a summary was refused
constexpr int kExitGateFailed = 6; // `analyze`, `compare`: a --fail-if gate failed (everything else went well)

// `bubblescope COMMAND [OPTIONS] [--] OPERAND…`: what a command accepts.
struct CommandSpec {
    const char* command;                    // "bubblescope analyze": prefixes every message
    std::vector<std::string> valueOptions;  // options that take a value ("--json"); --format is built in
    std::vector<std::string> flags;         // options without one ("--list-ranks"); -q/--quiet, --progress, -h built in
    std::vector<std::string> operands;      // their names, all required ("PATH"; "BASE", "NEW")
    void (*usage)(std::FILE*);
    std::vector<std::string> repeatable = {}; // value options that may be given several times ("--fail-if")
};
struct CommandLine {
    std::map<std::string, std::string> values; // value options given (never empty strings)
    std::map<std::string, std::vector<std::string>> lists; // the repeatable ones, in the order given
    std::set<std::string> flags;
    std::vector<std::string> operands;
    std::string format = "text";                // --format text|json
    bool formatGiven = false, quiet = false, progressLines = false;
    // --lang en|zh_CN (also zh, cn): the language of the reports, the text output and the messages from the
    // analysis; only for the commands whose spec lists "--lang" among its value options.
    bs::Language language = bs::Language::English;
    std::string value(const std::string& option) const {
        const auto it = values.find(option);
        return it == values.end() ? std::string() : it->second;
    }
    bool has(const std::string& flag) const { return flags.count(flag) != 0; }
};
// Runs `print` (text for standard output) and flushes; false (said on standard error with the system's
// reason, prefixed by `command`) when it could not be written (/dev/full, a closed pipe), so --help,
// --version and the like do not claim success for text nobody got.
bool printToStandardOutput(const char* command, const std::function<void()>& print);

// Reads argv[2…]; an exit status when the command must stop here (help printed: 0; a usage error: 2, said).
std::optional<int> parseCommandLine(int argc, char** argv, const CommandSpec& spec, CommandLine& out);

// The usage line of --lang, shared by the commands that take it.
inline constexpr const char* kLangUsage =
    "  --lang LANG     the language of the reports, the text output and the analysis messages:\n"
    "                  en (default) or zh_CN (also zh, cn)\n";

// --source db|text into `source` (an empty value leaves it); a usage error is said and returned.
std::optional<int> parseSourceOption(const char* command, const std::string& value, DataSource& source);
// --rules FILE over `rules` (an empty name leaves them); an unreadable file or a bad entry is a usage error.
std::optional<int> loadRulesFile(const char* command, const std::string& file, Rulebook& rules);

// Standard output through stdio, remembering the first failure (a full disk, a closed descriptor) so
// the exit status can say the output was not written.
class StandardOutput {
  public:
    void put(const std::string& s);
    // Flushes; the reason of the first failure, or 0.
    int finish();

  private:
    int error_ = 0;
};

// The cluster JSON / report outputs (--cluster-json/--cluster-report of analyze, --json/--report of cluster):
// refused before anything is read when unwritable, a stream, or the same as another output (`seen`: the
// identities of the other outputs), or one of the files read (`inputs`: the summaries being merged).
// `command` prefixes the messages ("bubblescope analyze").
std::optional<int> checkClusterOutputs(const char* command,
                                       const std::vector<std::pair<const char*, std::string>>& outputs,
                                       std::vector<std::string> seen, const std::vector<std::string>& inputs = {});

// Writes one output (a file atomically; Ctrl+C waits for it, see progress.h); prints "wrote NAME" or the
// error. False when it was not written.
bool writeOneOutput(const OutputTarget& target, const std::string& what, const std::string& content, Progress& progress);
// The same for content given in pieces (a large JSON export is not joined into one string first).
bool writeOneOutput(const OutputTarget& target, const std::string& what, const std::vector<std::string_view>& content,
                    Progress& progress);

// --fail-if EXPR…: each parsed into `gates`; a malformed one is a usage error (said, naming what is accepted).
std::optional<int> parseGateOptions(const char* command, const std::vector<std::string>& given, GateCommand which,
                                    std::vector<GateExpr>& gates);
// The usage lines of --fail-if and --junit, shared by analyze and compare.
std::string gateUsage(GateCommand which);

} // namespace cli
} // namespace bs
