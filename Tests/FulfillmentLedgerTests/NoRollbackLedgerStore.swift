import FulfillmentLedger
import FulfillmentLedgerTesting

/// A store that breaks the contract: when a write body throws, what it did before the throw is
/// committed all the same (and the error still reported), where a store must roll it all back.
final class NoRollbackLedgerStore: ForwardingLedgerStore {
    /// The cases that can see the difference: those whose writes fail on purpose.
    static let catchingCases: Set = [
        "duplicateEventIDFails", "refundStateNeedsLedgerRecord", "conflictingBodyRunsAgain",
    ]

    let store: any LedgerStore = InMemoryLedgerStore()

    /// A new store over an empty in-memory one.
    static func open(_: Void) async -> NoRollbackLedgerStore { NoRollbackLedgerStore() }

    /// Runs `body` as a write; when it throws, runs it again in a write that keeps what it did
    /// before the throw, then reports the error.
    @discardableResult
    func write<T: Sendable>(
        _ durability: WriteDurability, _ body: @escaping @Sendable (LedgerWriter) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        do throws(LedgerError) {
            return try await store.write(durability, body)
        } catch {
            _ = try? await store.write(durability) { writer throws(LedgerError) in
                do throws(LedgerError) { _ = try body(writer) } catch {}
            }
            throw error
        }
    }
}
