import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP response: status, headers (names lowercased) and body.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code.
    public var statusCode: Int
    /// Header fields, names lowercased.
    public var headers: [String: String]
    /// The body bytes.
    public var body: Data

    /// Creates a response, lowercasing the header names.
    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }
}

/// Why a request got no HTTP response at all.
public struct HTTPTransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of transport failure the client treats differently.
    public enum Kind: Hashable, Sendable {
        /// The request timed out: retried.
        case timedOut
        /// The connection could not be made or was lost: retried.
        case connectionFailed
        /// Anything else (bad URL, cancellation, TLS refusal): not retried.
        case other
    }

    /// What kind of failure.
    public var kind: Kind
    /// A human-readable cause.
    public var detail: String

    /// Creates an error.
    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// Whether retrying the same request may succeed.
    public var isTransient: Bool { kind != .other }

    /// `kind: detail`.
    public var description: String { "\(kind): \(detail)" }
}

/// Port: sends one HTTP request. `URLSessionTransport` is the production implementation;
/// tests substitute stubs.
public protocol HTTPTransport: Sendable {
    /// Sends `request` once (no retries) and returns whatever response arrived, any status.
    func send(_ request: URLRequest) async throws(HTTPTransportError) -> HTTPResponse
}

/// `HTTPTransport` over a `URLSession`.
public struct URLSessionTransport: HTTPTransport {
    /// The session requests go through.
    public let session: URLSession

    /// Uses `session`, by default `URLSession.shared`.
    public init(session: URLSession = .shared) {
        self.session = session
    }

    /// Sends `request` with `URLSession.data(for:)`, classifying `URLError`s.
    public func send(_ request: URLRequest) async throws(HTTPTransportError) -> HTTPResponse {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch let error as URLError {
            throw HTTPTransportError(Self.kind(of: error.code), "URLError \(error.code.rawValue): \(error.localizedDescription)")
        } catch {
            throw HTTPTransportError(.other, "\(error)")
        }
        guard let http = response as? HTTPURLResponse else {
            throw HTTPTransportError(.other, "not an HTTP response")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return HTTPResponse(statusCode: http.statusCode, headers: headers, body: data)
    }

    private static func kind(of code: URLError.Code) -> HTTPTransportError.Kind {
        switch code {
        case .timedOut: .timedOut
        case .cannotConnectToHost, .networkConnectionLost, .notConnectedToInternet, .cannotFindHost,
            .dnsLookupFailed, .badServerResponse:
            .connectionFailed
        default: .other
        }
    }
}
