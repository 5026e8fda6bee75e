#pragma once
// A thin read-only view of a SQLite file (the profiler's `export_type=db` output). Opened through a
// `file:` URI with `immutable=1`: SQLite then never writes, never takes a lock and never creates a -wal or
// -shm file beside the user's database. A database whose -wal file holds anything is read with it, still
// without writing, locking or creating anything beside it (sqlite_db.cpp, SqliteDb::open). The header stays
// free of <sqlite3.h>.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace bs {

class SqliteDb {
  public:
    // Opens `path` read-only (immutable unless a -wal file is read with it). On failure ok() is false and
    // error() says why.
    explicit SqliteDb(const std::string& path);
    ~SqliteDb();
    SqliteDb(const SqliteDb&) = delete;
    SqliteDb& operator=(const SqliteDb&) = delete;

    bool ok() const { return db_ != nullptr && error_.empty(); }
    const std::string& error() const { return error_; }
    const std::string& path() const { return path_; }
    // Names of the tables (empty when the file is not a readable database; error() then says why).
    const std::vector<std::string>& tables() const { return tables_; }
    bool hasTable(std::string_view name) const;
    // Column names of a table, in order (empty when the table does not exist).
    std::vector<std::string> columns(const std::string& table) const;
    sqlite3* handle() const { return db_; }
    // The file is shorter than its header says (cut): tables are read up to the cut.
    bool truncated() const { return truncated_; }
    // The -wal file read with the database (its committed transactions are part of it), or empty when there
    // is none or it is empty. When set and ok() is false, the database could not be read with it.
    const std::string& walPath() const { return wal_; }

  private:
    bool open();
    bool readSchema();
    bool truncated_ = false;
    std::string path_, error_, wal_;
    sqlite3* db_ = nullptr;
    std::vector<std::string> tables_;
};

// One SELECT, stepped row by row. Values are read by their storage class, never through a double for
// integers (timestamps are int64 ns and must stay exact).
class SqliteQuery {
  public:
    SqliteQuery(const SqliteDb& db, const std::string& sql);
    ~SqliteQuery();
    SqliteQuery(const SqliteQuery&) = delete;
    SqliteQuery& operator=(const SqliteQuery&) = delete;

    // Prepared? When not, error() says why (missing table or column, not a database, corrupt schema).
    bool ok() const { return stmt_ != nullptr; }
    // Next row: true when there is one. At the end or on an error (a cut or corrupt file) false; error()
    // then holds SQLite's message and rows() the rows read before it.
    bool next();
    const std::string& error() const { return error_; }
    std::uint64_t rows() const { return rows_; }

    enum class Type { Integer, Real, Text, Blob, Null };
    Type type(int col) const;
    bool isNull(int col) const { return type(col) == Type::Null; }
    std::int64_t i64(int col) const;
    double f64(int col) const;
    std::string_view text(int col) const;
    // An integer value: INTEGER as is, TEXT of decimal digits parsed exactly (some host tables store ns
    // as TEXT), REAL only when integral and exact. False for anything else (NULL, blob, garbage).
    bool integer(int col, std::int64_t& out) const;

  private:
    sqlite3_stmt* stmt_ = nullptr;
    std::string error_;
    std::uint64_t rows_ = 0;
    bool done_ = false;
};

} // namespace bs
