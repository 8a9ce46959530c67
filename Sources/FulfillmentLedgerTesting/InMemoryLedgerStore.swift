import Foundation
import FulfillmentLedger
import Synchronization

/// A ledger store kept in memory: the fake of the store port, for fast suites.
///
/// A write runs on a copy of the state that replaces the original only when the body
/// returns, so a thrown error rolls back everything, as a database transaction would.
public final class InMemoryLedgerStore: LedgerStore {
    private let state = Mutex(InMemoryLedgerState())

    /// Creates an empty store.
    public init() {}

    /// Most times a write body that reports a retryable conflict is run again.
    public static let retryCountMax = 8

    /// Runs `body` on the current state. Memory holds no lock across an await, so the body
    /// runs on the caller's task: it never waits for I/O.
    public func read<T: Sendable>(
        _ body: @escaping @Sendable (any LedgerReader) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        try state.withLock { (current: inout InMemoryLedgerState) throws(LedgerError) -> T in
            try body(InMemoryLedgerSession(current))
        }
    }

    /// Runs `body` on a copy and keeps the copy only if `body` returns; a body that throws a
    /// retryable failure runs again on a fresh copy, up to `retryCountMax` times. Every write
    /// is as durable as memory gets, whatever `durability` asks.
    @discardableResult
    public func write<T: Sendable>(
        _ durability: WriteDurability, _ body: @escaping @Sendable (any LedgerWriter) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        try await WriteRetryPolicy(retryCountMax: Self.retryCountMax).run { () throws(LedgerError) -> T in
            try state.withLock { (current: inout InMemoryLedgerState) throws(LedgerError) -> T in
                let session = InMemoryLedgerSession(current)
                let result = try body(session)
                try session.checkDeferredConstraints()
                current = session.state
                return result
            }
        }
    }

    /// The number of ledger records, for assertions.
    public var transactionCount: Int { state.withLock { $0.transactions.count } }
}

/// Everything the in-memory store holds.
struct InMemoryLedgerState: Sendable {
    struct PlayerAsset: Hashable, Sendable {
        var playerID: String
        var id: String
    }

    struct EntitlementPayer: Hashable, Sendable {
        var playerID: String
        var entitlementID: String
        var source: TransactionKey
    }

    struct PurchaseCountKey: Hashable, Sendable {
        var playerID: String
        var productID: String
        var period: String
    }

    var transactions: [TransactionKey: TransactionRecord] = [:]
    /// The granted delivery's key of each record keyed by another ID, like SQLite's partial index.
    var deliveries: [TransactionKey: TransactionKey] = [:]
    var balances: [PlayerAsset: Int64] = [:]
    var inventory: [PlayerAsset: Int64] = [:]
    /// Every purchase paying for each player's entitlement, keyed like SQLite's primary key.
    var entitlements: [EntitlementPayer: EntitlementRecord] = [:]
    var purchaseCounts: [PurchaseCountKey: Int] = [:]
    var pendingFinishes: [TransactionKey: PendingFinish] = [:]
    var operations: [String: OperationRecord] = [:]
    var events: [LedgerEvent] = []
    var storeNotifications: [String: StoreNotificationRecord] = [:]
    /// Withdrawals of consent by store and account, keyed like the SQL table's primary key.
    var consentRescissions: [StoreAccount: ConsentRescission] = [:]
    /// Account token bindings by store and token (the `accountID` of the key).
    var accountTokens: [StoreAccount: AccountTokenBinding] = [:]

