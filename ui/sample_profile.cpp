#include "sample_profile.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

namespace bs::ui {

QString extractSampleProfile(QString* error) {
    const QString root = QStringLiteral(":/sample");
    if (!QFileInfo(root).isDir()) {
        if (error)
            *error = QCoreApplication::translate("SampleProfile", "This build carries no sample profile.");
        return {};
    }
    const QString target = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) +
                           QStringLiteral("/sample-") + QCoreApplication::applicationVersion();
    QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString src = it.next();
        const QString rel = src.mid(root.size() + 1);
        const QString dst = target + QLatin1Char('/') + rel;
        if (QFileInfo(dst).size() == QFileInfo(src).size()) continue;
        QDir().mkpath(QFileInfo(dst).absolutePath());
        QFile::remove(dst);
        if (!QFile::copy(src, dst)) {
            if (error)
                *error =
                    QCoreApplication::translate("SampleProfile", "Cannot write the sample profile to %1.")
                        .arg(dst);
            return {};
        }
        QFile::setPermissions(dst, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup |
                                       QFileDevice::ReadOther);
    }
    return target + QStringLiteral("/sample_ascend_pt");
}

} // namespace bs::ui
