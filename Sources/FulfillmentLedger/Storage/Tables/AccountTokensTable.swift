import Foundation

/// `account_tokens`: which player each store account token names (App Store
/// `appAccountToken`), learned from grants and registrations, the first binding per token kept;
/// a purchase that reaches the server without its player is granted to the player named here.
enum AccountTokensTable {
    /// The table as it stands, for a new database (`LedgerSchemaDescription`); added by shared
    /// migration 11.
    static let schema = SQLTable(
        "account_tokens",
        columns: [
            SQLColumn("store", .key), SQLColumn("token", .key), SQLColumn("player_id", .key),
            SQLColumn("bound_at_ms", .integer), SQLColumn("source", .text),
        ],
        primaryKey: ["store", "token"])

    static let columns = "store, token, player_id, bound_at_ms, source"
    static let selectOneSQL = "SELECT \(columns) FROM account_tokens WHERE store = ? AND token = ?"
    static let insertSQL = "INSERT INTO account_tokens (\(columns)) VALUES (?, ?, ?, ?, ?)"
}

extension LedgerReader {
    /// The player a store's account token names (App Store `appAccountToken`), if the ledger
    /// learned a binding for it.
    public func accountTokenBinding(store: PlatformStore, token: String) throws(LedgerError) -> AccountTokenBinding? {
        try one(AccountTokensTable.selectOneSQL, [.text(store.rawValue), .text(token)]) { (row) throws(LedgerError) in
            AccountTokenBinding(
                store: PlatformStore(rawValue: try row.text(0)), token: try row.text(1), playerID: try row.text(2),
                boundAt: Date(ledgerMilliseconds: try row.int64(3)),
                source: AccountTokenBinding.Source(rawValue: try row.text(4)))
        }
    }
}

extension LedgerWriter {
    /// Records which player an account token names; one already recorded for the token is a
    /// constraint failure.
    public func insertAccountTokenBinding(_ binding: AccountTokenBinding) throws(LedgerError) {
        try run(
            AccountTokensTable.insertSQL,
            [
                .text(binding.store.rawValue), .text(binding.token), .text(binding.playerID),
                .milliseconds(binding.boundAt), .text(binding.source.rawValue),
            ])
    }
}