    /// A store's account, the key of a withdrawal of consent.
    struct StoreAccount: Hashable {
        var store: PlatformStore
        var accountID: String
    }
    var syncCursors: [String: String] = [:]
    var revocationEvents: [String: RevocationRecord] = [:]
    var refundStates: [TransactionKey: RefundState] = [:]
    var entitlementVersions: [String: Int64] = [:]
    /// When each player's progress was last reset.
    var resets: [String: Date] = [:]
    /// Restored debt other currency covered, per player and currency.
    var absorbedDebts: [PlayerAsset: Int64] = [:]
    /// Every flag with its player, oldest first, as the SQLite sequence orders them.
    var playerFlags: [PlayerFlagRow] = []
    /// Subscription chains by store and chain ID.
    var subscriptions: [TransactionKey: SubscriptionRecord] = [:]
    /// Each chain's granted periods by period ID.
    var subscriptionPeriods: [TransactionKey: [String: SubscriptionPeriodRecord]] = [:]
    /// The record key of each record with a store order ID, like SQLite's partial index.
    var orders: [TransactionKey: TransactionKey] = [:]
    /// The attempts journal, oldest first.
    var attempts: [AttemptRecord] = []
    /// The last attempt sequence given.
    var attemptSequence: Int64 = 0

    /// A flag and the player it was set on.
    struct PlayerFlagRow: Hashable, Sendable {
        var playerID: String
        var flag: PlayerFlag
    }
}

/// A reader and writer over one copy of the in-memory state.
final class InMemoryLedgerSession: LedgerWriter {
    var state: InMemoryLedgerState
    /// Refund states written in this session, checked against the ledger at commit like SQLite's deferred key.
    var refundStatesToCheck: Set<TransactionKey> = []

    init(_ state: InMemoryLedgerState) { self.state = state }

    func transaction(_ key: TransactionKey) throws(LedgerError) -> TransactionRecord? { state.transactions[key] }

    func transaction(store: PlatformStore, deliveryID: String) throws(LedgerError) -> TransactionRecord? {
        state.deliveries[TransactionKey(store: store, transactionID: deliveryID)].flatMap { state.transactions[$0] }
    }

    func saleCountsByProduct(limit: Int) throws(LedgerError) -> [String: Int] {
        var counts: [String: Int] = [:]
        for record in state.transactions.values { counts[record.productID, default: 0] += 1 }
        return counts.count <= limit ? counts : Dictionary(uniqueKeysWithValues: counts.sorted { $0.key < $1.key }.prefix(limit).map { ($0.key, $0.value) })
    }

    func saleCountsByStoreProduct(limit: Int) throws(LedgerError) -> [StoreProductSaleCount] {
        struct Sale: Hashable {
            var productID: String
            var storeProduct: StoreProductKey
        }
        var counts: [Sale: Int] = [:]
        for record in state.transactions.values {
            let storeProduct = StoreProductKey(store: record.key.store, storeProductID: record.storeProductID)
            counts[Sale(productID: record.productID, storeProduct: storeProduct), default: 0] += 1
        }
        let sales = counts.map { StoreProductSaleCount(productID: $0.key.productID, storeProduct: $0.key.storeProduct, count: $0.value) }
        return Array(sales.sorted { ($0.productID, $0.storeProduct) < ($1.productID, $1.storeProduct) }.prefix(limit))
    }

    func ownerCounts(of kind: AssetKind, limit: Int) throws(LedgerError) -> [String: Int] {
        var counts: [String: Int] = [:]
        switch kind {
        case .entitlement:
            // One owner per player, however many of their purchases pay for it.
            let owners = Set(state.entitlements.keys.map { InMemoryLedgerState.PlayerAsset(playerID: $0.playerID, id: $0.entitlementID) })
            for owner in owners { counts[owner.id, default: 0] += 1 }
        case .currency: for (key, amount) in state.balances where amount > 0 { counts[key.id, default: 0] += 1 }
        case .item: for (key, quantity) in state.inventory where quantity > 0 { counts[key.id, default: 0] += 1 }
        }
        return Dictionary(uniqueKeysWithValues: counts.sorted { $0.key < $1.key }.prefix(limit).map { ($0.key, $0.value) })
    }

