import AppStoreAdapter
import Foundation
import FulfillmentLedger
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The App Store Server API answered from an `AppStoreSimulator`'s state, as an `HTTPTransport`
/// for `AppStoreServerAPIClient`: no socket, no waiting.
///
/// It checks every request's JWT as Apple documents (ES256 signed by `key`, `kid`, `typ`,
/// `iss`, `aud`, `bid`, an `exp` after now and at most 60 minutes after `iat`) and answers 401
/// otherwise. It serves Get Transaction Info, Get Transaction History v2 and Get Refund History
/// (pages of `pageSize`, `revision` the offset; a customer is an `appAccountToken`), Send
/// Consumption Information, Finish Transaction and Set App Account Token, recording the last three,
/// Get App Transaction Info (an `appTransactionId` per customer), and Get Notification
/// History from the notifications `recordNotification` logged (pages of `pageSize`, filtered by
/// date range, `transactionId` and `onlyFailures`). `answerNext` queues a scripted answer (such
/// as a 429 with `Retry-After`) ahead of everything.
public final class AppStoreSimulatedServerAPI: HTTPTransport, Sendable {
    /// Apple's page size for history and refund history.
    public static let pageSize = 20
    /// Apple's longest token lifetime.
    public static let tokenLifetimeSecondsMax = 3_600

    /// The store whose state answers.
    public let simulator: AppStoreSimulator
    private let key: AppStoreAPITestKey
    private let keyID: String
    private let issuerID: String
    private let clock: any LedgerClock
    private let state = Mutex(State())

    private struct State: Sendable {
        /// Scripted answers, each for any path (nil) or for paths ending with its suffix.
        var scripted: [(pathSuffix: String?, response: HTTPResponse)] = []
        var finishedTransactionIDs: [String] = []
        var consumptionBodies: [String: [Data]] = [:]
        var refusedTokenCount = 0
        var notifications: [LoggedNotification] = []
        var appAccountTokenRequests: [(originalTransactionID: String, token: String)] = []
    }

    /// A notification Apple tried to send, as Get Notification History lists it.
    private struct LoggedNotification: Sendable {
        var signedPayload: String
        var transactionID: String?
        var attemptDate: Date
        var delivered: Bool
    }

    /// A simulated API for `simulator`, accepting JWTs of `key` with `keyID` and `issuerID`.
    public init(
        simulator: AppStoreSimulator, key: AppStoreAPITestKey, keyID: String, issuerID: String, clock: any LedgerClock
    ) {
        self.simulator = simulator
        self.key = key
        self.keyID = keyID
        self.issuerID = issuerID
        self.clock = clock
    }

    /// Queues `response` as the answer to the next request, before any check.
    public func answerNext(_ response: HTTPResponse) { state.withLock { $0.scripted.append((nil, response)) } }
    /// Queues `response` as the answer to the next request whose path ends with `pathSuffix`
    /// (such as `/finish`), before any check; other requests pass it by.
    public func answerNext(_ response: HTTPResponse, forPathsEndingWith pathSuffix: String) {
        state.withLock { $0.scripted.append((pathSuffix, response)) }
    }
    /// Every Finish Transaction received, in order (repeats included).
    public var finishedTransactionIDs: [String] { state.withLock { $0.finishedTransactionIDs } }
    /// The Send Consumption Information bodies received for `transactionID`.
    public func consumptionBodies(for transactionID: String) -> [Data] {
        state.withLock { $0.consumptionBodies[transactionID] ?? [] }
    }
    /// Logs `signedPayload` as sent at `date` (default now) about `transactionID`; `delivered:
    /// false` is a notification the server never acknowledged (`onlyFailures` lists it).
    public func recordNotification(
        _ signedPayload: String, transactionID: String?, delivered: Bool, at date: Date? = nil
    ) {
        let logged = LoggedNotification(
            signedPayload: signedPayload, transactionID: transactionID, attemptDate: date ?? clock.now(),
            delivered: delivered)
        state.withLock { $0.notifications.append(logged) }
    }

    /// Requests refused for their JWT.
    public var refusedTokenCount: Int { state.withLock { $0.refusedTokenCount } }

