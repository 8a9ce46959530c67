import Foundation
import FulfillmentLedger
import LedgerHTTPClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ISteamMicroTxn over HTTPS: InitTxn, FinalizeTxn, QueryTxn and GetReport, on Steam's partner
/// host with a publisher Web API key that has the Microtransactions permission. `sandbox` uses
/// `ISteamMicroTxnSandbox`, which behaves the same and moves no money.
///
/// InitTxn is sent once and never retried: a lost answer leaves an order in an unknown state,
/// and Steam says to abandon it and start another. The other calls are retried under the
/// policy (429, 5xx, transient transport failures): FinalizeTxn twice is harmless (Steam
/// answers 6, already committed), and QueryTxn and GetReport only read.
public struct SteamWebAPIClient: Sendable {
    /// Steam's partner host, for calls from secure servers (HTTPS only, publisher keys).
    public static let baseURLDefault = URL(string: "https://partner.steam-api.com")!
    /// The method versions called: the first that send 64-bit numbers as strings and, for
    /// QueryTxn and GetReport, report the fraud statuses.
    public static let methodVersions = ["InitTxn": 3, "FinalizeTxn": 2, "QueryTxn": 3, "GetReport": 5]
    /// Largest answer read, in bytes.
    public static let responseByteCountMax = 16 * 1024 * 1024
    /// Most orders one GetReport call asks for: Steam's own maximum.
    public static let reportResultCountMax = 50_000

    private let key: String
    /// The game's App ID.
    public let appID: UInt32
    /// Whether calls go to `ISteamMicroTxnSandbox`.
    public let sandbox: Bool
    /// The API's base URL (a loopback stand-in in tests).
    public let baseURL: URL
    private let sender: RetryingHTTPSender
    private let onceSender: RetryingHTTPSender

