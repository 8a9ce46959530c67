/// The bounds a `LedgerHTTPServer` keeps: request sizes, concurrent connections and the time
/// each stage may take. Every request the server reads, and every connection it keeps, stays
/// within them; the defaults suit a service behind a reverse proxy on the same host.
public struct LedgerHTTPServerLimits: Sendable, Hashable {
    /// Most bytes of a request body; larger declared bodies are refused with 413 before any
    /// byte of them is read, chunked bodies as soon as they pass it. Default 1 MiB.
    public var bodyByteCountMax: Int
    /// Most bytes of a request head: the request line, the header fields and the blank line
    /// that ends them (also the bound on chunked trailers); beyond it, 431. Default 16 KiB.
    public var headerByteCountMax: Int
    /// Most header fields in a request head; beyond it, 431. Default 100.
    public var headerFieldCountMax: Int
    /// Most connections served at once, each on a thread of its own. At the limit, the
    /// connection idle longest (a keep-alive connection waiting for its next request) is closed
    /// to make room; with none idle, the new one is accepted, answered 503 with `Retry-After`
    /// and closed. Default 512, far above a game server's connection pool.
    public var connectionCountMax: Int
    /// How long a whole request, head and body, may take to arrive: from the accept for a
    /// connection's first request, from its first byte for later ones. A client that sends part
    /// of a request and stops is answered 408 and closed when it runs out. Default 10 s.
    public var readTimeoutMilliseconds: Int
    /// How long writing one response (or a `100 Continue`) may take; past it the connection is
    /// closed. Default 10 s.
    public var writeTimeoutMilliseconds: Int
    /// How long a kept-alive connection may wait, between requests, for the next one to begin;
    /// past it the connection is closed without an answer. Default 5 s.
    public var idleTimeoutMilliseconds: Int
    /// Most requests served on one connection; the last is answered with `Connection: close`.
    /// Default 1000.
    public var requestCountPerConnectionMax: Int
    /// How long `LedgerHTTPServer.shutdown()` waits for requests in flight to be answered
    /// before it closes their connections anyway. Default 10 s.
    public var shutdownGraceMilliseconds: Int

    /// Creates limits; each argument left out takes its default.
    public init(
        bodyByteCountMax: Int = 1 << 20,
        headerByteCountMax: Int = 16 << 10,
        headerFieldCountMax: Int = 100,
        connectionCountMax: Int = 512,
        readTimeoutMilliseconds: Int = 10_000,
        writeTimeoutMilliseconds: Int = 10_000,
        idleTimeoutMilliseconds: Int = 5_000,
        requestCountPerConnectionMax: Int = 1_000,
        shutdownGraceMilliseconds: Int = 10_000
    ) {
        self.bodyByteCountMax = bodyByteCountMax
        self.headerByteCountMax = headerByteCountMax
        self.headerFieldCountMax = headerFieldCountMax
        self.connectionCountMax = connectionCountMax
        self.readTimeoutMilliseconds = readTimeoutMilliseconds
        self.writeTimeoutMilliseconds = writeTimeoutMilliseconds
        self.idleTimeoutMilliseconds = idleTimeoutMilliseconds
        self.requestCountPerConnectionMax = requestCountPerConnectionMax
        self.shutdownGraceMilliseconds = shutdownGraceMilliseconds
    }

    /// The names of the limits that are not positive (`shutdownGraceMilliseconds` may be 0).
    var invalidNames: [String] {
        let positive: [(String, Int)] = [
            ("bodyByteCountMax", bodyByteCountMax), ("headerByteCountMax", headerByteCountMax),
            ("headerFieldCountMax", headerFieldCountMax), ("connectionCountMax", connectionCountMax),
            ("readTimeoutMilliseconds", readTimeoutMilliseconds), ("writeTimeoutMilliseconds", writeTimeoutMilliseconds),
            ("idleTimeoutMilliseconds", idleTimeoutMilliseconds),
            ("requestCountPerConnectionMax", requestCountPerConnectionMax),
        ]
        return positive.filter { $0.1 <= 0 }.map(\.0) + (shutdownGraceMilliseconds < 0 ? ["shutdownGraceMilliseconds"] : [])
    }
}
