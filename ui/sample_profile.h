#pragma once
#include <QString>

namespace bs::ui {

// The embedded sample profile (resources/sample, compiled into the executable) is copied once to the
// user's cache folder so the core loaders can read it like any folder. Returns the *_ascend_pt path,
// or an empty string with `error` set. The resource must be linked into the executable.
QString extractSampleProfile(QString* error);

} // namespace bs::ui
