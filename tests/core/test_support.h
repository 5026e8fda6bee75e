#pragma once
// Helpers shared by the core tests: real data location and small file builders for temp folders.
#include <QDir>
#include <QFile>
#include <QString>
#include <QTest>

#include <string>

namespace bstest {

inline QString realdata(const QString& rel = {}) {
    return QDir::cleanPath(QStringLiteral(BS_REALDATA_DIR) +
                           (rel.isEmpty() ? QString() : QStringLiteral("/") + rel));
}

// The real data is a hard requirement: a missing folder fails the test, never skips it.
inline bool requireRealdata() {
    if (!QDir(realdata()).exists()) {
        qWarning("real profiler data not found at %s", qPrintable(realdata()));
        return false;
    }
    return true;
}

inline void writeFile(const QString& path, const QByteArray& content) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
    f.write(content);
}

inline QByteArray readFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll();
}

inline std::string s(const QString& q) {
    return q.toStdString();
}

} // namespace bstest
