import Foundation
import FulfillmentLedger

/// A store that hands its reads and writes to another, `store`; a conforming type replaces
/// only what it changes.
protocol ForwardingLedgerStore: LedgerStore {
    /// The store that does the work.
    var store: any LedgerStore { get }
}

extension ForwardingLedgerStore {
    /// Runs one read on `store`.
    func read<T: Sendable>(
        _ body: @escaping @Sendable (LedgerReader) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        try await store.read(body)
    }

    /// Runs one write on `store`.
    @discardableResult
    func write<T: Sendable>(
        _ durability: WriteDurability, _ body: @escaping @Sendable (LedgerWriter) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        try await store.write(durability, body)
    }

    /// Hands a finish mark to `store`, so an engine that carries marks does so here too.
    func markFinished(_ key: TransactionKey, at date: Date) async throws(LedgerError) {
        try await store.markFinished(key, at: date)
    }
}