    func transactions(playerID: String, limit: Int) throws(LedgerError) -> [TransactionRecord] {
        let mine = state.transactions.values.filter { $0.playerID == playerID }
        return Array(mine.sorted { ($0.fulfilledAt, $0.key) > ($1.fulfilledAt, $1.key) }.prefix(limit))
    }

    func balances(playerID: String) throws(LedgerError) -> [String: Int64] {
        Dictionary(uniqueKeysWithValues: state.balances.filter { $0.key.playerID == playerID && $0.value != 0 }
            .map { ($0.key.id, $0.value) })
    }

    func inventory(playerID: String) throws(LedgerError) -> [String: Int64] {
        Dictionary(uniqueKeysWithValues: state.inventory.filter { $0.key.playerID == playerID && $0.value != 0 }
            .map { ($0.key.id, $0.value) })
    }

    func entitlements(playerID: String) throws(LedgerError) -> [EntitlementRecord] {
        state.entitlements.filter { $0.key.playerID == playerID }.map(\.value)
            .sorted { ($0.entitlementID, $0.grantedAt, $0.source) < ($1.entitlementID, $1.grantedAt, $1.source) }
    }

    func purchaseCount(playerID: String, productID: String, period: String) throws(LedgerError) -> Int {
        state.purchaseCounts[.init(playerID: playerID, productID: productID, period: period), default: 0]
    }

    func pendingFinish(_ key: TransactionKey) throws(LedgerError) -> PendingFinish? { state.pendingFinishes[key] }

    func pendingFinishes(limit: Int) throws(LedgerError) -> [PendingFinish] {
        Array(state.pendingFinishes.values.sorted { ($0.enqueuedAt, $0.key) < ($1.enqueuedAt, $1.key) }.prefix(limit))
    }

    func operation(id: String) throws(LedgerError) -> OperationRecord? { state.operations[id] }

    func operations(playerID: String, limit: Int) throws(LedgerError) -> [OperationRecord] {
        let mine = state.operations.values.filter { $0.operation.playerID == playerID }
        return Array(
            mine.sorted { ($0.appliedAt, $0.operation.operationID) > ($1.appliedAt, $1.operation.operationID) }
                .prefix(max(0, limit)))
    }

    func events(playerID: String, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        Array(state.events.reversed().lazy.filter { $0.playerID == playerID }.prefix(limit))
    }

    func insertTransaction(_ record: TransactionRecord) throws(LedgerError) -> Bool {
        guard state.transactions[record.key] == nil else { return false }
        state.transactions[record.key] = record
        if record.finishedAt == nil {
            state.pendingFinishes[record.key] = PendingFinish(
                key: record.key, playerID: record.playerID, enqueuedAt: record.fulfilledAt, attemptCount: 0, lastError: nil)
        }
        if record.storeTransactionID != record.key.transactionID {
            state.deliveries[TransactionKey(store: record.key.store, transactionID: record.storeTransactionID)] = record.key
        }
        if let orderID = record.storeOrderID {
            state.orders[TransactionKey(store: record.key.store, transactionID: orderID)] = record.key
        }
        return true
    }

    func spend(playerID: String, asset: AssetKind, assetID: String, amount: Int64) throws(LedgerError) -> Int64? {
        let key = InMemoryLedgerState.PlayerAsset(playerID: playerID, id: assetID)
        switch asset {
        case .currency:
            guard state.balances[key, default: 0] >= amount else { return nil }
            return try addToBalance(playerID: playerID, currencyID: assetID, delta: -amount)
        case .item:
            guard state.inventory[key, default: 0] >= amount else { return nil }
            return try addToInventory(playerID: playerID, itemID: assetID, delta: -amount)
        case .entitlement:
            throw LedgerError.invalidArgument("an entitlement is not spent")
        }
    }

    func addToBalance(playerID: String, currencyID: String, delta: Int64) throws(LedgerError) -> Int64 {
        try Self.add(delta, to: &state.balances[.init(playerID: playerID, id: currencyID), default: 0], playerID, currencyID)
    }

