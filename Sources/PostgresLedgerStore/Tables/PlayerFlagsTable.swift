import Foundation
import FulfillmentLedger

/// `player_flags`: notes for support about a player, such as a refund floored at zero. Only ever
/// appended to; kept by a game reset.
enum PlayerFlagsTable {
    static let createSQL = """
        CREATE TABLE player_flags (
            sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            player_id text COLLATE "C" NOT NULL,
            flag text NOT NULL,
            detail text NOT NULL,
            store text COLLATE "C",
            transaction_id text COLLATE "C",
            at_ms bigint NOT NULL
        );
        CREATE INDEX player_flags_by_player ON player_flags (player_id, sequence);
        """

    static let selectNewestSQL = """
        SELECT flag, detail, store, transaction_id, at_ms FROM player_flags WHERE player_id = $1
        ORDER BY sequence DESC LIMIT $2
        """
    static let insertSQL = """
        INSERT INTO player_flags (player_id, flag, detail, store, transaction_id, at_ms) VALUES ($1, $2, $3, $4, $5, $6)
        """
}

extension PostgresLedgerSession {
    func playerFlags(playerID: String, limit: Int) throws(LedgerError) -> [PlayerFlag] {
        try rows(PlayerFlagsTable.selectNewestSQL, [.text(playerID), .count(limit)], limit: limit) {
            (row) throws(PostgresError) in
            let key = try row.optionalText(2).map { (store) throws(PostgresError) in
                TransactionKey(store: PlatformStore(rawValue: store), transactionID: try row.text(3))
            }
            return PlayerFlag(
                flag: try row.text(0), detail: try row.text(1), transaction: key,
                at: Date(ledgerMilliseconds: try row.int64(4)))
        }
    }

    func insertPlayerFlag(_ flag: PlayerFlag, playerID: String) throws(LedgerError) {
        try run(
            PlayerFlagsTable.insertSQL,
            [
                .text(playerID), .text(flag.flag), .text(flag.detail), .text(flag.transaction?.store.rawValue),
                .text(flag.transaction?.transactionID), .milliseconds(flag.at),
            ])
    }
}
