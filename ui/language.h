#pragma once
// The window's language: Qt's translators for the widgets' own words, core/i18n for the analysis's
// sentences (findings, evidence, recommendations, reports). Switching applies at once: every widget gets
// QEvent::LanguageChange and writes its texts again.
#include <QString>

#include <string_view>

namespace bs {
enum class Language;
}

namespace bs::ui {

// "" (the system's), "en" or "zh_CN": installs or removes the translators (Qt's own and BubbleScope's,
// from :/i18n or the file given to setTranslationFile) and sets the analysis language. Returns the
// language in effect.
Language applyLanguage(const QString& code);
Language currentLanguage();
// Where the BubbleScope .qm is when it is not embedded (tests).
void setTranslationFile(const QString& qmPath);

// A text of the core model for a widget: its sentences in the window's language, names unchanged.
QString coreText(std::string_view s);

} // namespace bs::ui