    func addToInventory(playerID: String, itemID: String, delta: Int64) throws(LedgerError) -> Int64 {
        try Self.add(delta, to: &state.inventory[.init(playerID: playerID, id: itemID), default: 0], playerID, itemID)
    }

    func grantEntitlement(_ record: EntitlementRecord, playerID: String) throws(LedgerError) -> Bool {
        let key = InMemoryLedgerState.EntitlementPayer(
            playerID: playerID, entitlementID: record.entitlementID, source: record.source)
        guard state.entitlements[key] == nil else { return false }
        state.entitlements[key] = record
        return true
    }

    func incrementPurchaseCount(playerID: String, productID: String, period: String, by count: Int) throws(LedgerError) {
        state.purchaseCounts[.init(playerID: playerID, productID: productID, period: period), default: 0] += count
    }

    func recordFinishFailure(_ key: TransactionKey, message: String) throws(LedgerError) {
        state.pendingFinishes[key]?.attemptCount += 1
        state.pendingFinishes[key]?.lastError = message
    }

    func markFinished(_ key: TransactionKey, at date: Date) throws(LedgerError) {
        state.pendingFinishes[key] = nil
        if state.transactions[key]?.finishedAt == nil {
            state.transactions[key]?.finishedAt = date.truncatedToLedgerMilliseconds
        }
    }

    func insertOperation(_ record: OperationRecord) throws(LedgerError) {
        guard state.operations[record.operation.operationID] == nil else { throw Self.constraint("operations primary key") }
        state.operations[record.operation.operationID] = record
    }

    func appendEvent(_ event: LedgerEvent) throws(LedgerError) -> Int64 {
        var stored = event
        stored.sequence = Int64(state.events.count + 1)
        state.events.append(stored)
        return stored.sequence
    }

    func resetProgress(playerID: String, at date: Date) throws(LedgerError) {
        // Debt survives: a reset must not erase what a clawback left owed.
        state.balances = state.balances.filter { $0.key.playerID != playerID || $0.value < 0 }
        state.resets[playerID] = date.truncatedToLedgerMilliseconds
        state.inventory = state.inventory.filter { $0.key.playerID != playerID }
        state.purchaseCounts = state.purchaseCounts.filter { $0.key.playerID != playerID }
    }

    private static func add(_ delta: Int64, to value: inout Int64, _ playerID: String, _ assetID: String) throws(LedgerError) -> Int64 {
        let (sum, overflow) = value.addingReportingOverflow(delta)
        guard !overflow else { throw LedgerError.amountOverflow(playerID: playerID, assetID: assetID) }
        value = sum
        return sum
    }

    /// The storage error SQLite would raise for a violated constraint.
    static func constraint(_ what: String) -> LedgerError {
        .storage(StorageFailure(engine: "memory", code: "constraint", message: "constraint failed: \(what)", sql: nil, kind: .constraint))
    }
}

/// Transaction history, refunds, revocations, flags and entitlement versions, with the SQLite store's ordering.
extension InMemoryLedgerSession {
    /// A transaction's events, oldest first.
    func events(transaction key: TransactionKey, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        Array(state.events.lazy.filter { $0.transaction == key }.prefix(max(0, limit)))
    }

    func events(playerID: String, afterSequence sequence: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        Array(state.events.lazy.filter { $0.playerID == playerID && $0.sequence > sequence }.prefix(max(0, limit)))
    }

    func events(transaction key: TransactionKey, afterSequence sequence: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        Array(state.events.lazy.filter { $0.transaction == key && $0.sequence > sequence }.prefix(max(0, limit)))
    }

    /// Writes are serialized, so append order is commit order.
    func changes(afterSequence sequence: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        Array(state.events.lazy.filter { $0.kind.isPlayerChange && $0.sequence > sequence }.prefix(max(0, limit)))
    }

