import CSQLite

/// Pages one connection has moved since it opened, from SQLite's own counters
/// (`sqlite3_db_status`). They count work, not time, so a test may assert them.
package struct SQLitePageCounters: Sendable, Equatable {
    /// Dirty pages written (`SQLITE_DBSTATUS_CACHE_WRITE`). In WAL mode each is one WAL frame.
    package var pagesWritten: Int
    /// Pages the connection had to read because its cache lacked them (`SQLITE_DBSTATUS_CACHE_MISS`).
    package var pagesRead: Int

    /// The pages moved between `earlier` and these counters.
    package func since(_ earlier: SQLitePageCounters) -> SQLitePageCounters {
        SQLitePageCounters(pagesWritten: pagesWritten - earlier.pagesWritten, pagesRead: pagesRead - earlier.pagesRead)
    }
}

extension SQLiteConnection {
    /// This connection's page counters; never reset, so callers subtract two readings.
    package func pageCounters() -> SQLitePageCounters {
        SQLitePageCounters(
            pagesWritten: status(SQLITE_DBSTATUS_CACHE_WRITE), pagesRead: status(SQLITE_DBSTATUS_CACHE_MISS))
    }

    private func status(_ operation: Int32) -> Int {
        var current: Int32 = 0
        var highwater: Int32 = 0
        // Fails only for an unknown operation, which these constants are not.
        let code = sqlite3_db_status(handle, operation, &current, &highwater, 0)
        precondition(code == SQLITE_OK, "sqlite3_db_status(\(operation)) failed with \(code)")
        return Int(current)
    }
}
