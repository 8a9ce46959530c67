#ifndef FULFILLMENT_LEDGER_CSQLITE_SHIM_H
#define FULFILLMENT_LEDGER_CSQLITE_SHIM_H
#include <sqlite3.h>

/// `sqlite3_db_config` is variadic, which Swift cannot call: this sets
/// `SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`, so closing the connection neither checkpoints nor
/// removes the WAL (the next open recovers it). Returns an SQLite result code.
static inline int fulfillment_ledger_sqlite3_skip_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
#endif
