/// One failed check of a conformance case: what the case expected of the store, what it found,
/// and where in the suite the check is.
public struct ConformanceFailure: Hashable, Sendable, CustomStringConvertible {
    /// The case that failed, one of `LedgerStoreConformance.caseNames`.
    public let caseName: String
    /// What was expected and what was found, such as
    /// `entitlement version after the rolled-back write: expected 0, found 1`.
    public let message: String
    /// The suite's source file of the check, in `#fileID` form (`LedgerStoreConformance/RefundCases.swift`).
    public let file: String
    /// The line of the check in `file`.
    public let line: Int

    /// `caseName: message (file:line)`.
    public var description: String { "\(caseName): \(message) (\(file):\(line))" }
}
