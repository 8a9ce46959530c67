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

    /// Runs `body` on the current state.
    public func read<T: Sendable>(_ body: (any LedgerReader) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try state.withLock { (current: inout InMemoryLedgerState) throws(LedgerError) -> T in
            try body(InMemoryLedgerSession(current))
        }
    }

    /// Runs `body` on a copy and keeps the copy only if `body` returns.
    public func write<T: Sendable>(_ body: (any LedgerWriter) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try state.withLock { (current: inout InMemoryLedgerState) throws(LedgerError) -> T in
            let session = InMemoryLedgerSession(current)
            let result = try body(session)
            current = session.state
            return result
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

    struct PurchaseCountKey: Hashable, Sendable {
        var playerID: String
        var productID: String
        var period: String
    }

    var transactions: [TransactionKey: TransactionRecord] = [:]
    var balances: [PlayerAsset: Int64] = [:]
    var inventory: [PlayerAsset: Int64] = [:]
    var entitlements: [PlayerAsset: EntitlementRecord] = [:]
    var purchaseCounts: [PurchaseCountKey: Int] = [:]
    var pendingFinishes: [TransactionKey: PendingFinish] = [:]
    var operations: [String: OperationRecord] = [:]
    var events: [LedgerEvent] = []
}

/// A reader and writer over one copy of the in-memory state.
final class InMemoryLedgerSession: LedgerWriter {
    var state: InMemoryLedgerState

    init(_ state: InMemoryLedgerState) { self.state = state }

    func transaction(_ key: TransactionKey) throws(LedgerError) -> TransactionRecord? { state.transactions[key] }

    func saleCountsByProduct(limit: Int) throws(LedgerError) -> [String: Int] {
        var counts: [String: Int] = [:]
        for record in state.transactions.values { counts[record.productID, default: 0] += 1 }
        return counts.count <= limit ? counts : Dictionary(uniqueKeysWithValues: counts.sorted { $0.key < $1.key }.prefix(limit).map { ($0.key, $0.value) })
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
        state.entitlements.filter { $0.key.playerID == playerID }.map(\.value).sorted { $0.entitlementID < $1.entitlementID }
    }

    func purchaseCount(playerID: String, productID: String, period: String) throws(LedgerError) -> Int {
        state.purchaseCounts[.init(playerID: playerID, productID: productID, period: period), default: 0]
    }

    func pendingFinish(_ key: TransactionKey) throws(LedgerError) -> PendingFinish? { state.pendingFinishes[key] }

    func pendingFinishes(limit: Int) throws(LedgerError) -> [PendingFinish] {
        Array(state.pendingFinishes.values.sorted { ($0.enqueuedAt, $0.key) < ($1.enqueuedAt, $1.key) }.prefix(limit))
    }

    func operation(id: String) throws(LedgerError) -> OperationRecord? { state.operations[id] }

    func events(playerID: String, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        Array(state.events.reversed().lazy.filter { $0.playerID == playerID }.prefix(limit))
    }

    func insertTransaction(_ record: TransactionRecord) throws(LedgerError) {
        guard state.transactions[record.key] == nil else { throw Self.constraint("transactions primary key") }
        state.transactions[record.key] = record
    }

    func addToBalance(playerID: String, currencyID: String, delta: Int64) throws(LedgerError) -> Int64 {
        try Self.add(delta, to: &state.balances[.init(playerID: playerID, id: currencyID), default: 0], playerID, currencyID)
    }

    func addToInventory(playerID: String, itemID: String, delta: Int64) throws(LedgerError) -> Int64 {
        try Self.add(delta, to: &state.inventory[.init(playerID: playerID, id: itemID), default: 0], playerID, itemID)
    }

    func grantEntitlement(_ record: EntitlementRecord, playerID: String) throws(LedgerError) -> Bool {
        let key = InMemoryLedgerState.PlayerAsset(playerID: playerID, id: record.entitlementID)
        guard state.entitlements[key] == nil else { return false }
        state.entitlements[key] = record
        return true
    }

    func incrementPurchaseCount(playerID: String, productID: String, period: String, by count: Int) throws(LedgerError) {
        state.purchaseCounts[.init(playerID: playerID, productID: productID, period: period), default: 0] += count
    }

    func enqueueFinish(_ pending: PendingFinish) throws(LedgerError) {
        guard state.transactions[pending.key] != nil else { throw Self.constraint("pending finish without ledger row") }
        guard state.pendingFinishes[pending.key] == nil else { throw Self.constraint("pending finish primary key") }
        state.pendingFinishes[pending.key] = pending
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

    func resetProgress(playerID: String) throws(LedgerError) {
        state.balances = state.balances.filter { $0.key.playerID != playerID }
        state.inventory = state.inventory.filter { $0.key.playerID != playerID }
        state.purchaseCounts = state.purchaseCounts.filter { $0.key.playerID != playerID }
    }

    private static func add(_ delta: Int64, to value: inout Int64, _ playerID: String, _ assetID: String) throws(LedgerError) -> Int64 {
        let (sum, overflow) = value.addingReportingOverflow(delta)
        guard !overflow else { throw LedgerError.amountOverflow(playerID: playerID, assetID: assetID) }
        value = sum
        return sum
    }

    private static func constraint(_ what: String) -> LedgerError {
        .storage(StorageFailure(engine: "memory", resultCode: 19, extendedResultCode: 19, message: "constraint failed: \(what)", sql: nil))
    }
}
