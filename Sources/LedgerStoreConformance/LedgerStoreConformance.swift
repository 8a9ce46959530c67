import FulfillmentLedger

/// The conformance suite of the store port: the cases every `LedgerStore` must pass, whatever
/// its engine (the in-memory fake, SQLite, PostgreSQL, a store of your own).
///
/// It imports no test framework: `run(_:)` and `runAll()` return the failures as values, for
/// Swift Testing, XCTest or any other runner to report. Each case runs on a fresh, empty store
/// from `makeStore`, writes rows through the port and reads them back: round trips, orders and
/// limits, atomic rollback of a failed write, constraint failures, counts and pages.
///
/// ```swift
/// let suite = LedgerStoreConformance(makeStore: { try await MyLedgerStore.openEmpty() })
/// for name in LedgerStoreConformance.caseNames {
///     let failures = await suite.run(name)  // empty when the store passes
/// }
/// ```
public struct LedgerStoreConformance: Sendable {
    /// Makes the store a case runs on: a new, empty one for every case.
    public typealias StoreFactory = @Sendable () async throws -> any LedgerStore

    /// Every case, in a stable order.
    public static let cases: [Case] = entries.map(\.case)
    /// The names of every case, in the order of `cases`: what `run(_:)` takes.
    public static let caseNames: [String] = cases.map(\.name)

    /// Every case with its body, by area.
    static let entries: [ConformanceEntry] =
        RefundCases.entries + EntitlementCases.entries + TransactionCases.entries + CountCases.entries
        + WriteCases.entries + ChangeFeedCases.entries + SubscriptionCases.entries + AttemptCases.entries
        + OperationCases.entries

    private let makeStore: StoreFactory
    private let isConstraintFailure: @Sendable (LedgerError) -> Bool

    /// A suite that runs each case on a store from `makeStore`, which must give a new, empty
    /// store every time (it is kept until the case ends, then released).
    /// `isConstraintFailure` says whether an error is the engine's constraint failure (a
    /// duplicate key, a missing referenced row); by default `isBuiltInConstraintFailure`.
    public init(
        makeStore: @escaping StoreFactory,
        isConstraintFailure: @escaping @Sendable (LedgerError) -> Bool = LedgerStoreConformance.isBuiltInConstraintFailure
    ) {
        self.makeStore = makeStore
        self.isConstraintFailure = isConstraintFailure
    }

    /// Whether `error` is a constraint failure of one of the package's engines: SQLite's result
    /// code 19 (`SQLITE_CONSTRAINT`, code text `19/2067`), PostgreSQL's integrity class 23
    /// (SQLSTATE `23xxx`), the in-memory store's code `constraint`.
    public static func isBuiltInConstraintFailure(_ error: LedgerError) -> Bool {
        guard case .storage(let failure) = error else { return false }
        switch failure.engine {
        case "sqlite": return failure.code.split(separator: "/").first == "19"
        case "postgresql": return failure.code.hasPrefix("23")
        case "memory": return failure.code == "constraint"
        default: return false
        }
    }

    /// Runs the case named `name` on a new store and returns its failures: none when the store
    /// passes. A store that cannot be made, an error the store throws, and an unknown name are
    /// failures too.
    public func run(_ name: String) async -> [ConformanceFailure] {
        guard let entry = Self.entries.first(where: { $0.case.name == name }) else {
            return [
                ConformanceFailure(
                    caseName: name, message: "no conformance case is named \(name)", file: #fileID, line: #line)
            ]
        }
        let store: any LedgerStore
        do {
            store = try await makeStore()
        } catch {
            return [
                ConformanceFailure(
                    caseName: name, message: "the store could not be made: \(error)", file: entry.file, line: entry.line)
            ]
        }
        let context = ConformanceContext(caseName: name, store: store, isConstraintFailure: isConstraintFailure)
        do throws(LedgerError) {
            try await entry.body(context)
        } catch {
            context.record("the store threw \(error)", file: entry.file, line: entry.line)
        }
        return context.failures
    }

    /// Runs every case, one after another, each on a new store: the failures by case name, with
    /// an empty list for each case that passed.
    public func runAll() async -> [String: [ConformanceFailure]] {
        var results: [String: [ConformanceFailure]] = [:]
        for name in Self.caseNames { results[name] = await run(name) }
        return results
    }
}
