#pragma once
// The words of the analysis, defined once: Help ▸ Glossary lists them and the tables' tooltips use them.
// Every label, tag and scope the core can put in front of the user has an entry under the id the core
// writes (tests/docs/check_glossary.py reads the ids from core's sources and fails on one without an entry).
// Help ▸ Keyboard shortcuts is here too: what the window binds, from the key sequences it binds.
#include <QString>
#include <QVector>

#include <string>

class QWidget;

namespace bs::ui {

struct GlossaryEntry {
    QString key;              // the English term, or the id as the core writes it (COMM_SYNC_RISK, step_internal)
    QString term, definition; // translated
    QString section;          // translated heading the entry is listed under
};

// Every entry, in the order the Help dialog shows them (translated).
QVector<GlossaryEntry> glossary();
// The translated definition of the English term or id `key` ("" when it has none).
QString glossaryDefinition(const QString& key);
// The glossary as HTML: a heading per section, a definition list under each.
QString glossaryHtml();
// Help ▸ Glossary: a scrollable dialog (the list is taller than a message box can show).
void showGlossary(QWidget* parent);

// An op's PMU verdict for a table cell, in the window's language. The core writes an id (compute-bound,
// memory-bound, scalar-bound, mte1-bound, mte3-bound, fixpipe-bound, pmu_unavailable, not_applicable; the JSON
// keeps it), possibly followed by a message (", hot (aiv_mte2_ratio 0.91)"); an unknown id is shown as written.
QString pmuVerdictText(const std::string& verdict);

// The keys the window binds, as HTML (a table per place: window, find, timeline, the Cluster view's Ranks tab).
// Standard keys (Open, Find, Find next…) are written as this platform binds them.
QString keyboardShortcutsHtml();
// Help ▸ Keyboard shortcuts.
void showKeyboardShortcuts(QWidget* parent);

} // namespace bs::ui
