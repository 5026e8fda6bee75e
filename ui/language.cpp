#include "language.h"

#include "i18n/message.h"

#include <QApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace bs::ui {

namespace {

Language gLanguage = Language::English;
QString gQmFile;

QTranslator*& appTranslator() {
    static QTranslator* t = nullptr;
    return t;
}
QTranslator*& qtTranslator() {
    static QTranslator* t = nullptr;
    return t;
}

void drop(QTranslator*& t) {
    if (!t) return;
    QCoreApplication::removeTranslator(t);
    delete t;
    t = nullptr;
}

} // namespace

Language applyLanguage(const QString& code) {
    const QString name = code.isEmpty() ? QLocale::system().name() : code;
    Language lang = Language::English;
    const QByteArray utf8 = name.toUtf8();
    if (!parseLanguage(std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size())), &lang))
        lang = Language::English;
    drop(appTranslator());
    drop(qtTranslator());
    gLanguage = lang;
    if (lang == Language::Chinese) {
        auto* app = new QTranslator(qApp);
        const QString file = gQmFile.isEmpty() ? QStringLiteral(":/i18n/bubblescope_zh_CN.qm") : gQmFile;
        if (app->load(file)) {
            appTranslator() = app;
            QCoreApplication::installTranslator(app);
        } else {
            delete app;
        }
        auto* qt = new QTranslator(qApp);
        if (qt->load(QStringLiteral("qtbase_zh_CN"), QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
            qtTranslator() = qt;
            QCoreApplication::installTranslator(qt);
        } else {
            delete qt;
        }
    }
    // Removing a translator when none is installed sends no LanguageChange: send it, so the widgets that
    // show analysis sentences write them in the new language in every case.
    if (!appTranslator() && !qtTranslator() && qApp) {
        QEvent ev(QEvent::LanguageChange);
        QCoreApplication::sendEvent(qApp, &ev);
    }
    return lang;
}

Language currentLanguage() { return gLanguage; }

void setTranslationFile(const QString& qmPath) { gQmFile = qmPath; }

QString coreText(std::string_view s) {
    if (!hasMessage(s)) return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
    const std::string r = render(s, gLanguage);
    return QString::fromStdString(r);
}

} // namespace bs::ui
