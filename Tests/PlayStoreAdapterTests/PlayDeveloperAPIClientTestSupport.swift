import COpenSSL
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import PlayStoreSimulator
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An RSA key generated once per test run, as PEM and as an `EVP_PKEY` for verification.
enum PlayClientTestKey {
    /// The shared key.
    static let key: RSATestKey = {
        do { return try RSATestKey() } catch { preconditionFailure("cannot generate an RSA test key: \(error)") }
    }()

    /// The PKCS#8 PEM private key, the form Google's key files carry.
    static let privateKeyPEM: String = {
        do { return try key.privateKeyPEM() } catch { preconditionFailure("cannot write the RSA test key: \(error)") }
    }()

    /// Credentials for the shared key with the given token endpoint.
    static func credentials(tokenURI: URL) -> ServiceAccountCredentials {
        ServiceAccountCredentials(
            clientEmail: "fulfillment@game-project.iam.gserviceaccount.com", privateKeyPEM: privateKeyPEM,
            privateKeyID: "kid-0123", tokenURI: tokenURI)
    }
}

/// A request the stub saw.
struct RecordedRequest: Sendable {
    var method: String
    var url: URL
    var headers: [String: String]
    var body: Data

    /// The header `name` (case-insensitive).
    func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The percent-encoded path plus query, as sent.
    var target: String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
        return path + (url.query.map { "?" + $0 } ?? "")
    }

    /// The query items, decoded.
    var queryItems: [String: String] {
        var items: [String: String] = [:]
        for item in URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? [] {
            items[item.name] = item.value ?? ""
        }
        return items
    }
}

/// What the stub answers.
enum StubReply: Sendable {
    case json(Int, String, headers: [String: String] = [:])
    case failure(URLError.Code)
}

/// One test's fake Google: `oauth.<id>.test` issues tokens, `api.<id>.test` runs `apiHandler`.
final class PlayStubServer: Sendable {
    let id = UUID().uuidString.lowercased()
    private let state = Mutex<(requests: [RecordedRequest], tokenCount: Int)>(([], 0))
    private let apiHandler: @Sendable (RecordedRequest, Int) -> StubReply
    private let tokenHandler: (@Sendable (Int) -> StubReply)?

    /// `apiHandler` gets each API request and its 0-based index among API requests;
    /// `tokenHandler`, when set, replaces the default token endpoint (token number, 1-based).
    init(
        tokenHandler: (@Sendable (Int) -> StubReply)? = nil,
        apiHandler: @escaping @Sendable (RecordedRequest, Int) -> StubReply
    ) {
        self.apiHandler = apiHandler
        self.tokenHandler = tokenHandler
        PlayStubRegistry.servers.withLock { $0[id] = self }
    }

    var tokenURI: URL { URL(string: "https://oauth.\(id).test/token")! }
    var baseURL: URL { URL(string: "https://api.\(id).test")! }

    var requests: [RecordedRequest] { state.withLock { $0.requests } }
    var tokenRequests: [RecordedRequest] { requests.filter { $0.url.host?.hasPrefix("oauth.") == true } }
    var apiRequests: [RecordedRequest] { requests.filter { $0.url.host?.hasPrefix("api.") == true } }

