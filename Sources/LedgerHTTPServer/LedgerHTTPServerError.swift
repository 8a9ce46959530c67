/// Why a `LedgerHTTPServer` could not start.
public enum LedgerHTTPServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The configuration cannot be served: a host that is not an IP literal, a port out of
    /// 0...65535 or a limit that is not positive; the text says which.
    case invalidConfiguration(String)
    /// A socket call failed: its name (`socket`, `setsockopt`, `bind`, `listen`, `getsockname`,
    /// `pipe`) and the `errno` it left.
    case socket(operation: String, errorNumber: Int32)
    /// `start()` was called before on this server; a server starts once.
    case alreadyStarted

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .invalidConfiguration(let reason): "invalid HTTP server configuration: \(reason)"
        case .socket(let operation, let errorNumber): "\(operation) failed with errno \(errorNumber)"
        case .alreadyStarted: "the HTTP server was started before"
        }
    }
}
