#pragma once
// The words of the analysis, defined once: Help ▸ Glossary lists them and the tables' tooltips use them.
#include <QString>
#include <QVector>

namespace bs::ui {

struct GlossaryEntry {
    QString key;              // the English term, as the code names it
    QString term, definition; // translated
};

// Every entry, in the order the Help dialog shows them (translated).
QVector<GlossaryEntry> glossary();
// The translated definition of the English term `key` ("" when it has none).
QString glossaryDefinition(const QString& key);
// The glossary as HTML (a definition list).
QString glossaryHtml();

} // namespace bs::ui
