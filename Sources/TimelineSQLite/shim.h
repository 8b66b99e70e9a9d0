#include <sqlite3.h>

/// `sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, bytes)`: how large a statement journal grows in
/// memory before SQLite moves it to a temporary file. `sqlite3_config` is variadic, which Swift
/// cannot call, hence this wrapper (used only by `SQLiteConnection`). It works only before
/// SQLite initialises, and returns SQLITE_MISUSE after.
static inline int timeline_sqlite3_config_statement_journal_spill(int bytes) {
    return sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, bytes);
}
