/// How serious a catalog finding is.
public enum CatalogSeverity: String, Hashable, Sendable, Codable {
    /// The catalog is refused until it is fixed.
    case error
    /// Suspicious but allowed: the check still passes.
    case warning
}

/// One thing wrong with a catalog, located for the designer who has to fix it.
public struct CatalogProblem: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Error (the catalog is refused) or warning (allowed, but look again).
    public var severity: CatalogSeverity
    /// Where in the JSON, such as `$.products[2].rewards.currencies[0].amount`.
    public var path: String
    /// What is wrong and how to fix it, in a designer's words.
    public var message: String
    /// 1-based line of the offending value, when known.
    public var line: Int?
    /// 1-based column (in UTF-8 bytes) of the offending value, when known.
    public var column: Int?

    /// Creates a problem.
    public init(
        path: String, message: String, line: Int? = nil, column: Int? = nil, severity: CatalogSeverity = .error
    ) {
        self.severity = severity
        self.path = path
        self.message = message
        self.line = line
        self.column = column
    }

    /// `$.products[2].kind: "durable" is not allowed; use "consumable" or "nonConsumable" or "autoRenewable"`.
    public var description: String { "\(severity == .warning ? "warning: " : "")\(path): \(message)" }
}
