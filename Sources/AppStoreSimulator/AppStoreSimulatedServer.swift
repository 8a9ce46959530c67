import Foundation
import LedgerHTTPServer

/// The simulated App Store Server API on a loopback HTTP port: what a CLI command or a
/// separate process reaches with `--api-base http://127.0.0.1:PORT`. Every request goes to
/// `api` (the same JWT checks, answers and records as in-process use), and its answer comes back.
///
/// ```swift
/// let server = try AppStoreSimulatedServer(api: api)
/// defer { Task { await server.stop() } }
/// // ledger appstore lookup --api-base \(server.baseURL) …
/// ```
public final class AppStoreSimulatedServer: Sendable {
    /// The API that answers.
    public let api: AppStoreSimulatedServerAPI
    private let server: SimulatedAPIServer

    /// The loopback port it listens on.
    public var port: Int { server.port }
    /// The API root to hand to a client: `http://127.0.0.1:PORT`.
    public var baseURL: URL { server.baseURL }

    /// Starts serving `api` on a free loopback port.
    /// - Throws: `LedgerHTTPServerError` when no port can be bound.
    public init(api: AppStoreSimulatedServerAPI) throws(LedgerHTTPServerError) {
        self.api = api
        server = try SimulatedAPIServer(api: api)
    }

    /// Stops the server, answering requests in flight first.
    public func stop() async { await server.stop() }
}
