#include "io/sqlite_db.h"

#include "i18n/message.h"
#include "model/time.h"

#include <sqlite3.h>

#include <cmath>

namespace bs {

namespace {

// `file:` URI for an absolute or relative path: '%', '?' and '#' (and bytes outside printable ASCII)
// are percent-encoded so that they stay part of the path.
std::string fileUri(const std::string& path) {
    static const char* hex = "0123456789ABCDEF";
    std::string u = "file:";
    for (unsigned char c : path) {
        if (c == '%' || c == '?' || c == '#' || c < 0x21 || c > 0x7E) {
            u += '%';
            u += hex[c >> 4];
            u += hex[c & 15];
        } else {
            u += static_cast<char>(c);
        }
    }
    return u + "?immutable=1";
}

} // namespace

SqliteDb::SqliteDb(const std::string& path) : path_(path) {
    const int rc = sqlite3_open_v2(fileUri(path).c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        error_ = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        if (db_) sqlite3_close_v2(db_);
        db_ = nullptr;
        return;
    }
    // Large sequential reads: map the file instead of copying every page through the page cache.
    sqlite3_exec(db_, "PRAGMA mmap_size=1099511627776; PRAGMA cache_size=-65536;", nullptr, nullptr, nullptr);
    // The first read of the schema is where a file that is not a database fails. A file cut short (copied
    // while being written) fails here too, on the page count of its header; read with writable_schema, which
    // lets SQLite go on (the connection stays read-only and immutable: nothing is written), its tables read
    // up to the cut and each stops with an error of its own.
    if (!readSchema() && sqlite3_errcode(db_) == SQLITE_CORRUPT) {
        const std::string first = error_;
        error_.clear();
        tables_.clear();
        sqlite3_exec(db_, "PRAGMA writable_schema=ON;", nullptr, nullptr, nullptr);
        if (readSchema())
            truncated_ = true;
        else
            error_ = first;
    }
}

bool SqliteDb::readSchema() {
    SqliteQuery q(*this, "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name");
    if (!q.ok()) {
        error_ = q.error();
        return false;
    }
    while (q.next())
        tables_.emplace_back(q.text(0));
    if (!q.error().empty()) error_ = q.error();
    return error_.empty();
}

SqliteDb::~SqliteDb() {
    if (db_) sqlite3_close_v2(db_);
}

bool SqliteDb::hasTable(std::string_view name) const {
    for (const auto& t : tables_)
        if (t == name) return true;
    return false;
}

std::vector<std::string> SqliteDb::columns(const std::string& table) const {
    std::vector<std::string> out;
    if (!hasTable(table)) return out;
    std::string quoted = "\"";
    for (char c : table)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    SqliteQuery q(*this, "PRAGMA table_info(" + quoted + "\")");
    while (q.ok() && q.next())
        out.emplace_back(q.text(1));
    return out;
}

SqliteQuery::SqliteQuery(const SqliteDb& db, const std::string& sql) {
    if (!db.handle()) {
        error_ = msg("the database is not open");
        return;
    }
    if (sqlite3_prepare_v2(db.handle(), sql.c_str(), static_cast<int>(sql.size()), &stmt_, nullptr) != SQLITE_OK) {
        error_ = sqlite3_errmsg(db.handle());
        if (stmt_) sqlite3_finalize(stmt_);
        stmt_ = nullptr;
    }
}

SqliteQuery::~SqliteQuery() {
    if (stmt_) sqlite3_finalize(stmt_);
}

bool SqliteQuery::next() {
    if (!stmt_ || done_) return false;
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) {
        ++rows_;
        return true;
    }
    done_ = true;
    if (rc != SQLITE_DONE) error_ = sqlite3_errmsg(sqlite3_db_handle(stmt_));
    return false;
}

SqliteQuery::Type SqliteQuery::type(int col) const {
    switch (sqlite3_column_type(stmt_, col)) {
    case SQLITE_INTEGER:
        return Type::Integer;
    case SQLITE_FLOAT:
        return Type::Real;
    case SQLITE_TEXT:
        return Type::Text;
    case SQLITE_BLOB:
        return Type::Blob;
    default:
        return Type::Null;
    }
}

std::int64_t SqliteQuery::i64(int col) const {
    return sqlite3_column_int64(stmt_, col);
}

double SqliteQuery::f64(int col) const {
    return sqlite3_column_double(stmt_, col);
}

std::string_view SqliteQuery::text(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    const int n = sqlite3_column_bytes(stmt_, col);
    return p ? std::string_view(reinterpret_cast<const char*>(p), static_cast<std::size_t>(n)) : std::string_view{};
}

bool SqliteQuery::integer(int col, std::int64_t& out) const {
    switch (type(col)) {
    case Type::Integer:
        out = i64(col);
        return true;
    case Type::Text: {
        const std::string_view t = trimField(text(col));
        if (t.empty() || t.find_first_not_of("-0123456789") != std::string_view::npos) return false;
        const auto v = parseInt(t);
        if (!v) return false;
        out = *v;
        return true;
    }
    case Type::Real: {
        const double d = f64(col);
        // Exact only below 2^53; a larger REAL has already lost its last digits.
        if (!(std::fabs(d) < 9007199254740992.0) || d != std::floor(d)) return false;
        out = static_cast<std::int64_t>(d);
        return true;
    }
    default:
        return false;
    }
}

} // namespace bs
