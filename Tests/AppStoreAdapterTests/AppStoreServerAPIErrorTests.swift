import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import Testing

/// How the App Store Server API client handles Apple's errors, limits and outages; every wait
/// goes through the injected sleeper, so nothing here waits.
@Suite struct AppStoreServerAPIErrorTests {
    /// The error `body` throws, or nil.
    static func error(_ body: () async throws -> Void) async -> AppStoreServerAPIError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? AppStoreServerAPIError
        }
    }

    @Test func a429WaitsForRetryAfterThenRetries() async throws {
        let fixture = try ServerAPIFixture()
        let acceptedAt = fixture.clock.now().addingTimeInterval(2.5).ledgerMilliseconds
        let transport = RecordingTransport(responses: [
            ServerAPIFixture.appleError(429, 4_290_000, "Rate limit exceeded.", headers: ["Retry-After": String(acceptedAt)]),
            HTTPResponse(statusCode: 200),
        ])
        try await fixture.client(transport).finishTransaction(transactionID: "7")
        #expect(transport.requests.count == 2)
        #expect(fixture.recordedSleeps == [2_500])
    }

    @Test func a429BeyondTheRetryCapIsRateLimitedAtOnceWithItsDate() async throws {
        let fixture = try ServerAPIFixture()
        let acceptedAt = fixture.clock.now().addingTimeInterval(3_600)
        let transport = RecordingTransport(responses: [
            ServerAPIFixture.appleError(
                429, 4_290_000, "Rate limit exceeded.", headers: ["Retry-After": String(acceptedAt.ledgerMilliseconds)])
        ])
        let error = await Self.error { try await fixture.client(transport).finishTransaction(transactionID: "7") }
        guard case .rateLimited(let retryAfter, _) = error else {
            Issue.record("expected rateLimited, got \(String(describing: error))")
            return
        }
        #expect(retryAfter?.ledgerMilliseconds == acceptedAt.ledgerMilliseconds)
        #expect(error?.isRetryable == true && transport.requests.count == 1 && fixture.recordedSleeps.isEmpty)
    }

    @Test(arguments: [401, 403])
    func unauthorizedIsPermanentAndNeverRetried(status: Int) async throws {
        let fixture = try ServerAPIFixture()
        let transport = RecordingTransport(responses: [HTTPResponse(statusCode: status, body: Data("Unauthenticated".utf8))])
        let client = try fixture.client(transport)
        let error = await Self.error { _ = try await client.transactionInfo(transactionID: "7") }
        guard case .unauthorized(let statusCode, _) = error else {
            Issue.record("expected unauthorized, got \(String(describing: error))")
            return
        }
        #expect(statusCode == status && error?.isRetryable == false && transport.requests.count == 1)
        // The refused token is not sent again: the next request signs a new one.
        _ = await Self.error { _ = try await client.transactionInfo(transactionID: "7") }
        #expect(transport.requests.count == 2)
        #expect(transport.requests[0].bearerToken != nil && transport.requests[1].bearerToken != transport.requests[0].bearerToken)
    }

    @Test func serverErrorsAndTimeoutsAreRetriedUpToTheBoundThenSurfaced() async throws {
        let fixture = try ServerAPIFixture()
        let policy = HTTPRetryPolicy(retryCountMax: 3, backoffBaseMilliseconds: 100, backoffCapMilliseconds: 400)
        let failing = RecordingTransport(responses: [ServerAPIFixture.appleError(500, 5_000_001, "An unknown error occurred.")])
        let error = await Self.error { try await fixture.client(failing, retryPolicy: policy).finishTransaction(transactionID: "7") }
        guard case .unavailable(let detail) = error else {
            Issue.record("expected unavailable, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("5000001") && error?.isRetryable == true)
        #expect(failing.requests.count == policy.retryCountMax + 1)
        #expect(fixture.recordedSleeps.count == policy.retryCountMax)
        #expect(fixture.recordedSleeps.allSatisfy { $0 >= 50 && $0 <= 400 })

        let timeouts = RecordingTransport { _ in .failure(HTTPTransportError(.timedOut, "timed out")) }
        let timedOut = await Self.error { try await fixture.client(timeouts, retryPolicy: policy).finishTransaction(transactionID: "7") }
        guard case .unavailable = timedOut else {
            Issue.record("expected unavailable, got \(String(describing: timedOut))")
            return
        }
        #expect(timeouts.requests.count == policy.retryCountMax + 1)

        let refused = RecordingTransport { _ in .failure(HTTPTransportError(.other, "TLS refused")) }
        let permanent = await Self.error { try await fixture.client(refused, retryPolicy: policy).finishTransaction(transactionID: "7") }
        guard case .transport = permanent else {
            Issue.record("expected transport, got \(String(describing: permanent))")
            return
        }
        #expect(refused.requests.count == 1)
    }

    @Test func applesErrorCodesAreDecodedAndUnknownOnesKeepTheirNumber() async throws {
        let fixture = try ServerAPIFixture()
        let transport = RecordingTransport(responses: [
            ServerAPIFixture.appleError(400, 4_000_006, "Invalid transaction id."),
            ServerAPIFixture.appleError(400, 4_999_999, "Something new."),
            HTTPResponse(statusCode: 400, body: Data("<html>bad</html>".utf8)),
        ])
        let client = try fixture.client(transport)
        var responses: [AppStoreAPIErrorResponse] = []
        for _ in 0..<3 {
            let error = await Self.error { try await client.finishTransaction(transactionID: "x") }
            guard case .rejected(let response) = error else {
                Issue.record("expected rejected, got \(String(describing: error))")
                return
            }
            responses.append(response)
        }
        #expect(responses[0].errorCode == .invalidTransactionID && responses[0].errorMessage == "Invalid transaction id.")
        #expect(responses[1].errorCode?.rawValue == 4_999_999 && responses[1].errorCode?.isRetryable == false)
        #expect(responses[2].errorCode == nil && responses[2].errorMessage == "<html>bad</html>")
        #expect(responses.allSatisfy { $0.httpStatusCode == 400 })
        #expect(AppStoreAPIErrorCode.accountNotFoundRetryable.isRetryable)
    }

    @Test func aTransactionSignedByAnUntrustedChainIsRejected() async throws {
        let fixture = try ServerAPIFixture()
        let purchase = try fixture.simulator.purchase(productID: "com.kibblestreet.td.gems.small")
        let forger = AppStoreJWSSigner(certificateAuthority: fixture.simulator.untrustedCertificateAuthority)
        let forged = try forger.sign(purchase.payload)
        let segments = purchase.jws.split(separator: ".")
        let badSignature = segments[0] + "." + segments[1] + "." + String(repeating: "A", count: 86)
        for jws in [forged, badSignature] {
            let transport = RecordingTransport(responses: [
                ServerAPIFixture.json(["signedTransactionInfo": jws]),
                ServerAPIFixture.json(["signedTransactions": [purchase.jws, jws], "revision": "r", "hasMore": false]),
            ])
            let client = try fixture.client(transport)
            let single = await Self.error { _ = try await client.transactionInfo(transactionID: purchase.transactionID) }
            let history = await Self.error { _ = try await client.transactionHistoryPage(transactionID: purchase.transactionID) }
            for error in [single, history] {
                guard case .verification = error else {
                    Issue.record("expected verification, got \(String(describing: error))")
                    continue
                }
            }
        }
    }

    @Test func eachEndpointKeepsToItsRateLimit() async throws {
        let fixture = try ServerAPIFixture()
        let transport = RecordingTransport(responses: [ServerAPIFixture.json(["signedTransactions": [], "hasMore": false])])
        let client = try fixture.client(transport)
        for _ in 0..<3 { _ = try await client.refundHistoryPage(transactionID: "7") }
        // Sandbox refund history: 10 % of production's 10 a second, at least 1.
        #expect(AppStoreAPIEndpoint.getRefundHistory.requestsPerSecond(in: .sandbox) == 1)
        #expect(fixture.recordedSleeps == [1_000, 1_000])
        // Another endpoint has its own budget.
        try await client.finishTransaction(transactionID: "7")
        #expect(fixture.recordedSleeps == [1_000, 1_000])
        #expect(AppStoreAPIEndpoint.finishTransaction.requestsPerSecond(in: .production) == 50)
    }

    @Test func everyErrorKindHasItsStableCode() {
        let verification = AppStoreVerificationError(.verificationFailure, "x")
        let errors: [AppStoreServerAPIError] = [
            .keyFile(.missing, ""), .configuration(""), .unauthorized(statusCode: 401, detail: ""),
            .rejected(AppStoreAPIErrorResponse(httpStatusCode: 400, errorCode: nil, errorMessage: nil)),
            .rateLimited(retryAfter: nil, detail: ""), .unavailable(""), .transport(""), .invalidResponse(""),
            .verification(verification),
        ]
        #expect(errors.map(\.code) == Array(7201...7209))
    }
}
