import Foundation

/// Port: durable storage for balances, inventory, entitlements, purchase counts, the
/// transaction ledger (with its pending finishes), economy operations, refunds and the event log.
///
/// Engine-neutral, so any transactional engine can implement it: `SQLiteLedgerStore` (the
/// embedded default), `PostgresLedgerStore` (a fleet of servers), `InMemoryLedgerStore` (the
/// fake in `FulfillmentLedgerTesting`). The conformance suite (`LedgerStoreConformance`) runs the
/// same cases on each, and on a store of your own.
///
/// The contract:
/// - `read` runs its body against one consistent snapshot; `write` runs its body as one atomic
///   transaction, fully rolled back when the body throws, and returns only once the commit is
///   as durable as `durability` asks. Concurrent writes to the same rows never lose an update.
/// - Bodies are synchronous and run on the store's own executor (a serialized writer or reader
///   queue, a pooled connection's thread), never on the caller's, so no disk read, network
///   round trip, fsync or lock wait blocks a thread of the cooperative pool. A read body only
///   reads.
/// - A write body may be run again after a retryable conflict (a serialization failure, a
///   deadlock, a race the body itself reports by throwing a retryable `StorageFailure`), up to
///   the store's bound, so a body must depend only on what it reads inside the transaction.
/// - Concurrent writes may share one transaction and one sync (group commit), as long as each
///   body still commits or rolls back on its own.
/// - Failures are `LedgerError`s; an engine's own errors become `.storage(StorageFailure)`,
///   with `isRetryable` and `outcomeUnknown` set as the engine knows them.
public protocol LedgerStore: Sendable {
    /// Runs `body` against a consistent snapshot. The reader must not escape `body`.
    func read<T: Sendable>(
        _ body: @escaping @Sendable (any LedgerReader) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T

    /// Runs `body` in one write transaction: all of it commits, or none of it does. The call
    /// returns after the commit, synced as `durability` asks; a thrown storage error with
    /// `outcomeUnknown` means the outcome is known only after a retry. The writer must not
    /// escape `body`.
    @discardableResult
    func write<T: Sendable>(
        _ durability: WriteDurability, _ body: @escaping @Sendable (any LedgerWriter) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T

    /// Stamps a record finished once its platform finish is done, at `.deferred` durability.
    ///
    /// The default commits `LedgerWriter.markFinished` in a write of its own. A store may
    /// instead carry the mark into its next write transaction, which saves the mark a commit
    /// of its own, as long as every read through this store shows the mark once this call
    /// returns. A mark carried that way is lost by a process crash before that transaction,
    /// not only by power loss; either way the record stays pending and `recover()` finishes it
    /// again, which is harmless.
    func markFinished(_ key: TransactionKey, at date: Date) async throws(LedgerError)

    /// Ends the store: commits what it carries (finish marks), closes its connections off the
    /// caller's thread, and releases what it holds (a file, a pool). A `read` or `write` after
    /// it fails with a storage error; a second call does nothing. A store with nothing to
    /// release keeps the default, which does nothing.
    func close() async
}

extension LedgerStore {
    /// Nothing to release.
    public func close() async {}

    /// Commits the mark in a deferred write of its own.
    public func markFinished(_ key: TransactionKey, at date: Date) async throws(LedgerError) {
        try await write(.deferred) { writer throws(LedgerError) in try writer.markFinished(key, at: date) }
    }

    /// A durable write.
    @discardableResult
    public func write<T: Sendable>(
        _ body: @escaping @Sendable (any LedgerWriter) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        try await write(.durable, body)
    }
}

/// What a write body throws to have its transaction rolled back and run again: a concurrent
/// writer changed what the body read (another delivery of the same purchase committed first).
public enum StoreConflict {
    /// The retryable failure a body throws when `insertTransaction` reports the key taken.
    public static func purchaseRecordedConcurrently(_ key: TransactionKey) -> LedgerError {
        // No engine failed: the body saw the key taken. The code names the rule, not an engine's code.
        .storage(
            StorageFailure(
                engine: "ledger", code: "conflict", message: "\(key) was recorded by a concurrent write", sql: nil,
                kind: .conflict))
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
    /// The pending finish of a transaction (a record whose `finishedAt` is nil), if any.
    func pendingFinish(_ key: TransactionKey) throws(LedgerError) -> PendingFinish?
    /// Pending finishes, oldest first, at most `limit`.
    func pendingFinishes(limit: Int) throws(LedgerError) -> [PendingFinish]
    /// An applied economy operation, if any.
    func operation(id: String) throws(LedgerError) -> OperationRecord?
    /// A player's applied economy operations, newest first (by applied time, then operation ID),
    /// at most `limit`.
    func operations(playerID: String, limit: Int) throws(LedgerError) -> [OperationRecord]
    /// A player's events, newest first, at most `limit`.
    func events(playerID: String, limit: Int) throws(LedgerError) -> [LedgerEvent]
    /// A transaction's events, oldest first, at most `limit`.
    func events(transaction key: TransactionKey, limit: Int) throws(LedgerError) -> [LedgerEvent]
    /// A player's events with a sequence above `sequence`, oldest first, at most `limit`: one page
    /// of the history, the next page starting after the last sequence returned.
    func events(playerID: String, afterSequence sequence: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent]
    /// A transaction's events with a sequence above `sequence`, oldest first, at most `limit`.
    func events(transaction key: TransactionKey, afterSequence sequence: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent]
    /// The change feed: events whose kind `isPlayerChange`, with a sequence above `sequence`,
    /// in sequence order, at most `limit`. A store assigns the sequences of such events in
    /// commit order, so a reader that saves the last sequence it read and asks again after it
    /// never misses a committed change and never sees one out of order.
    func changes(afterSequence sequence: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent]
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
    /// The store's withdrawal of consent for an account (App Store `appTransactionId`), if any.
    func consentRescission(store: PlatformStore, accountID: String) throws(LedgerError) -> ConsentRescission?
    /// The player a store's account token names (App Store `appAccountToken`), if the ledger
    /// learned a binding for it.
    func accountTokenBinding(store: PlatformStore, token: String) throws(LedgerError) -> AccountTokenBinding?
    /// A subscription chain, if any of its periods was granted.
    func subscription(_ chain: TransactionKey) throws(LedgerError) -> SubscriptionRecord?
    /// A player's subscription chains, by store and chain ID, at most `limit`.
    func subscriptions(playerID: String, limit: Int) throws(LedgerError) -> [SubscriptionRecord]
    /// A chain's granted periods, earliest start first, at most `limit`.
    func subscriptionPeriods(_ chain: TransactionKey, limit: Int) throws(LedgerError) -> [SubscriptionPeriodRecord]
    /// The period whose ledger record has `recordKey`, if that record is a subscription period.
    func subscriptionPeriod(_ recordKey: TransactionKey) throws(LedgerError) -> SubscriptionPeriodRecord?
    /// The record of `store` whose store order ID (Google Play `orderId`) is `orderID`, if any.
    func transaction(store: PlatformStore, orderID: String) throws(LedgerError) -> TransactionRecord?
    /// A player's attempts (submissions that granted nothing), newest first, at most `limit`.
    func attempts(playerID: String, limit: Int) throws(LedgerError) -> [AttemptRecord]
    /// The attempts whose delivery, purchase or order ID is `id`, in any store, newest first,
    /// at most `limit`.
    func attempts(matchingID id: String, limit: Int) throws(LedgerError) -> [AttemptRecord]
    /// How many attempts the journal holds in one budget (verified or not).
    func attemptCount(verified: Bool) throws(LedgerError) -> Int
}

/// Writes of ledger state, available inside `write` only.
public protocol LedgerWriter: LedgerReader {
    /// Adds a ledger record, pending its finish while `finishedAt` is nil. Returns false, and
    /// writes nothing, when a record with its key exists (a concurrent delivery committed it).
    @discardableResult func insertTransaction(_ record: TransactionRecord) throws(LedgerError) -> Bool
    /// Adds `delta` (may be negative) to a balance and returns the new balance.
    /// Throws `.amountOverflow` instead of wrapping; callers check spends beforehand.
    func addToBalance(playerID: String, currencyID: String, delta: Int64) throws(LedgerError) -> Int64
    /// Adds `delta` (may be negative) to an item stack and returns the new stack size.
    func addToInventory(playerID: String, itemID: String, delta: Int64) throws(LedgerError) -> Int64
    /// Takes `amount` (> 0) of a currency or item only if the player holds at least that much,
    /// in one atomic step, and returns what is left; nil, with nothing changed, when they hold less.
    func spend(playerID: String, asset: AssetKind, assetID: String, amount: Int64) throws(LedgerError) -> Int64?
    /// Records that `record.source` pays for the entitlement; returns false if that purchase
    /// already did (nothing changes then).
    func grantEntitlement(_ record: EntitlementRecord, playerID: String) throws(LedgerError) -> Bool
    /// Adds `count` units to a product's purchase count for a period.
    func incrementPurchaseCount(playerID: String, productID: String, period: String, by count: Int) throws(LedgerError)
    /// Records a failed finish attempt on a record still pending its finish.
    func recordFinishFailure(_ key: TransactionKey, message: String) throws(LedgerError)
    /// Stamps the record finished, which ends its pending finish.
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
    /// Moves a transaction's ledger record (and its pending finish) to another player.
    func reassignTransaction(_ key: TransactionKey, toPlayerID playerID: String) throws(LedgerError)
    /// Records a processed store notification; its ID must be new.
    func insertStoreNotification(_ record: StoreNotificationRecord) throws(LedgerError)
    /// Records a withdrawal of consent; one already recorded for the account is a constraint failure.
    func insertConsentRescission(_ rescission: ConsentRescission) throws(LedgerError)
    /// Records which player an account token names; one already recorded for the token is a
    /// constraint failure.
    func insertAccountTokenBinding(_ binding: AccountTokenBinding) throws(LedgerError)
    /// Saves a named sync cursor, replacing the previous value.
    func setSyncCursor(name: String, value: String) throws(LedgerError)
    /// Adds or replaces a subscription chain's record.
    func upsertSubscription(_ record: SubscriptionRecord) throws(LedgerError)
    /// Adds a granted period of a chain. Returns false, changing nothing, if the store already
    /// has a period with its ID.
    @discardableResult func insertSubscriptionPeriod(_ period: SubscriptionPeriodRecord) throws(LedgerError) -> Bool
    /// Appends an attempt to the journal and returns its sequence, then removes what
    /// `retention` no longer keeps: the oldest of the attempt's budget beyond its count (up to
    /// `AttemptRetention.expiredCountPerWriteMax` of them), and those of the budget's
    /// `expiredCountPerWriteMax` oldest that are older than the age. When the newest attempt of
    /// the same delivery ID `isRepeated(by:)` this one, it adds one to that row's
    /// `repeatCount`, sets its `lastAt` and reason, and returns that row's sequence instead.
    @discardableResult func appendAttempt(_ record: AttemptRecord, retention: AttemptRetention) throws(LedgerError) -> Int64
}