    /// A stored revocation event by ID.
    func revocationEvent(id: String) throws(LedgerError) -> RevocationRecord? { state.revocationEvents[id] }

    /// A transaction's revocation events by store date, then arrival, then event ID.
    func revocationEvents(for key: TransactionKey, limit: Int) throws(LedgerError) -> [RevocationRecord] {
        let mine = state.revocationEvents.values.filter { $0.purchase == key }
        let ordered = mine.sorted { lhs, rhs in
            (lhs.event.eventDate, lhs.receivedAt, lhs.event.eventID) < (rhs.event.eventDate, rhs.receivedAt, rhs.event.eventID)
        }
        return Array(ordered.prefix(max(0, limit)))
    }

    /// A transaction's refund state, if an event touched it.
    func refundState(_ key: TransactionKey) throws(LedgerError) -> RefundState? { state.refundStates[key] }

    /// A player's entitlement version; 0 when never bumped.
    func entitlementVersion(playerID: String) throws(LedgerError) -> Int64 {
        state.entitlementVersions[playerID, default: 0]
    }

    /// A player's flags, newest first.
    func playerFlags(playerID: String, limit: Int) throws(LedgerError) -> [PlayerFlag] {
        Array(state.playerFlags.reversed().lazy.filter { $0.playerID == playerID }.map(\.flag).prefix(max(0, limit)))
    }

    /// Stores an event; a known event ID fails like SQLite's primary key.
    func insertRevocationEvent(_ record: RevocationRecord) throws(LedgerError) {
        guard state.revocationEvents[record.event.eventID] == nil else {
            throw Self.constraint("revocation events primary key")
        }
        state.revocationEvents[record.event.eventID] = Self.stored(record)
    }

    /// Replaces what a stored event did; the event as received never changes, and an unknown ID changes nothing.
    func updateRevocationEvent(_ record: RevocationRecord) throws(LedgerError) {
        guard var stored = state.revocationEvents[record.event.eventID] else { return }
        stored.disposition = record.disposition
        stored.effect = record.effect
        stored.debtCreated = record.debtCreated
        stored.absorbedChange = record.absorbedChange
        stored.reversed = record.reversed
        state.revocationEvents[record.event.eventID] = stored
    }

    /// Inserts or replaces a refund state; its ledger record is checked at commit.
    func upsertRefundState(_ refund: RefundState) throws(LedgerError) {
        state.refundStates[refund.key] = RefundState(
            key: refund.key, status: refund.status, refundedQuantity: refund.refundedQuantity,
            lastTakeBackDate: refund.lastTakeBackDate, lastReversalDate: refund.lastReversalDate)
        refundStatesToCheck.insert(refund.key)
    }

    /// Removes one purchase's payment for an entitlement; false when it did not pay for it.
    func releaseEntitlement(playerID: String, entitlementID: String, source: TransactionKey) throws(LedgerError) -> Bool {
        state.entitlements.removeValue(forKey: .init(playerID: playerID, entitlementID: entitlementID, source: source)) != nil
    }

    /// When the player's progress was last reset.
    func lastReset(playerID: String) throws(LedgerError) -> Date? { state.resets[playerID] }

    /// Restored debt other currency covered.
    func absorbedDebt(playerID: String, currencyID: String) throws(LedgerError) -> Int64 {
        state.absorbedDebts[.init(playerID: playerID, id: currencyID), default: 0]
    }

    /// Adds to the absorbed debt, never below zero.
    func addToAbsorbedDebt(playerID: String, currencyID: String, delta: Int64) throws(LedgerError) -> Int64 {
        let key = InMemoryLedgerState.PlayerAsset(playerID: playerID, id: currencyID)
        var value = state.absorbedDebts[key, default: 0]
        value = max(0, try Self.add(delta, to: &value, playerID, currencyID))
        state.absorbedDebts[key] = value == 0 ? nil : value
        return value
    }

