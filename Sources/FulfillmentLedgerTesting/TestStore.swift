import Foundation
import FulfillmentLedger
import Synchronization
import TestStoreAdapter

/// A simulated platform store: makes purchases, holds them unfinished until the ledger
/// finishes them, and can be scripted to fail. It is the verifier's, the finisher's and
/// the transaction source's fake in one, so a suite sees the platform's side of the story.
public final class TestStore: PlatformFinisher, TransactionSource {
    /// A port of the test store that can be made to fail.
    public enum Port: String, Sendable, Hashable, CaseIterable {
        /// `verify` throws `verifierUnavailable`.
        case verify
        /// `finish` throws `finishFailed`.
        case finish
        /// `unfinishedTransactions` throws `transactionSourceUnavailable`.
        case source
    }

    private struct State: Sendable {
        var transactions: [String: TestStoreTransaction] = [:]
        var order: [String] = []
        var finished: Set<String> = []
        var finishCalls: [String: Int] = [:]
        var outages: [Port: Int] = [:]
        var nextNumber = 1
    }

    private let state = Mutex(State())
    private let clock: any LedgerClock
    private let verifierCore = TestStoreVerifier()

    /// Creates an empty store whose purchase dates come from `clock`.
    public init(clock: any LedgerClock = SystemClock()) {
        self.clock = clock
    }

    /// A verifier bound to this store, which honours scripted outages.
    public var verifier: Verifier { Verifier(store: self) }

    /// Buys a product: returns what the client would submit. The transaction stays
    /// unfinished at the store until the ledger finishes it.
    @discardableResult
    public func purchase(
        storeProductID: String, playerID: String, quantity: Int = 1, state purchaseState: PurchaseState = .purchased
    ) -> TransactionSubmission {
        let now = clock.now()
        return state.withLock { state in
            let id = String(format: "test-%06d", state.nextNumber)
            state.nextNumber += 1
            let document = TestStoreTransaction(
                transactionID: id, storeProductID: storeProductID, playerID: playerID, quantity: quantity,
                state: purchaseState, purchaseDate: now)
            state.transactions[id] = document
            state.order.append(id)
            return document.submission()
        }
    }

    /// Changes a transaction (approve a pending one, cancel, revoke) and returns the
    /// submission the store would now deliver.
    public func update(
        _ transactionID: String, _ change: (inout TestStoreTransaction) -> Void
    ) -> TransactionSubmission? {
        state.withLock { state in
            guard var document = state.transactions[transactionID] else { return nil }
            change(&document)
            state.transactions[transactionID] = document
            return document.submission()
        }
    }

    /// Approves a pending purchase.
    public func approve(_ transactionID: String) -> TransactionSubmission? {
        update(transactionID) { $0.state = .purchased }
    }

    /// Cancels a purchase.
    public func cancel(_ transactionID: String) -> TransactionSubmission? {
        update(transactionID) { $0.state = .cancelled }
    }

    /// Revokes a purchase now.
    public func revoke(_ transactionID: String) -> TransactionSubmission? {
        let now = clock.now()
        return update(transactionID) { $0.revocationDate = now }
    }

    /// The current submission for a transaction.
    public func submission(_ transactionID: String) -> TransactionSubmission? {
        state.withLock { $0.transactions[transactionID]?.submission() }
    }

    /// Makes the next `count` calls of `port` fail.
    public func failNext(_ port: Port, count: Int = 1) {
        precondition(count >= 0, "count must not be negative")
        state.withLock { $0.outages[port] = count }
    }

    /// How many scripted failures of `port` are still to come.
    public func pendingFailureCount(_ port: Port) -> Int { state.withLock { $0.outages[port, default: 0] } }

    /// Whether the ledger has finished a transaction.
    public func isFinished(_ transactionID: String) -> Bool { state.withLock { $0.finished.contains(transactionID) } }

    /// How often `finish` was called for a transaction, including failed calls.
    public func finishCallCount(_ transactionID: String) -> Int {
        state.withLock { $0.finishCalls[transactionID, default: 0] }
    }

    /// Transactions the ledger has not finished, in purchase order.
    public func unfinishedTransactionIDs() -> [String] {
        state.withLock { state in state.order.filter { !state.finished.contains($0) } }
    }

    /// Records the finish; unknown IDs are accepted, as a real store accepts a finish for
    /// a transaction it delivered earlier.
    public func finish(_ request: FinishRequest) async throws(LedgerError) {
        let failed = state.withLock { state -> Bool in
            state.finishCalls[request.key.transactionID, default: 0] += 1
            if consumeOutage(.finish, in: &state) { return true }
            state.finished.insert(request.key.transactionID)
            return false
        }
        if failed { throw LedgerError.finishFailed("test store outage while finishing \(request.key)") }
    }

    /// Every transaction the ledger has not finished, oldest first: purchased, pending,
    /// cancelled or revoked, as a real store's unfinished list may hold any of them.
    public func unfinishedTransactions(limit: Int) async throws(LedgerError) -> [TransactionSubmission] {
        let result = state.withLock { state -> [TransactionSubmission]? in
            if consumeOutage(.source, in: &state) { return nil }
            var unfinished: [TransactionSubmission] = []
            for id in state.order where !state.finished.contains(id) {
                guard unfinished.count < limit else { break }
                if let document = state.transactions[id] { unfinished.append(document.submission()) }
            }
            return unfinished
        }
        guard let result else { throw LedgerError.transactionSourceUnavailable("test store outage") }
        return result
    }

    fileprivate func verifyWithOutages(_ submission: TransactionSubmission) async throws(LedgerError) -> VerificationResult {
        let down = state.withLock { consumeOutage(.verify, in: &$0) }
        if down { throw LedgerError.verifierUnavailable("test store outage") }
        return try await verifierCore.verify(submission)
    }

    private func consumeOutage(_ port: Port, in state: inout State) -> Bool {
        guard let remaining = state.outages[port], remaining > 0 else { return false }
        state.outages[port] = remaining - 1
        return true
    }

    /// The store's verifier: `TestStoreVerifier` plus scripted outages.
    public struct Verifier: TransactionVerifier {
        let store: TestStore

        /// Sandbox only.
        public var supportedEnvironments: Set<StoreEnvironment> { [.sandbox] }

        /// Verifies through the store, failing during a scripted outage.
        public func verify(_ submission: TransactionSubmission) async throws(LedgerError) -> VerificationResult {
            try await store.verifyWithOutages(submission)
        }
    }
}