    /// Answers one request.
    public func send(_ request: URLRequest) async throws(HTTPTransportError) -> HTTPResponse {
        let path = request.url?.path ?? ""
        let scripted = state.withLock { state -> HTTPResponse? in
            guard let index = state.scripted.firstIndex(where: { $0.pathSuffix.map(path.hasSuffix) ?? true }) else {
                return nil
            }
            return state.scripted.remove(at: index).response
        }
        if let scripted { return scripted }
        guard isAuthorized(request) else {
            state.withLock { $0.refusedTokenCount += 1 }
            return HTTPResponse(statusCode: 401, body: Data("Unauthenticated".utf8))
        }
        let query = request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems } ?? []
        let revision = query.first { $0.name == "revision" }?.value
        switch (request.httpMethod ?? "GET", path) {
        case ("POST", let path) where path.hasPrefix("/inApps/v1/transactions/") && path.hasSuffix("/finish"):
            let id = String(path.dropFirst("/inApps/v1/transactions/".count).dropLast("/finish".count))
            guard simulator.transaction(id) != nil else { return Self.notFound }
            state.withLock { $0.finishedTransactionIDs.append(id) }
            return HTTPResponse(statusCode: 200)
        case ("PUT", let path) where path.hasPrefix("/inApps/v1/transactions/") && path.hasSuffix("/appAccountToken"):
            let id = String(path.dropFirst("/inApps/v1/transactions/".count).dropLast("/appAccountToken".count))
            return setAppAccountToken(id, body: request.httpBody ?? Data())
        case ("GET", let path) where path.hasPrefix("/inApps/v1/transactions/appTransactions/"):
            let id = String(path.dropFirst("/inApps/v1/transactions/appTransactions/".count))
            guard let signed = try? simulator.signedAppTransaction(ofCustomerOf: id) else { return Self.notFound }
            return Self.json(["signedAppTransactionInfo": signed])
        case ("GET", let path) where path.hasPrefix("/inApps/v1/transactions/"):
            let id = String(path.dropFirst("/inApps/v1/transactions/".count))
            guard simulator.transaction(id) != nil, let signed = try? simulator.signedTransaction(id) else { return Self.notFound }
            return Self.json(["signedTransactionInfo": signed.jws])
        case ("GET", let path) where path.hasPrefix("/inApps/v1/subscriptions/"):
            return subscriptionStatuses(of: String(path.dropFirst("/inApps/v1/subscriptions/".count)))
        case ("GET", let path) where path.hasPrefix("/inApps/v2/history/"):
            return page(of: String(path.dropFirst("/inApps/v2/history/".count)), revision: revision) { _ in true }
        case ("GET", let path) where path.hasPrefix("/inApps/v2/refund/lookup/"):
            return page(of: String(path.dropFirst("/inApps/v2/refund/lookup/".count)), revision: revision) {
                $0.revocationDate != nil
            }
        case ("POST", "/inApps/v1/notifications/history"):
            return notificationHistory(
                request.httpBody ?? Data(), paginationToken: query.first { $0.name == "paginationToken" }?.value)
        case ("PUT", let path) where path.hasPrefix("/inApps/v2/transactions/consumption/"):
            let id = String(path.dropFirst("/inApps/v2/transactions/consumption/".count))
            guard simulator.transaction(id) != nil else { return Self.notFound }
            state.withLock { $0.consumptionBodies[id, default: []].append(request.httpBody ?? Data()) }
            return HTTPResponse(statusCode: 202)
        default:
            return Self.json(["errorCode": 4_000_000, "errorMessage": "Invalid request."], status: 400)
        }
    }

    /// Set App Account Token on the purchase `originalTransactionID`, refused as Apple refuses it.
    private func setAppAccountToken(_ originalTransactionID: String, body: Data) -> HTTPResponse {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let token = object["appAccountToken"] as? String, object.count == 1,
            let canonical = AppAccountToken.canonical(token)
        else {
            return Self.json(
                ["errorCode": 4_000_183, "errorMessage": "Invalid request. The app account token field must be a valid UUID."],
                status: 400)
        }
        do {
            try simulator.setAppAccountToken(originalTransactionID: originalTransactionID, token: canonical)
        } catch {
            guard let code = error.appleErrorCode else { return Self.notFound }
            return Self.json(["errorCode": code, "errorMessage": "Invalid request. \(error.detail)"], status: 400)
        }
        state.withLock { $0.appAccountTokenRequests.append((originalTransactionID, canonical)) }
        return HTTPResponse(statusCode: 200)
    }

    /// Every Set App Account Token request Apple accepted, in order.
    public var appAccountTokenRequests: [(originalTransactionID: String, token: String)] {
        state.withLock { $0.appAccountTokenRequests }
    }

    /// Get All Subscription Statuses of `transactionID`'s customer, grouped by subscription group.
    private func subscriptionStatuses(of transactionID: String) -> HTTPResponse {
        let now = clock.now()
        guard let statuses = try? simulator.subscriptionStatuses(ofCustomerOf: transactionID, at: now) else {
            return Self.notFound
        }
        var groups: [String: [[String: Any]]] = [:]
        for (latest, status) in statuses {
            guard let signed = try? simulator.sign(latest),
                let renewal = try? simulator.renewalInfo(transactionID: latest.transactionID, at: now)
            else { continue }
            groups[latest.subscriptionGroupIdentifier ?? "", default: []].append([
                "originalTransactionId": latest.originalTransactionID, "status": status.rawValue,
                "signedTransactionInfo": signed, "signedRenewalInfo": renewal,
            ])
        }
        return Self.json([
            "environment": simulator.environment.rawValue, "bundleId": simulator.bundleID,
            "data": groups.keys.sorted().map { ["subscriptionGroupIdentifier": $0, "lastTransactions": groups[$0] ?? []] },
        ])
    }

    /// One page of the transactions of `anchorID`'s customer that pass `include`. The anchor is
    /// any of Apple's IDs of the customer (`anyTransactionId`): a transaction ID, or an
    /// `appTransactionId`, whose customer is every transaction naming that account. A
    /// transaction anchor's customer is its account when its payload names one, else every
    /// transaction with its `appAccountToken`.
    private func page(
        of anchorID: String, revision: String?, include: (AppStoreSimulatedTransaction) -> Bool
    ) -> HTTPResponse {
        let all = simulator.transactions
        let isCustomers: (AppStoreSimulatedTransaction) -> Bool
        if let anchor = simulator.transaction(anchorID) {
            if let account = anchor.appTransactionID {
                isCustomers = { AppStoreSimulator.appTransactionID(of: $0) == account }
            } else {
                isCustomers = { $0.appAccountToken == anchor.appAccountToken }
            }
        } else if all.contains(where: { AppStoreSimulator.appTransactionID(of: $0) == anchorID }) {
            isCustomers = { AppStoreSimulator.appTransactionID(of: $0) == anchorID }
        } else {
            return Self.notFound
        }
        let owned = all.filter { isCustomers($0) && include($0) }
        let offset = revision.flatMap(Int.init) ?? 0
        guard offset >= 0, offset <= owned.count else {
            return Self.json(["errorCode": 4_000_005, "errorMessage": "Invalid request revision."], status: 400)
        }
        let slice = owned[offset..<min(owned.count, offset + Self.pageSize)]
        let signed = slice.compactMap { try? simulator.sign($0) }
        let next = offset + slice.count
        return Self.json([
            "signedTransactions": signed, "revision": String(next), "hasMore": next < owned.count,
            "bundleId": simulator.bundleID, "environment": simulator.environment.rawValue,
        ])
    }

    /// One page of logged notifications matching the request body.
    private func notificationHistory(_ body: Data, paginationToken: String?) -> HTTPResponse {
        guard let filter = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let start = filter["startDate"] as? Int64, let end = filter["endDate"] as? Int64, start < end
        else { return Self.json(["errorCode": 4_000_015, "errorMessage": "Invalid start date."], status: 400) }
        let transactionID = filter["transactionId"] as? String
        let onlyFailures = filter["onlyFailures"] as? Bool ?? false
        let matching = state.withLock { $0.notifications }.filter { logged in
            let when = logged.attemptDate.ledgerMilliseconds
            return when >= start && when < end && (transactionID == nil || logged.transactionID == transactionID)
                && (!onlyFailures || !logged.delivered)
        }
        let offset = paginationToken.flatMap(Int.init) ?? 0
        guard offset >= 0, offset <= matching.count else {
            return Self.json(["errorCode": 4_000_014, "errorMessage": "Invalid pagination token."], status: 400)
        }
        let slice = matching[offset..<min(matching.count, offset + Self.pageSize)]
        let next = offset + slice.count
        var page: [String: Any] = [
            "notificationHistory": slice.map { logged in
                [
                    "signedPayload": logged.signedPayload,
                    "sendAttempts": [
                        [
                            "attemptDate": logged.attemptDate.ledgerMilliseconds,
                            "sendAttemptResult": logged.delivered ? "SUCCESS" : "TIMED_OUT",
                        ]
                    ],
                ] as [String: Any]
            },
            "hasMore": next < matching.count,
        ]
        if next < matching.count { page["paginationToken"] = String(next) }
        return Self.json(page)
    }

    /// Whether the request's JWT is one Apple would accept now.
    private func isAuthorized(_ request: URLRequest) -> Bool {
        guard let value = request.value(forHTTPHeaderField: "Authorization"), value.hasPrefix("Bearer "),
            let (header, claims) = key.verifiedJWT(String(value.dropFirst("Bearer ".count))),
            header["alg"] as? String == "ES256", header["kid"] as? String == keyID, header["typ"] as? String == "JWT",
            claims["iss"] as? String == issuerID, claims["aud"] as? String == AppStoreAPITokenProvider.audience,
            claims["bid"] as? String == simulator.bundleID,
            let issuedAt = claims["iat"] as? Int, let expiresAt = claims["exp"] as? Int
        else { return false }
        let now = Int(clock.now().timeIntervalSince1970)
        return issuedAt <= now && now < expiresAt && expiresAt - issuedAt <= Self.tokenLifetimeSecondsMax
    }

    private static let notFound = json(["errorCode": 4_040_010, "errorMessage": "Transaction id not found."], status: 404)

    private static func json(_ object: [String: Any], status: Int = 200) -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return HTTPResponse(statusCode: status, headers: ["Content-Type": "application/json"], body: body)
    }
}
