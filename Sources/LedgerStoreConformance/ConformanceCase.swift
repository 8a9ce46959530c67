extension LedgerStoreConformance {
    /// One case of the suite, as a caller sees it: a stable name to run it by and what it checks.
    public struct Case: Hashable, Sendable, CustomStringConvertible {
        /// The stable name `run(_:)` takes, such as `duplicateEventIDFails`.
        public let name: String
        /// One line on what the case checks.
        public let summary: String

        /// The name.
        public var description: String { name }
    }
}
