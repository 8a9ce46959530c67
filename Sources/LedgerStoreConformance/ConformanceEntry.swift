import FulfillmentLedger

/// A case with what it runs, and where it is declared (for failures the case reports as a whole:
/// a store that could not be made, an error a store threw).
struct ConformanceEntry: Sendable {
    /// What a case runs: checks against a fresh, empty store. A thrown error ends the case and
    /// is recorded as a failure.
    typealias Body = @Sendable (ConformanceContext) async throws(LedgerError) -> Void

    let `case`: LedgerStoreConformance.Case
    let file: String
    let line: Int
    let body: Body

    /// Declares a case named `name`.
    init(_ name: String, _ summary: String, file: String = #fileID, line: Int = #line, _ body: @escaping Body) {
        self.case = LedgerStoreConformance.Case(name: name, summary: summary)
        self.file = file
        self.line = line
        self.body = body
    }
}