    /// Adds one to a player's entitlement version.
    func bumpEntitlementVersion(playerID: String) throws(LedgerError) -> Int64 {
        let version = state.entitlementVersions[playerID, default: 0] + 1
        state.entitlementVersions[playerID] = version
        return version
    }

    /// Appends a flag.
    func insertPlayerFlag(_ flag: PlayerFlag, playerID: String) throws(LedgerError) {
        let stored = PlayerFlag(flag: flag.flag, detail: flag.detail, transaction: flag.transaction, at: flag.at)
        state.playerFlags.append(.init(playerID: playerID, flag: stored))
    }

    /// Moves a ledger record and its outbox row; an unknown key changes nothing, as in SQLite.
    func reassignTransaction(_ key: TransactionKey, toPlayerID playerID: String) throws(LedgerError) {
        state.transactions[key]?.playerID = playerID
        state.pendingFinishes[key]?.playerID = playerID
    }

    func storeNotification(id: String) throws(LedgerError) -> StoreNotificationRecord? { state.storeNotifications[id] }

    func syncCursor(name: String) throws(LedgerError) -> String? { state.syncCursors[name] }

    func setSyncCursor(name: String, value: String) throws(LedgerError) { state.syncCursors[name] = value }

    func consentRescission(store: PlatformStore, accountID: String) throws(LedgerError) -> ConsentRescission? {
        state.consentRescissions[InMemoryLedgerState.StoreAccount(store: store, accountID: accountID)]
    }

    func insertConsentRescission(_ rescission: ConsentRescission) throws(LedgerError) {
        let key = InMemoryLedgerState.StoreAccount(store: rescission.store, accountID: rescission.accountID)
        guard state.consentRescissions[key] == nil else { throw Self.constraint("consent_rescissions primary key") }
        state.consentRescissions[key] = rescission
    }

    func accountTokenBinding(store: PlatformStore, token: String) throws(LedgerError) -> AccountTokenBinding? {
        state.accountTokens[InMemoryLedgerState.StoreAccount(store: store, accountID: token)]
    }

    func insertAccountTokenBinding(_ binding: AccountTokenBinding) throws(LedgerError) {
        let key = InMemoryLedgerState.StoreAccount(store: binding.store, accountID: binding.token)
        guard state.accountTokens[key] == nil else { throw Self.constraint("account_tokens primary key") }
        state.accountTokens[key] = binding
    }

    func insertStoreNotification(_ record: StoreNotificationRecord) throws(LedgerError) {
        guard state.storeNotifications[record.notificationID] == nil else {
            throw Self.constraint("store_notifications primary key")
        }
        state.storeNotifications[record.notificationID] = record
    }

    /// Fails the commit when a refund state written in it has no ledger record, like SQLite's deferred foreign key.
    func checkDeferredConstraints() throws(LedgerError) {
        for key in refundStatesToCheck where state.refundStates[key] != nil && state.transactions[key] == nil {
            throw Self.constraint("refund state without ledger row")
        }
        for payer in state.entitlements.keys where state.transactions[payer.source] == nil {
            throw Self.constraint("entitlement paid for by no ledger row")
        }
    }

    /// The record with its dates cut to milliseconds, as SQLite would store it.
    private static func stored(_ record: RevocationRecord) -> RevocationRecord {
        let event = record.event
        return RevocationRecord(
            event: RevocationEvent(
                eventID: event.eventID, store: event.store, transactionID: event.transactionID,
                originalTransactionID: event.originalTransactionID, kind: event.kind, quantity: event.quantity,
                quantityIsCumulative: event.quantityIsCumulative, eventDate: event.eventDate, reason: event.reason),
            purchase: record.purchase, disposition: record.disposition, effect: record.effect, debtCreated: record.debtCreated,
            absorbedChange: record.absorbedChange,
            receivedAt: record.receivedAt, reversed: record.reversed)
    }
}
