#include "cli_common.h"
#include "progress.h"

#include "analysis/rulebook.h"
#include "gate/gate.h"
#include "io/file_buffer.h"
#include "io/load_control.h"
#include "i18n/escape.h"
#include "report/output_target.h"

#include "i18n/message.h"
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

namespace bs::cli {

bool printToStandardOutput(const char* command, const std::function<void()>& print) {
    // The first failing write sets errno (a full buffer is flushed inside print); nothing after it resets it.
    errno = 0;
    print();
    if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return true;
    std::fprintf(stderr, "%s: cannot write to standard output: %s\n", command, std::strerror(errno ? errno : EIO));
    return false;
}

std::optional<int> parseCommandLine(int argc, char** argv, const CommandSpec& spec, CommandLine& out) {
    const char* cmd = spec.command;
    const auto repeatable = [&](const std::string& a) {
        return std::find(spec.repeatable.begin(), spec.repeatable.end(), a) != spec.repeatable.end();
    };
    const auto takes = [&](const std::string& a) {
        return a == "--format" || repeatable(a) ||
               std::find(spec.valueOptions.begin(), spec.valueOptions.end(), a) != spec.valueOptions.end();
    };
    bool optionsEnded = false;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (!optionsEnded && takes(a)) {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s: %s needs a value.\n", cmd, term(a).c_str());
                spec.usage(stderr);
                return kExitUsage;
            }
            if (repeatable(a)) {
                const std::string v = argv[++i];
                if (v.empty()) {
                    std::fprintf(stderr, "%s: %s needs a value, not an empty string.\n", cmd, term(a).c_str());
                    return kExitUsage;
                }
                out.lists[a].push_back(v);
                continue;
            }
            if (out.values.count(a)) {
                std::fprintf(stderr, "%s: %s is given twice.\n", cmd, term(a).c_str());
                return kExitUsage;
            }
            const std::string v = argv[++i];
            if (v.empty()) {
                std::fprintf(stderr, "%s: %s needs a value, not an empty string.\n", cmd, term(a).c_str());
                return kExitUsage;
            }
            out.values[a] = v;
        } else if (!optionsEnded && a == "--") {
            optionsEnded = true;
        } else if (!optionsEnded && (a == "-q" || a == "--quiet")) {
            out.quiet = true;
        } else if (!optionsEnded && a == "--progress") {
            out.progressLines = true;
        } else if (!optionsEnded && std::find(spec.flags.begin(), spec.flags.end(), a) != spec.flags.end()) {
            out.flags.insert(a);
        } else if (!optionsEnded && (a == "-h" || a == "--help")) {
            return printToStandardOutput(cmd, [&] { spec.usage(stdout); }) ? kExitOk : kExitWriteFailed;
        } else if (!optionsEnded && a.size() > 1 && a[0] == '-') {
            std::fprintf(stderr, "%s: unknown option '%s' (a %s starting with '-' goes after --).\n", cmd,
                         term(a).c_str(), spec.operands.empty() ? "name" : spec.operands.front().c_str());
            spec.usage(stderr);
            return kExitUsage;
        } else if (out.operands.size() < spec.operands.size()) {
            out.operands.push_back(a);
        } else {
            std::string names;
            for (const auto& n : spec.operands)
                names += (names.empty() ? "" : " and ") + n;
            std::fprintf(stderr, "%s: only %s %s accepted ('%s' is extra).\n", cmd,
                         spec.operands.size() == 1 ? "one" : names.c_str(),
                         spec.operands.size() == 1 ? (spec.operands[0] + " is").c_str() : "are", term(a).c_str());
            return kExitUsage;
        }
    }
    if (out.quiet && out.progressLines) {
        std::fprintf(stderr, "%s: --quiet and --progress contradict each other; give one.\n", cmd);
        return kExitUsage;
    }
    if (out.operands.size() < spec.operands.size()) {
        std::fprintf(stderr, "%s: %s is missing.\n", cmd, spec.operands[out.operands.size()].c_str());
        spec.usage(stderr);
        return kExitUsage;
    }
    if (const auto f = out.values.find("--format"); f != out.values.end()) {
        out.format = f->second;
        out.formatGiven = true;
        if (out.format != "text" && out.format != "json") {
            std::fprintf(stderr, "%s: --format must be text or json, not '%s'.\n", cmd, term(out.format).c_str());
            return kExitUsage;
        }
    }
    if (const auto l = out.values.find("--lang"); l != out.values.end()) {
        if (!bs::parseLanguage(l->second, &out.language)) {
            std::fprintf(stderr, "%s: --lang must be en or zh_CN (also zh, cn), not '%s'.\n", cmd,
                         term(l->second).c_str());
            return kExitUsage;
        }
    }
    return std::nullopt;
}

std::optional<int> parseSourceOption(const char* command, const std::string& value, DataSource& source) {
    if (value.empty()) return std::nullopt;
    if (value != "db" && value != "text") {
        std::fprintf(stderr, "%s: --source must be db or text, not '%s'.\n", command, term(value).c_str());
        return kExitUsage;
    }
    source = value == "db" ? DataSource::Db : DataSource::Text;
    return std::nullopt;
}