    func reply(to request: RecordedRequest) -> StubReply {
        let isToken = request.url.host?.hasPrefix("oauth.") == true
        let (tokenNumber, apiIndex) = state.withLock { state -> (Int, Int) in
            let apiIndex = state.requests.filter { $0.url.host?.hasPrefix("api.") == true }.count
            state.requests.append(request)
            if isToken { state.tokenCount += 1 }
            return (state.tokenCount, apiIndex)
        }
        if isToken {
            if let tokenHandler { return tokenHandler(tokenNumber) }
            return .json(200, #"{"access_token":"access-\#(tokenNumber)","expires_in":3600,"token_type":"Bearer"}"#)
        }
        return apiHandler(request, apiIndex)
    }

    deinit { PlayStubRegistry.servers.withLock { _ = $0.removeValue(forKey: id) } }
}

/// Servers by id; weak lookups would be tidier but tests keep their server alive.
enum PlayStubRegistry {
    static let servers = Mutex<[String: PlayStubServer]>([:])
}

/// Routes `*.<id>.test` requests to the registered `PlayStubServer`.
final class PlayStubURLProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool {
        request.url?.host?.hasSuffix(".test") == true
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url, let host = url.host,
            let server = PlayStubRegistry.servers.withLock({ $0[String(host.split(separator: ".")[1])] })
        else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotFindHost))
            return
        }
        let recorded = RecordedRequest(
            method: request.httpMethod ?? "GET", url: url, headers: request.allHTTPHeaderFields ?? [:],
            body: request.httpBody ?? Self.drain(request.httpBodyStream))
        switch server.reply(to: recorded) {
        case .failure(let code):
            client?.urlProtocol(self, didFailWithError: URLError(code))
        case .json(let status, let body, let headers):
            var fields = headers
            fields["Content-Type"] = "application/json"
            let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)!
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client?.urlProtocol(self, didLoad: Data(body.utf8))
            client?.urlProtocolDidFinishLoading(self)
        }
    }

    override func stopLoading() {}

    /// Bytes read from a body stream, bounded.
    private static func drain(_ stream: InputStream?) -> Data {
        guard let stream else { return Data() }
        let chunkByteCount = 4096
        let readCountMax = 1024
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: chunkByteCount)
        for _ in 0..<readCountMax {
            let count = stream.read(&buffer, maxLength: chunkByteCount)
            guard count > 0 else { break }
            data.append(buffer, count: count)
        }
        return data
    }
}

/// Sleeps recorded instead of waited.
final class RecordedSleeps: Sendable {
    private let delays = Mutex<[Int]>([])
    var millisecondsList: [Int] { delays.withLock { $0 } }
    var sleep: PlayRetrySleep { { [self] delay in delays.withLock { $0.append(delay) } } }
}

/// A client wired to a stub server through a real `URLSession` with `PlayStubURLProtocol`.
struct PlayClientFixture {
    let server: PlayStubServer
    let clock: ManualClock
    let sleeps = RecordedSleeps()
    let provider: AccessTokenProvider
    let client: PlayDeveloperAPIClient

    init(
        policy: PlayRetryPolicy = PlayRetryPolicy(), clock: ManualClock = ManualClock(),
        tokenHandler: (@Sendable (Int) -> StubReply)? = nil,
        apiHandler: @escaping @Sendable (RecordedRequest, Int) -> StubReply
    ) throws {
        server = PlayStubServer(tokenHandler: tokenHandler, apiHandler: apiHandler)
        self.clock = clock
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [PlayStubURLProtocol.self]
        let transport = URLSessionTransport(session: URLSession(configuration: configuration))
        provider = try AccessTokenProvider(
            credentials: PlayClientTestKey.credentials(tokenURI: server.tokenURI), transport: transport,
            retryPolicy: policy, clock: clock, sleep: sleeps.sleep)
        client = PlayDeveloperAPIClient(
            tokenSource: provider, baseURL: server.baseURL, transport: transport, retryPolicy: policy, clock: clock,
            sleep: sleeps.sleep)
    }
}

/// A purchase as `purchases.products.get` returns it.
let stubPurchaseJSON = """
    {"kind":"androidpublisher#productPurchase","purchaseTimeMillis":"1767571200123","purchaseState":0,
     "consumptionState":0,"orderId":"GPA.3301-1234-5678-90123","acknowledgementState":0,
     "obfuscatedExternalAccountId":"acct-1","regionCode":"US","quantity":2}
    """

/// The JSON object in a JWT segment.
func jwtSegmentObject(_ segment: Substring) -> [String: Any] {
    var base64 = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    guard let data = Data(base64Encoded: base64),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { return [:] }
    return object
}

/// The form fields of an `application/x-www-form-urlencoded` body.
func formFields(_ body: Data) -> [String: String] {
    var fields: [String: String] = [:]
    for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
        if parts.count == 2 { fields[parts[0]] = parts[1] }
    }
    return fields
}
