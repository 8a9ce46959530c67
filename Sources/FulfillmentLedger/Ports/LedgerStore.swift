import Foundation

/// Port: durable storage for balances, inventory, entitlements, purchase counts, the
/// transaction ledger, the pending-finish outbox, economy operations and the event log.
///
/// The SQLite store is the embedded default; `InMemoryLedgerStore` in
/// `FulfillmentLedgerTesting` is a fake. An implementation must run each `write` body as
/// one atomic, durable transaction that is fully rolled back when the body throws, and
/// must serialize writes.
///
/// `groupWrite` is the path the pipeline takes for grants and finish marks. A store may
/// coalesce concurrent calls into one shared transaction and one sync (group commit), as
/// long as each body still commits or rolls back on its own and no call returns before
/// its commit is as durable as it asked for. The default runs each body through `write`.
public protocol LedgerStore: Sendable {
    /// Runs `body` against a consistent snapshot. The reader must not escape `body`.
    func read<T: Sendable>(_ body: (any LedgerReader) throws(LedgerError) -> T) throws(LedgerError) -> T

    /// Runs `body` in one write transaction: all of it commits, or none of it does.
    /// The writer must not escape `body`.
    func write<T: Sendable>(_ body: (any LedgerWriter) throws(LedgerError) -> T) throws(LedgerError) -> T

