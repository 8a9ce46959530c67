import Foundation
import FulfillmentLedger

/// `player_flags`: notes for support about a player, such as a refund floored at zero.
/// Only ever appended to; kept by a game reset.
enum PlayerFlagsTable {
    static let createSQL = """
        CREATE TABLE player_flags (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            player_id TEXT NOT NULL,
            flag TEXT NOT NULL,
            detail TEXT NOT NULL,
            store TEXT,
            transaction_id TEXT,
            at_ms INTEGER NOT NULL
        );
        CREATE INDEX player_flags_by_player ON player_flags (player_id, sequence);
        """

    static let selectNewestSQL = """
        SELECT flag, detail, store, transaction_id, at_ms
        FROM player_flags WHERE player_id = ? ORDER BY sequence DESC LIMIT ?
        """
    static let insertSQL = """
        INSERT INTO player_flags (player_id, flag, detail, store, transaction_id, at_ms) VALUES (?, ?, ?, ?, ?, ?)
        """
}

extension SQLiteLedgerSession {
    /// A player's flags, newest (highest sequence) first.
    func playerFlags(playerID: String, limit: Int) throws(LedgerError) -> [PlayerFlag] {
        try sql { () throws(SQLiteError) in
            try connection.statement(PlayerFlagsTable.selectNewestSQL)
                .query([.text(playerID), .integer(Int64(limit))], rowCountMax: limit) { row in
                    let key = row.optionalText(2).map {
                        TransactionKey(store: PlatformStore(rawValue: $0), transactionID: row.text(3))
                    }
                    return PlayerFlag(
                        flag: row.text(0), detail: row.text(1), transaction: key,
                        at: Date(ledgerMilliseconds: row.int64(4)))
                }
        }
    }

    /// Appends a flag.
    func insertPlayerFlag(_ flag: PlayerFlag, playerID: String) throws(LedgerError) {
        try sql { () throws(SQLiteError) in
            try connection.statement(PlayerFlagsTable.insertSQL).run([
                .text(playerID), .text(flag.flag), .text(flag.detail), .text(flag.transaction?.store.rawValue),
                .text(flag.transaction?.transactionID), .integer(flag.at.ledgerMilliseconds),
            ])
        }
    }
}
