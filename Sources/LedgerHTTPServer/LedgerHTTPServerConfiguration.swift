/// Where a `LedgerHTTPServer` listens and the limits it keeps.
public struct LedgerHTTPServerConfiguration: Sendable, Hashable {
    /// The address to listen on: an IPv4 literal (`127.0.0.1`, `0.0.0.0`) or an IPv6 literal
    /// (`::1`, `[::1]`, `::`); host names are not resolved. Default `127.0.0.1`, loopback only.
    public var host: String
    /// The TCP port; 0 asks the system for a free one, which `LedgerHTTPServer.start()` returns.
    public var port: Int
    /// The request, connection and time bounds.
    public var limits: LedgerHTTPServerLimits

    /// Creates a configuration: loopback and an ephemeral port unless told otherwise.
    public init(host: String = "127.0.0.1", port: Int = 0, limits: LedgerHTTPServerLimits = LedgerHTTPServerLimits()) {
        self.host = host
        self.port = port
        self.limits = limits
    }
}
