import Foundation
import LedgerHTTP
import LedgerHTTPClient
import LedgerHTTPServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A simulated store API on a loopback HTTP port: what a CLI command or a separate process
/// reaches with `--api-base http://127.0.0.1:PORT`. Every request goes to `api`, an in-process
/// `HTTPTransport` (the same checks, answers and records as in-process use), and its answer comes
/// back. The App Store's and Stripe's simulated servers are one of these.
public final class SimulatedAPIServer: Sendable {
    /// The loopback port it listens on.
    public let port: Int
    private let server: LedgerHTTPServer

    /// The API root to hand to a client: `http://127.0.0.1:PORT`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts serving `api` on a free loopback port.
    /// - Throws: `LedgerHTTPServerError` when no port can be bound.
    public init(api: any HTTPTransport) throws(LedgerHTTPServerError) {
        server = LedgerHTTPServer { request in await Self.forward(request, to: api) }
        port = try server.start()
    }

    /// Stops the server, answering requests in flight first.
    public func stop() async { await server.shutdown() }

    /// Hands a request the HTTP server received to the simulated API, and its answer back.
    static func forward(_ request: LedgerHTTPRequest, to api: any HTTPTransport) async -> LedgerHTTPResponse {
        guard let url = URL(string: "http://127.0.0.1" + request.target) else { return .text(400, "bad target") }
        var forwarded = URLRequest(url: url)
        forwarded.httpMethod = request.method
        for (name, value) in request.headers { forwarded.setValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { forwarded.httpBody = request.body }
        do throws(HTTPTransportError) {
            let answer = try await api.send(forwarded)
            let headers = answer.headers.map { (name: $0.key, value: $0.value) }
            return LedgerHTTPResponse(status: answer.statusCode, headers: headers, body: answer.body)
        } catch {
            return .text(502, "\(error)")
        }
    }
}