    /// A client using the publisher key `key` for `appID`; nil for an empty or unprintable key or app ID 0.
    public init?(
        key: String, appID: UInt32, sandbox: Bool, baseURL: URL = baseURLDefault,
        transport: any HTTPTransport = URLSessionTransport(), retryPolicy: HTTPRetryPolicy = HTTPRetryPolicy(),
        clock: any LedgerClock = SystemClock(), sleep: @escaping HTTPRetrySleep = HTTPRetryPolicy.taskSleep
    ) {
        guard !key.isEmpty, key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), appID != 0 else { return nil }
        self.key = key
        self.appID = appID
        self.sandbox = sandbox
        self.baseURL = baseURL
        let dialect = HTTPErrorDialect(
            retryAfterMilliseconds: { response, now in
                HTTPRetryPolicy.retryAfterMilliseconds(response.headers["retry-after"], now: now)
            },
            failureMessage: { body in SteamResponseEnvelope<EmptyParams>.message(in: body) })
        sender = RetryingHTTPSender(transport: transport, policy: retryPolicy, clock: clock, sleep: sleep, dialect: dialect)
        var once = retryPolicy
        once.retryCountMax = 0
        onceSender = RetryingHTTPSender(transport: transport, policy: once, clock: clock, sleep: sleep, dialect: dialect)
    }

    /// The interface the calls go to.
    public var interface: String { sandbox ? "ISteamMicroTxnSandbox" : "ISteamMicroTxn" }

    /// `POST InitTxn/v3`, sent once.
    public func initTxn(_ request: SteamOrderRequest) async throws(SteamAPIError) -> SteamAnswer<SteamStartedTransaction> {
        if let problem = request.validate() { throw .invalidResponse("not sent: \(problem)") }
        let answer: SteamCallResult<SteamTransactionParams> = try await call(
            "InitTxn", post: true, fields: request.formFields(), sender: onceSender)
        switch answer {
        case .failure(let failure): return .failure(failure)
        case .ok(let params):
            guard params.orderID == request.orderID else {
                throw .invalidResponse("InitTxn for order \(request.orderID) answered order \(params.orderID)")
            }
            return .ok(SteamStartedTransaction(orderID: params.orderID, transactionID: params.transactionID, steamURL: params.steamURL))
        }
    }

    /// `POST FinalizeTxn/v2`.
    public func finalizeTxn(orderID: UInt64) async throws(SteamAPIError) -> SteamAnswer<UInt64> {
        let answer: SteamCallResult<SteamTransactionParams> = try await call(
            "FinalizeTxn", post: true, fields: [("orderid", String(orderID))], sender: sender)
        switch answer {
        case .failure(let failure): return .failure(failure)
        case .ok(let params):
            guard params.orderID == orderID else { throw .invalidResponse("FinalizeTxn for order \(orderID) answered order \(params.orderID)") }
            return .ok(params.transactionID)
        }
    }

    /// `GET QueryTxn/v3` by order ID.
    public func queryTxn(orderID: UInt64) async throws(SteamAPIError) -> SteamAnswer<SteamOrder> {
        let answer: SteamCallResult<SteamOrder> = try await call("QueryTxn", post: false, fields: [("orderid", String(orderID))], sender: sender)
        switch answer {
        case .failure(let failure): return .failure(failure)
        case .ok(let order):
            guard order.orderID == orderID else { throw .invalidResponse("QueryTxn for order \(orderID) answered order \(order.orderID)") }
            return .ok(order)
        }
    }

    /// `GET GetReport/v5` of type `GAMESALES` (the orders made through InitTxn).
    public func report(since: Date, maxResults: Int) async throws(SteamAPIError) -> SteamAnswer<[SteamOrder]> {
        guard (1...Self.reportResultCountMax).contains(maxResults) else {
            throw .invalidResponse("not sent: maxresults must be 1 to \(Self.reportResultCountMax)")
        }
        let time = Date(timeIntervalSince1970: since.timeIntervalSince1970.rounded(.down)).formatted(.iso8601)
        let answer: SteamCallResult<SteamReportParams> = try await call(
            "GetReport", post: false, fields: [("type", "GAMESALES"), ("time", time), ("maxresults", String(maxResults))],
            sender: sender)
        switch answer {
        case .failure(let failure): return .failure(failure)
        case .ok(let params):
            let orders = params.orders ?? []
            guard orders.count <= maxResults else { throw .invalidResponse("GetReport answered \(orders.count) orders, asked for \(maxResults)") }
            return .ok(orders)
        }
    }

    /// One call: the key and app ID added, the envelope decoded.
    private func call<Params: Decodable>(
        _ method: String, post: Bool, fields: [(String, String)], sender: RetryingHTTPSender
    ) async throws(SteamAPIError) -> SteamCallResult<Params> {
        let version = Self.methodVersions[method] ?? 1
        let all = [("key", key), ("appid", String(appID))] + fields
        let path = "/\(interface)/\(method)/v\(version)/"
        let root = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        guard var components = URLComponents(string: root + path) else { throw .transport("cannot build a URL for \(path)") }
        if !post { components.percentEncodedQuery = FormEncoding.encode(all) }
        guard let url = components.url else { throw .transport("cannot build a URL for \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = post ? "POST" : "GET"
        if post {
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(FormEncoding.encode(all).utf8)
        }
        let response: HTTPResponse
        do {
            response = try await sender.send(request)
        } catch {
            switch error.kind {
            case .exhausted: throw .unavailable(error.lastFailure)
            case .permanent: throw .transport(error.lastFailure)
            }
        }
        let detail = SteamResponseEnvelope<EmptyParams>.message(in: response.body) ?? "no message"
        switch response.statusCode {
        case 200: break
        case 401, 403: throw .unauthorized(statusCode: response.statusCode, detail: detail)
        default: throw .rejected(statusCode: response.statusCode, detail: detail)
        }
        guard response.body.count <= Self.responseByteCountMax else {
            throw .invalidResponse("\(method): \(response.body.count) bytes, more than \(Self.responseByteCountMax)")
        }
        let envelope: SteamResponseEnvelope<Params>
        do {
            envelope = try JSONDecoder().decode(SteamResponseEnvelope<Params>.self, from: response.body)
        } catch {
            throw .invalidResponse("\(method): \(error)")
        }
        guard let answer = envelope.answer else {
            throw .invalidResponse("\(method): result \"\(envelope.response.result)\" without params")
        }
        return answer
    }
}

extension SteamWebAPIClient: SteamMicroTxnAPI {}
