import Foundation

/// `player_flags`: notes for support about a player, such as a refund floored at zero. Only ever
/// appended to; kept by a game reset.
enum PlayerFlagsTable {
    /// The table as it stands, for a new database (`LedgerSchemaDescription`).
    static let schema = SQLTable(
        "player_flags",
        columns: [
            SQLColumn("sequence", .sequence(neverReused: true)), SQLColumn("player_id", .key), SQLColumn("flag", .text),
            SQLColumn("detail", .text), SQLColumn("store", .key, isNullable: true),
            SQLColumn("transaction_id", .key, isNullable: true), SQLColumn("at_ms", .integer),
        ],
        indexes: [SQLIndex("player_flags_by_player", on: ["player_id", "sequence"])])

    static let selectNewestSQL = """
        SELECT flag, detail, store, transaction_id, at_ms FROM player_flags WHERE player_id = ?
        ORDER BY sequence DESC LIMIT ?
        """
    static let insertSQL = """
        INSERT INTO player_flags (player_id, flag, detail, store, transaction_id, at_ms) VALUES (?, ?, ?, ?, ?, ?)
        """
}

extension LedgerReader {
    /// A player's flags, newest first, at most `limit`.
    public func playerFlags(playerID: String, limit: Int) throws(LedgerError) -> [PlayerFlag] {
        try rows(PlayerFlagsTable.selectNewestSQL, [.text(playerID), .count(limit)], limit: limit) { (row) throws(LedgerError) in
            let key = try row.optionalText(2).map { (store) throws(LedgerError) in
                TransactionKey(store: PlatformStore(rawValue: store), transactionID: try row.text(3))
            }
            return PlayerFlag(
                flag: try row.text(0), detail: try row.text(1), transaction: key, at: Date(ledgerMilliseconds: try row.int64(4)))
        }
    }
}

extension LedgerWriter {
    /// Adds a flag to a player.
    public func insertPlayerFlag(_ flag: PlayerFlag, playerID: String) throws(LedgerError) {
        try run(
            PlayerFlagsTable.insertSQL,
            [
                .text(playerID), .text(flag.flag), .text(flag.detail), .text(flag.transaction?.store.rawValue),
                .text(flag.transaction?.transactionID), .milliseconds(flag.at),
            ])
    }
}
