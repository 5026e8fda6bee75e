#include "io/sqlite_db.h"

#include "i18n/message.h"
#include "model/time.h"

#include <sqlite3.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <system_error>

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
    return u;
}

// The log SQLite reads with `path`: it resolves symbolic links before appending "-wal".
std::string walBeside(const std::string& path) {
    std::error_code ec;
    const auto real = std::filesystem::canonical(path, ec);
    return (ec ? path : real.string()) + "-wal";
}

// Whether `wal` may hold committed transactions: anything there but an empty file. A folder or a dangling
// link counts, so that SQLite's error names it rather than the .db being read without it.
bool walPresent(const std::string& wal) {
    std::error_code ec;
    const auto st = std::filesystem::symlink_status(wal, ec);
    if (ec || st.type() == std::filesystem::file_type::not_found) return false;
    const bool file = std::filesystem::is_regular_file(wal, ec);
    return !(file && std::filesystem::file_size(wal, ec) == 0 && !ec);
}

// The VFS of a database read with its -wal: SQLite's "unix-none" (no locks: `immutable` takes none either)
// with the files beside the database (itself, its -wal, a journal) opened read-only and never created, and
// no file deleted. Whatever SQLite attempts (a checkpoint, removing a log it finds stale), nothing beside the
// user's database is written, created or removed. Temporary files (large sorts) still go to the temp folder.
sqlite3_vfs* baseVfs = nullptr;

int openReadOnly(sqlite3_vfs*, const char* name, sqlite3_file* file, int flags, int* outFlags) {
    constexpr int beside =
        SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_WAL | SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_SUPER_JOURNAL;
    if (flags & beside)
        flags = (flags & ~(SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)) | SQLITE_OPEN_READONLY;
    return baseVfs->xOpen(baseVfs, name, file, flags, outFlags);
}

int refuseDelete(sqlite3_vfs*, const char*, int) {
    return SQLITE_IOERR_DELETE;
}

// Registered once (thread-safe: the reader opens its connections on three threads); nullptr when this SQLite
// has no lock-free VFS to build on.
const char* readOnlyWalVfs() {
    static const char* const name = []() -> const char* {
        static sqlite3_vfs vfs;
        baseVfs = sqlite3_vfs_find("unix-none");
        if (!baseVfs) baseVfs = sqlite3_vfs_find("win32-none");
        if (!baseVfs) return nullptr;
        vfs = *baseVfs;
        vfs.pNext = nullptr;
        vfs.zName = "bubblescope-readonly-wal";
        vfs.xOpen = openReadOnly;
        vfs.xDelete = refuseDelete;
        return sqlite3_vfs_register(&vfs, 0) == SQLITE_OK ? vfs.zName : nullptr;
    }();
    return name;
}

// The header's page size (offset 16, big-endian; 1 means 65536) times its page count (offset 28, valid when
// the version-valid-for number at 92 equals the change counter at 24) is the file's length; a file shorter
// than that, or not a whole number of pages long, was cut (sqlite.org/fileformat2.html, "The Database Header").
bool shorterThanItsHeader(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rbe");
    if (!f) return false;
    unsigned char h[100] = {};
    const bool read = std::fread(h, 1, sizeof h, f) == sizeof h;
    std::fclose(f);
    if (!read) return false;
    auto be = [&](int at, int n) {
        std::uint64_t v = 0;
        for (int i = 0; i < n; ++i)
            v = v << 8 | h[at + i];
        return v;
    };
    std::uint64_t pageSize = be(16, 2);
    if (pageSize == 1) pageSize = 65536;
    if (pageSize < 512 || (pageSize & (pageSize - 1)) != 0) return false;
    std::error_code ec;
    const std::uint64_t size = std::filesystem::file_size(path, ec);
    if (ec) return false;
    const std::uint64_t pages = be(28, 4);
    if (be(92, 4) == be(24, 4) && pages > 0) return size < pages * pageSize;
    return size % pageSize != 0; // a header from an old writer: its count is not kept, only whole pages are

}

} // namespace

SqliteDb::SqliteDb(const std::string& path) : path_(path) {
    if (const std::string wal = walBeside(path); walPresent(wal)) wal_ = wal;
    if (!open()) return;
    // Large sequential reads: map the file instead of copying every page through the page cache.
    sqlite3_exec(db_, "PRAGMA mmap_size=1099511627776; PRAGMA cache_size=-65536;", nullptr, nullptr, nullptr);
    // The first read of the schema is where a file that is not a database fails. A file cut short (copied
    // while being written) fails here too, on the page count of its header; read with writable_schema, which
    // lets SQLite go on (the connection stays read-only: nothing is written), its tables read up to the cut
    // and each stops with an error of its own.
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
    // A cut inside the last page passes the schema read (SQLite counts whole pages only); the header says
    // how long the file must be.
    if (ok() && !truncated_ && shorterThanItsHeader(path_)) truncated_ = true;
}

// Without a -wal holding anything, `immutable`: SQLite never writes, locks or creates a file. With one, the
// committed transactions in it are part of the database (SQLite's own reading of them; `immutable` would
// ignore them). Read-only SQLite would then map a -shm file beside the database, creating it if missing;
// in exclusive locking mode, set before the first read, it keeps that WAL index in this connection's memory
// instead, and without the checkpoint on close it never writes the log back (core/README.md, "SQLite
// export").
bool SqliteDb::open() {
    const char* vfs = wal_.empty() ? nullptr : readOnlyWalVfs();
    if (!wal_.empty() && !vfs)
        return error_ = msg("this SQLite cannot read a log without writing beside it"), false;
    const std::string uri = fileUri(path_) + (wal_.empty() ? "?immutable=1" : "");
    int rc =
        sqlite3_open_v2(uri.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, vfs);
    if (rc == SQLITE_OK && vfs) {
        sqlite3_db_config(db_, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
        rc = sqlite3_exec(db_, "PRAGMA locking_mode=EXCLUSIVE;", nullptr, nullptr, nullptr);
    }
    if (rc == SQLITE_OK) return true;
    error_ = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close_v2(db_);
    db_ = nullptr;
    return false;
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
