#pragma once
// Helpers shared by the window tests.
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>

namespace bstest {

// Clicks the link `href` of a text browser where it is drawn, with a real mouse click.
inline bool clickLink(QTextBrowser* b, const QString& href) {
    QTextDocument* doc = b->document();
    for (QTextBlock blk = doc->begin(); blk.isValid(); blk = blk.next())
        for (auto it = blk.begin(); !it.atEnd(); ++it) {
            const QTextFragment f = it.fragment();
            if (!f.isValid() || f.charFormat().anchorHref() != href) continue;
            QTextCursor c(doc);
            c.setPosition(f.position() + f.length() / 2);
            b->setTextCursor(c);
            b->ensureCursorVisible();
            QTest::mouseClick(b->viewport(), Qt::LeftButton, Qt::NoModifier, b->cursorRect(c).center());
            return true;
        }
    return false;
}

} // namespace bstest
