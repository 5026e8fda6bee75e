// Entry point: `bubblescope [PATH]` opens the window; `bubblescope analyze …` runs headless.
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

#include <cstdio>
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
        "  bubblescope screenshot PATH --out FILE.png|svg [--bubble ID]  the timeline as a picture, off screen\n"
        "Options:\n"
        "  -h, --help       this help\n"
        "  -v, --version    the version\n"
        "Commands: analyze, cluster, compare, screenshot. Any other word that is not an existing file or folder is an error (exit 2).\n"
        "The manual: man bubblescope.\n",
        stdout);
}

// `bubblescope WORD` where WORD is neither a command nor an existing file or folder: a mistyped or
// not-yet-existing subcommand. Starting the window on it would hang a headless caller. A name with a
// '/' is a path (the window says what is missing); options go to Qt.
bool isUnknownCommand(const char* arg) {
    struct stat st {};
    return arg[0] != '-' && std::strchr(arg, '/') == nullptr && ::stat(arg, &st) != 0;
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
        std::puts("bubblescope " BUBBLESCOPE_VERSION);
        return 0;
    }
    if (argc >= 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
        printHelp();
        return 0;
    }
    if (argc >= 2 && isUnknownCommand(argv[1])) {
        std::fprintf(
            stderr,
            "bubblescope: unknown command '%s' (and no file or folder of that name exists); commands: "
            "analyze, cluster, compare, screenshot (and `bubblescope PATH` opens the window). See 'bubblescope --help'.\n",
            argv[1]);
        return 2;
    }
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
    const QStringList args = QApplication::arguments();
    if (args.size() >= 2) {
        window.openPath(args.at(1));
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