std::optional<int> loadRulesFile(const char* command, const std::string& file, Rulebook& rules) {
    if (file.empty()) return std::nullopt;
    const FileBuffer fb = readWholeFile(file, 1 << 20);
    if (!fb.error.empty()) {
        std::fprintf(stderr, "%s: cannot read the rules file: %s\n", command, term(fb.error).c_str());
        return kExitUsage;
    }
    const auto problems = rules.overrideFromJson(std::string(fb.view()));
    for (const auto& pr : problems)
        std::fprintf(stderr, "%s: %s: %s\n", command, term(file).c_str(), term(pr).c_str());
    return problems.empty() ? std::nullopt : std::optional<int>(kExitUsage);
}

std::optional<int> parseGateOptions(const char* command, const std::vector<std::string>& given, GateCommand which,
                                    std::vector<GateExpr>& gates) {
    for (const auto& text : given) {
        std::string error;
        std::optional<GateExpr> g = parseGate(text, which, error);
        if (!g) {
            std::fprintf(stderr, "%s: %s\n", command, error.c_str());
            return kExitUsage;
        }
        gates.push_back(std::move(*g));
    }
    return std::nullopt;
}

std::string gateUsage(GateCommand which) {
    return std::string("  --fail-if EXPR  a performance gate (repeatable): exit 6 when EXPR holds, e.g. ") +
           (which == GateCommand::Analyze ? "'p90:service_ms>120'" : "'service_pct>2'") +
           ";\n                  the text output ends with a Gates section, the JSON has \"gates\"\n" + gateHelp(which) +
           "  --junit FILE    write the gates as JUnit XML (one testcase per gate) for Jenkins / GitLab\n";
}

void StandardOutput::put(const std::string& s) {
    if (std::fwrite(s.data(), 1, s.size(), stdout) != s.size() && error_ == 0) error_ = errno ? errno : EIO;
}

int StandardOutput::finish() {
    errno = 0;
    if (std::fflush(stdout) != 0 && error_ == 0) error_ = errno ? errno : EIO;
    if (std::ferror(stdout) && error_ == 0) error_ = EIO;
    return error_;
}

std::optional<int> checkClusterOutputs(const char* command,
                                       const std::vector<std::pair<const char*, std::string>>& outputs,
                                       std::vector<std::string> seen, const std::vector<std::string>& inputs) {
    for (const auto& [option, given] : outputs) {
        if (given.empty()) continue;
        const OutputTarget t = resolveOutputTarget(given);
        if (t.kind == OutputTarget::Kind::Refused) {
            std::fprintf(stderr, "%s: %s %s %s.\n", command, option, term(given).c_str(), t.refusal.c_str());
            return kExitUsage;
        }
        if (t.kind == OutputTarget::Kind::Descriptor && std::strcmp(option, "--junit") == 0) {
            std::fprintf(stderr, "%s: --junit writes a file or a device, not standard output (which carries the text "
                                 "or JSON output).\n", command);
            return kExitUsage;
        }
        if (t.kind == OutputTarget::Kind::Descriptor) {
            std::fprintf(stderr, "%s: %s writes a file or a device; for standard output use --format json (its "
                                 "document holds \"cluster\").\n", command, option);
            return kExitUsage;
        }
        const std::string id = t.identity();
        if (std::find(seen.begin(), seen.end(), id) != seen.end()) {
            std::fprintf(stderr, "%s: %s and another option name the same output (%s).\n", command, option,
                         term(given).c_str());
            return kExitUsage;
        }
        seen.push_back(id);
        for (const auto& input : inputs) {
            struct stat st {};
            if (!t.exists || ::stat(input.c_str(), &st) != 0 || st.st_dev != t.dev || st.st_ino != t.ino) continue;
            std::fprintf(stderr, "%s: %s %s is one of the files being read (%s); choose another output.\n", command,
                         option, term(given).c_str(), term(input).c_str());
            return kExitUsage;
        }
        if (const std::string why = knownWriteProblem(t); !why.empty()) {
            std::fprintf(stderr, "bubblescope: %s %s cannot be written: %s\n", option, term(given).c_str(),
                         term(why).c_str());
            return kExitWriteFailed;
        }
    }
    return std::nullopt;
}

bool writeOneOutput(const OutputTarget& target, const std::string& what, const std::string& content, Progress& progress) {
    return writeOneOutput(target, what, std::vector<std::string_view>{content}, progress);
}

bool writeOneOutput(const OutputTarget& target, const std::string& what, const std::vector<std::string_view>& content,
                    Progress& progress) {
    progress.writing(target.displayName());
    std::string err;
    {
        OutputWriteGuard guard(target.kind == OutputTarget::Kind::File);
        err = writeOutput(target, content);
    }
    if (!err.empty())
        progress.error("bubblescope: " + what + " was not written: " + term(err));
    else
        progress.note("bubblescope: wrote " + term(target.displayName()));
    progress.pause(); // until the next phase: "writing" is over
    return err.empty();
}

} // namespace bs::cli