    /// Runs `body` as one request of a write transaction that concurrent callers may share.
    /// If `body` throws, only its own changes roll back. The call returns after the shared
    /// commit, synced as `durability` asks; a thrown storage error means the outcome is
    /// unknown until retried, as for `write`.
    func groupWrite<T: Sendable>(
        _ durability: WriteDurability, _ body: @escaping @Sendable (any LedgerWriter) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T
}

extension LedgerStore {
    /// One transaction per call, always durable: correct for any store, without sharing.
    public func groupWrite<T: Sendable>(
        _ durability: WriteDurability, _ body: @escaping @Sendable (any LedgerWriter) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        try write(body)
    }
}

/// Reads of ledger state, available inside `read` and `write`.
public protocol LedgerReader {
    /// The ledger record for a transaction, if it was fulfilled.
    func transaction(_ key: TransactionKey) throws(LedgerError) -> TransactionRecord?
    /// The record whose granted delivery has this store ID while its key is another ID (a
    /// non-consumable first fulfilled from a restore), if any.
    func transaction(store: PlatformStore, deliveryID: String) throws(LedgerError) -> TransactionRecord?
    /// How many ledger records each catalog product has (what has been sold), for at most `limit` products.
    func saleCountsByProduct(limit: Int) throws(LedgerError) -> [String: Int]
    /// How many ledger records each (catalog product, store product) pair has, for at most
    /// `limit` pairs: what was sold under each store product ID.
    func saleCountsByStoreProduct(limit: Int) throws(LedgerError) -> [StoreProductSaleCount]
    /// How many players own each entitlement, or hold a positive balance of each currency or a
    /// positive stack of each item, for at most `limit` IDs of `kind`.
    func ownerCounts(of kind: AssetKind, limit: Int) throws(LedgerError) -> [String: Int]
    /// A player's records, newest fulfillment first, at most `limit`.
    func transactions(playerID: String, limit: Int) throws(LedgerError) -> [TransactionRecord]
    /// A player's non-zero currency balances.
    func balances(playerID: String) throws(LedgerError) -> [String: Int64]
    /// A player's non-zero item stacks.
    func inventory(playerID: String) throws(LedgerError) -> [String: Int64]
    /// Every purchase paying for each of a player's entitlements, by entitlement ID then
    /// grant time: an entitlement is owned while it has at least one.
    func entitlements(playerID: String) throws(LedgerError) -> [EntitlementRecord]
    /// Units of a product bought by a player in a limit period (`lifetime` or `2026-W48`).
    func purchaseCount(playerID: String, productID: String, period: String) throws(LedgerError) -> Int
    /// The outbox row of a transaction, if its finish is pending.
    func pendingFinish(_ key: TransactionKey) throws(LedgerError) -> PendingFinish?
    /// Pending finishes, oldest first, at most `limit`.
    func pendingFinishes(limit: Int) throws(LedgerError) -> [PendingFinish]
    /// An applied economy operation, if any.
    func operation(id: String) throws(LedgerError) -> OperationRecord?
    /// A player's events, newest first, at most `limit`.
    func events(playerID: String, limit: Int) throws(LedgerError) -> [LedgerEvent]
    /// A transaction's events, oldest first, at most `limit`.
    func events(transaction key: TransactionKey, limit: Int) throws(LedgerError) -> [LedgerEvent]
    /// A player's events with a sequence above `sequence`, oldest first, at most `limit`: one page
    /// of the history, the next page starting after the last sequence returned.
    func events(playerID: String, afterSequence sequence: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent]
    /// A transaction's events with a sequence above `sequence`, oldest first, at most `limit`.
    func events(transaction key: TransactionKey, afterSequence sequence: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent]
    /// A stored revocation event, if its ID was seen.
    func revocationEvent(id: String) throws(LedgerError) -> RevocationRecord?
    /// The revocation events of the purchase keyed `key` (`RevocationRecord.purchase`), by
    /// store event date then arrival, at most `limit`.
    func revocationEvents(for key: TransactionKey, limit: Int) throws(LedgerError) -> [RevocationRecord]
    /// A transaction's refund state; nil when no event has touched it.
    func refundState(_ key: TransactionKey) throws(LedgerError) -> RefundState?
    /// A player's entitlement version: 0 before any change, +1 on every change.
    func entitlementVersion(playerID: String) throws(LedgerError) -> Int64
    /// When the player's progress was last reset (Reset Game), if ever.
    func lastReset(playerID: String) throws(LedgerError) -> Date?
    /// Restored debt that the player's other currency covered at once (0 if none): a refund
    /// owed its grant's repaid debt again while the balance was positive, so other gems paid
    /// it. A later floor refund may take up to this much into debt beyond the balance, so
    /// refunding in any order never erases debt. Kept by a reset, like debt.
    func absorbedDebt(playerID: String, currencyID: String) throws(LedgerError) -> Int64
    /// A player's flags, newest first, at most `limit`.
    func playerFlags(playerID: String, limit: Int) throws(LedgerError) -> [PlayerFlag]
    /// A processed store notification, if its ID was seen.
    func storeNotification(id: String) throws(LedgerError) -> StoreNotificationRecord?
    /// A named sync cursor (such as the voided-purchases watermark), if one was saved.
    func syncCursor(name: String) throws(LedgerError) -> String?
}

/// Writes of ledger state, available inside `write` only.
public protocol LedgerWriter: LedgerReader {
    /// Adds a ledger record; the key must be new.
    func insertTransaction(_ record: TransactionRecord) throws(LedgerError)
    /// Adds `delta` (may be negative) to a balance and returns the new balance.
    /// Throws `.amountOverflow` instead of wrapping; callers check spends beforehand.
    func addToBalance(playerID: String, currencyID: String, delta: Int64) throws(LedgerError) -> Int64
    /// Adds `delta` (may be negative) to an item stack and returns the new stack size.
    func addToInventory(playerID: String, itemID: String, delta: Int64) throws(LedgerError) -> Int64
    /// Records that `record.source` pays for the entitlement; returns false if that purchase
    /// already did (nothing changes then).
    func grantEntitlement(_ record: EntitlementRecord, playerID: String) throws(LedgerError) -> Bool
    /// Adds `count` units to a product's purchase count for a period.
    func incrementPurchaseCount(playerID: String, productID: String, period: String, by count: Int) throws(LedgerError)
    /// Adds an outbox row for a transaction's finish.
    func enqueueFinish(_ pending: PendingFinish) throws(LedgerError)
    /// Records a failed finish attempt on the outbox row.
    func recordFinishFailure(_ key: TransactionKey, message: String) throws(LedgerError)
    /// Deletes the outbox row and stamps the record finished.
    func markFinished(_ key: TransactionKey, at date: Date) throws(LedgerError)
    /// Stores an applied economy operation; the ID must be new.
    func insertOperation(_ record: OperationRecord) throws(LedgerError)
    /// Appends to the event log and returns the entry's sequence number.
    @discardableResult func appendEvent(_ event: LedgerEvent) throws(LedgerError) -> Int64
    /// Clears a player's positive balances, inventory and purchase counts, and records the
    /// reset's time; keeps debt (negative balances), the ledger and entitlements.
    func resetProgress(playerID: String, at date: Date) throws(LedgerError)
    /// Stores a revocation event; its ID must be new.
    func insertRevocationEvent(_ record: RevocationRecord) throws(LedgerError)
    /// Replaces the disposition, effect, debt and reversed flag of a stored revocation event.
    func updateRevocationEvent(_ record: RevocationRecord) throws(LedgerError)
    /// Inserts or replaces a transaction's refund state.
    func upsertRefundState(_ state: RefundState) throws(LedgerError)
    /// Adds `delta` (may be negative) to the player's absorbed debt, never below zero; returns the new value.
    func addToAbsorbedDebt(playerID: String, currencyID: String, delta: Int64) throws(LedgerError) -> Int64
    /// Records that `source` no longer pays for the player's entitlement; returns false if it
    /// did not. The player still owns it while another purchase pays for it.
    func releaseEntitlement(playerID: String, entitlementID: String, source: TransactionKey) throws(LedgerError) -> Bool
    /// Adds one to the player's entitlement version and returns the new version.
    func bumpEntitlementVersion(playerID: String) throws(LedgerError) -> Int64
    /// Adds a flag to a player.
    func insertPlayerFlag(_ flag: PlayerFlag, playerID: String) throws(LedgerError)
    /// Moves a transaction's ledger record (and its outbox row, if any) to another player.
    func reassignTransaction(_ key: TransactionKey, toPlayerID playerID: String) throws(LedgerError)
    /// Records a processed store notification; its ID must be new.
    func insertStoreNotification(_ record: StoreNotificationRecord) throws(LedgerError)
    /// Saves a named sync cursor, replacing the previous value.
    func setSyncCursor(name: String, value: String) throws(LedgerError)
}
