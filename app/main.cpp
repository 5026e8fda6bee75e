// Entry point: `bubblescope [PATH]` opens the window; `bubblescope analyze …` runs headless.
#include "cli_common.h"
#include "cluster_command.h"
#include "compare_command.h"
#include "headless.h"
#include "screenshot_command.h"
#include "language.h"
#include "main_window.h"
#include "sample_profile.h"

#include <QApplication>
#include <QCoreApplication>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>

#include "i18n/escape.h"

#include <cstdio>
#include <optional>
#include <string>
#include <cstring>
#include <sys/stat.h>

namespace {

void printHelp() {
    std::fputs(
        "BubbleScope " BUBBLESCOPE_VERSION " — device-idle bubble analysis for Ascend NPU profiles\n\n"
        "Usage:\n"
        "  bubblescope [PATH]            open the window (on PATH: a profiling folder or a file inside one)\n"
        "  bubblescope analyze PATH …    headless analysis (see 'bubblescope analyze --help')\n"
        "  bubblescope cluster SOURCE …  merge rank summaries, or compare the ranks of a parent\n"
        "                                (see 'bubblescope cluster --help')\n"
        "  bubblescope compare BASE NEW  two profiles before / after a change (see 'bubblescope compare --help')\n"
        "  bubblescope screenshot PATH --out FILE.png|svg [--bubble ID | --ranks [--step N]]  the timeline (or every rank's) as a picture, off screen\n"
        "Options:\n"
        "  -h, --help       this help\n"
        "  -v, --version    the version\n"
        "Commands: analyze, cluster, compare, screenshot. Any other word that is not an existing file or folder is an error (exit 2).\n"
        "The manual: man bubblescope.\n",
        stdout);
}

// `bubblescope WORD` where WORD is neither a command nor an existing file or folder: a mistyped or
// not-yet-existing subcommand. Starting the window on it would hang a headless caller. A name with a
// '/' is a path (the window says what is missing).
bool isUnknownCommand(const char* arg) {
    struct stat st {};
    return arg[0] != '-' && std::strchr(arg, '/') == nullptr && ::stat(arg, &st) != 0;
}

// Qt's own options, which QApplication takes out of the arguments (QGuiApplication / QApplication
// documentation): the window accepts these and nothing else beside one PATH.
constexpr const char* kQtValueOptions[] = {"-platform", "-platformpluginpath", "-platformtheme", "-plugin",
                                           "-qwindowgeometry", "-qwindowicon", "-qwindowtitle", "-session",
                                           "-style", "-stylesheet", "-display", "-geometry", "-title", "-name",
                                           "-qmljsdebugger"};
constexpr const char* kQtFlags[] = {"-reverse", "-widgetcount", "-nograb", "-dograb", "-sync"};

bool isQtOption(const char* arg, bool& takesValue) {
    for (const char* o : kQtFlags)
        if (std::strcmp(arg, o) == 0) return !(takesValue = false);
    for (const char* o : kQtValueOptions) {
        const std::size_t n = std::strlen(o);
        if (std::strncmp(arg, o, n) != 0) continue;
        if (arg[n] == '\0') return takesValue = true;
        if (arg[n] == '=') return !(takesValue = false);
    }
    return false;
}

// What the window is started with: no argument, one PATH, Qt's options. Anything else (an option of a
// command given without it, a typo) is a usage error, said here: a window started on it would abort
// without a display or never end under a batch caller. `path` receives the PATH (empty: the sample).
std::optional<int> windowArguments(int argc, char** argv, std::string& path) {
    bool operandsOnly = false;
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        bool takesValue = false;
        if (!operandsOnly && std::strcmp(a, "--") == 0) {
            operandsOnly = true;
        } else if (!operandsOnly && a[0] == '-' && a[1] != '\0') {
            if (!isQtOption(a, takesValue)) {
                std::fprintf(stderr,
                             "bubblescope: unknown option '%s'. The window takes a PATH (and Qt's own options such as "
                             "-platform or -style); options such as --json or -q belong to a command: "
                             "bubblescope analyze PATH --json FILE. See 'bubblescope --help'.\n",
                             bs::term(a).c_str());
                return 2;
            }
            if (takesValue && ++i >= argc) {
                std::fprintf(stderr, "bubblescope: %s needs a value.\n", a);
                return 2;
            }
        } else if (!path.empty()) {
            std::fprintf(stderr, "bubblescope: the window opens one PATH, not '%s' and '%s'; compare two profiles with "
                                 "'bubblescope compare BASE NEW'.\n",
                         bs::term(path).c_str(), bs::term(a).c_str());
            return 2;
        } else {
            path = a;
        }
    }
    return std::nullopt;
}

} // namespace

int main(int argc, char** argv) {
    if (argc >= 2 && std::strcmp(argv[1], "analyze") == 0) {
        QCoreApplication app(argc, argv);
        return runAnalyzeCommand(argc, argv);
    }
    if (argc >= 2 && std::strcmp(argv[1], "compare") == 0) {
        QCoreApplication app(argc, argv);
        return runCompareCommand(argc, argv);
    }
    if (argc >= 2 && std::strcmp(argv[1], "screenshot") == 0) {
        // Drawn off screen: no display needed (an explicit QT_QPA_PLATFORM is kept).
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        return runScreenshotCommand(argc, argv);
    }
    if (argc >= 2 && std::strcmp(argv[1], "cluster") == 0) {
        QCoreApplication app(argc, argv);
        return runClusterCommand(argc, argv);
    }
    if (argc >= 2 && (std::strcmp(argv[1], "--version") == 0 || std::strcmp(argv[1], "-v") == 0)) {
        return bs::cli::printToStandardOutput("bubblescope", [] { std::puts("bubblescope " BUBBLESCOPE_VERSION); })
                   ? 0
                   : bs::cli::kExitWriteFailed;
    }
    if (argc >= 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
        return bs::cli::printToStandardOutput("bubblescope", printHelp) ? 0 : bs::cli::kExitWriteFailed;
    }
    if (argc >= 2 && isUnknownCommand(argv[1])) {
        std::fprintf(
            stderr,
            "bubblescope: unknown command '%s' (and no file or folder of that name exists); commands: "
            "analyze, cluster, compare, screenshot (and `bubblescope PATH` opens the window). See 'bubblescope --help'.\n",
            argv[1]);
        return 2;
    }
    std::string path;
    if (auto stop = windowArguments(argc, argv, path)) return *stop;
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("BubbleScope"));
    QApplication::setOrganizationName(QStringLiteral("BubbleScope"));
    QApplication::setApplicationVersion(QStringLiteral(BUBBLESCOPE_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/bubblescope.png")));
    QApplication::setDesktopFileName(QStringLiteral("com.bubblescope.BubbleScope"));
    // Language: View ▸ Language override, else the system locale (switchable at once from the menu).
    bs::ui::applyLanguage(QSettings().value(QStringLiteral("language")).toString());
    bs::ui::MainWindow window;
    window.show();
    if (!path.empty()) {
        window.openPath(QString::fromLocal8Bit(path.c_str()));
    } else {
        QString error;
        const QString sample = bs::ui::extractSampleProfile(&error);
        if (sample.isEmpty())
            window.showMessage(error);
        else
            window.openSample(sample);
    }
    return app.exec();
}
