import FulfillmentLedger
import Synchronization

/// What one run of a case works with: a fresh store, the engine's notion of a constraint
/// failure, and the failures its checks record. A failed check records and goes on, so one run
/// reports every difference, not only the first.
final class ConformanceContext: Sendable {
    /// The case being run.
    let caseName: String
    /// The store under test, empty when the case starts.
    let store: any LedgerStore
    private let constraintFailure: @Sendable (LedgerError) -> Bool
    private let recorded = Mutex<[ConformanceFailure]>([])

    init(caseName: String, store: any LedgerStore, isConstraintFailure: @escaping @Sendable (LedgerError) -> Bool) {
        self.caseName = caseName
        self.store = store
        self.constraintFailure = isConstraintFailure
    }

    /// The failures recorded so far, in the order of the checks.
    var failures: [ConformanceFailure] { recorded.withLock { $0 } }

    /// Records a failure at `file`:`line` of the suite.
    func record(_ message: String, file: String = #fileID, line: Int = #line) {
        let failure = ConformanceFailure(caseName: caseName, message: message, file: file, line: line)
        recorded.withLock { $0.append(failure) }
    }

    /// Records `message` unless `condition` holds.
    func check(_ condition: Bool, _ message: @autoclosure () -> String, file: String = #fileID, line: Int = #line) {
        if !condition { record(message(), file: file, line: line) }
    }

    /// Records a failure naming `what`, with both values, unless `found` is `expected`.
    func checkEqual<T: Equatable>(
        _ found: T, _ expected: T, _ what: @autoclosure () -> String, file: String = #fileID, line: Int = #line
    ) {
        if found != expected {
            record("\(what()): expected \(Self.describe(expected)), found \(Self.describe(found))", file: file, line: line)
        }
    }

    /// Runs `body` as one write, which must fail with a constraint failure of the engine; records
    /// a failure naming `what` when it succeeds or fails otherwise.
    func checkConstraintFailure(
        _ what: String, file: String = #fileID, line: Int = #line,
        write body: @escaping @Sendable (LedgerWriter) throws(LedgerError) -> Void
    ) async {
        do throws(LedgerError) {
            try await store.write(body)
            record("\(what): expected a constraint failure, but the write committed", file: file, line: line)
        } catch {
            check(
                constraintFailure(error), "\(what): expected a constraint failure, found \(error)", file: file,
                line: line)
        }
    }

    /// A value as a failure message shows it: optionals without their `Optional(...)` wrapper.
    static func describe<T>(_ value: T) -> String {
        if let optional = value as? any OptionalDescribing { return optional.optionalDescription }
        return String(describing: value)
    }
}

/// An optional that describes itself as its wrapped value, or `nil`.
private protocol OptionalDescribing {
    var optionalDescription: String { get }
}

extension Optional: OptionalDescribing {
    fileprivate var optionalDescription: String {
        switch self {
        case .some(let wrapped): ConformanceContext.describe(wrapped)
        case .none: "nil"
        }
    }
}
