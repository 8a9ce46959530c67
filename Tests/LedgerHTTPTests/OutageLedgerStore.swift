import FulfillmentLedger
import FulfillmentLedgerTesting
import Synchronization

/// An in-memory store whose next writes can be made to fail with a retryable storage error,
/// as a busy or unreachable database would; nothing of a failed write is kept.
final class OutageLedgerStore: LedgerStore {
    let store = InMemoryLedgerStore()
    private let failingWriteCount = Mutex(0)

    /// A new store over an empty in-memory one, no write failing yet.
    static func open(_: Void) async -> OutageLedgerStore { OutageLedgerStore() }

    /// Makes the next `count` writes fail.
    func failNextWrites(_ count: Int = 1) { failingWriteCount.withLock { $0 = count } }

    func read<T: Sendable>(
        _ body: @escaping @Sendable (LedgerReader) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        try await store.read(body)
    }

    func write<T: Sendable>(
        _ durability: WriteDurability, _ body: @escaping @Sendable (LedgerWriter) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        let fails = failingWriteCount.withLock { count in
            defer { count = max(0, count - 1) }
            return count > 0
        }
        if fails {
            throw .storage(StorageFailure(engine: "memory", code: "outage", message: "the store is down", sql: nil, kind: .connectionLostBeforeCommit))
        }
        return try await store.write(durability, body)
    }
}
