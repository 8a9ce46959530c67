import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// Every date, quantity and percentage a signed App Store payload carries is range-checked:
/// a value out of range is a refused JWS (`payloadError`), never a trap and never a grant.
@Suite struct AppStorePayloadBoundaryTests {
    typealias Setup = AppStoreLedgerTests.Setup

    /// Raw JSON for a date field and what the verifier makes of it: the milliseconds accepted,
    /// the payload error's code, or nil for a value that does not decode at all (7001 alone).
    struct DateCase: Sendable, CustomTestStringConvertible {
        let raw: String
        let accepted: Int64?
        let payloadCode: Int?
        var testDescription: String { raw }
    }

    static let end = Date.ledgerMillisecondsRange.upperBound

    static let dateCases: [DateCase] = [
        DateCase(raw: "0", accepted: 0, payloadCode: nil),
        DateCase(raw: String(end), accepted: end, payloadCode: nil),
        DateCase(raw: "\(end).9", accepted: end, payloadCode: nil),
        DateCase(raw: "1697679936049.7297", accepted: 1_697_679_936_049, payloadCode: nil),
        DateCase(raw: String(end + 1), accepted: nil, payloadCode: 7101),
        DateCase(raw: "\(end + 1).5", accepted: nil, payloadCode: 7101),
        DateCase(raw: "9223372036854775807", accepted: nil, payloadCode: 7101),
        DateCase(raw: "-1", accepted: nil, payloadCode: 7101),
        DateCase(raw: "-62135769600000", accepted: nil, payloadCode: 7101),
        DateCase(raw: "9223372036854775808", accepted: nil, payloadCode: nil),
        DateCase(raw: "1e300", accepted: nil, payloadCode: nil),
        DateCase(raw: #""1697679936049""#, accepted: nil, payloadCode: nil),
    ]

    /// The transaction's date fields the ledger reads or keeps (`signedDate` has its own test:
    /// the chain is judged at it).
    static let dateFields = ["purchaseDate", "originalPurchaseDate", "expiresDate", "revocationDate"]

    @Test("a transaction date at the boundaries", arguments: dateFields, dateCases)
    func transactionDate(field: String, date: DateCase) throws {
        let setup = try Setup()
        let bought = try setup.buy("com.kibblestreet.td.gems.small", for: "p1")
        let jws = try setup.simulator.signer.sign(bought.payload, replacingFields: [field: date.raw])
        switch setup.verifier.verifyTransaction(jws) {
        case .success(let payload):
            let decoded: AppStoreTimestamp? =
                switch field {
                case "purchaseDate": payload.purchaseDate
                case "originalPurchaseDate": payload.originalPurchaseDate
                case "expiresDate": payload.expiresDate
                default: payload.revocationDate
                }
            #expect(date.accepted != nil, "accepted \(date.raw)")
            #expect(decoded?.milliseconds == date.accepted)
            #expect(decoded?.date == date.accepted.map(Date.init(ledgerMilliseconds:)))
        case .failure(let error):
            #expect(date.accepted == nil, "refused \(date.raw): \(error)")
            #expect(error.status == .verificationFailure)
            #expect(error.payloadError?.code == date.payloadCode, "\(error)")
            if date.payloadCode != nil { #expect(error.detail.contains(field)) }
        }
    }

    @Test("a signing date out of range is refused before the chain is judged at it",
        arguments: ["9223372036854775807", String(end + 1), "-1"])
    func signingDate(raw: String) throws {
        let setup = try Setup()
        let bought = try setup.buy("com.kibblestreet.td.gems.small", for: "p1")
        let jws = try setup.simulator.signer.sign(bought.payload, replacingFields: ["signedDate": raw])
        let error = try #require(Self.failure(setup.verifier.verifyTransaction(jws)))
        #expect(error.payloadError == .dateOutOfRange(field: "signedDate", milliseconds: Int64(raw) ?? 0))
        let notification = try setup.simulator.notificationPayload(type: .test, transactionID: bought.transactionID)
        let outer = try setup.simulator.signer.sign(notification, replacingFields: ["signedDate": raw])
        #expect(Self.failure(setup.verifier.verifyNotification(outer))?.payloadError?.code == 7101)
    }

    /// Raw JSON for `quantity` or `revocationPercentage`, and the payload error's code (0: accepted;
    /// nil: does not decode).
    static let quantityCases: [(String, Int?)] = [
        ("1", 0), ("10000", 0), ("0", 7102), ("-1", 7102), ("10001", 7102), ("9223372036854775807", 7102),
        ("9223372036854775808", nil), ("1.5", nil),
    ]
    static let percentageCases: [(String, Int?)] = [
        ("0", 0), ("33333", 0), ("100000", 0), ("100001", 7103), ("-1", 7103), ("2147483647", 7103),
        ("2147483648", nil), ("33333.5", nil),
    ]

    @Test("quantity at the boundaries", arguments: quantityCases)
    func quantity(raw: String, code: Int?) throws {
        try checkNumber(field: "quantity", raw: raw, code: code)
    }

    @Test("revocationPercentage at the boundaries", arguments: percentageCases)
    func percentage(raw: String, code: Int?) throws {
        try checkNumber(field: "revocationPercentage", raw: raw, code: code)
    }

    private func checkNumber(field: String, raw: String, code: Int?) throws {
        let setup = try Setup()
        let bought = try setup.buy("com.kibblestreet.td.gems.small", for: "p1")
        let jws = try setup.simulator.signer.sign(bought.payload, replacingFields: [field: raw])
        let result = setup.verifier.verifyTransaction(jws)
        if code == 0 {
            let payload = try result.get()
            #expect(field == "quantity" ? payload.quantity == Int(raw) : payload.revocationPercentage == Int32(raw))
            return
        }
        let error = try #require(Self.failure(result))
        #expect(error.status == .verificationFailure)
        #expect(error.payloadError?.code == code, "\(error)")
    }

    @Test func renewalInformationDatesAreChecked() throws {
        let setup = try Setup()
        let bought = try setup.buy("vip.monthly", for: "p1", type: .autoRenewableSubscription)
        let renewal = AppStoreSimulatedRenewalInfo(
            transaction: try #require(setup.simulator.transaction(bought.transactionID)), signedDate: setup.clock.now())
        let good = try setup.simulator.signer.sign(renewal)
        #expect(throws: Never.self) { try setup.verifier.verifyRenewalInfo(good).get() }
        let bad = try setup.simulator.signer.sign(renewal, replacingFields: ["renewalDate": "9223372036854775807"])
        #expect(Self.failure(setup.verifier.verifyRenewalInfo(bad))?.payloadError?.code == 7101)
    }

    @Test func anOutOfRangePurchaseNeverGrants() async throws {
        let setup = try Setup()
        let bought = try setup.buy("com.kibblestreet.td.gems.small", for: "p1")
        let jws = try setup.simulator.signer.sign(bought.payload, replacingFields: ["purchaseDate": "9223372036854775807"])
        let submission = try #require(AppStoreTransactionVerifier.submission(jws: jws, playerID: "p1"))
        let outcome = try await setup.ledger.fulfill(submission)
        #expect(outcome.rejection?.reason == .unverified)
        #expect(outcome.rejection?.message.contains("purchaseDate") == true)
        await #expect(try setup.ledger.player("p1").balances.isEmpty)
    }

    /// A refund whose nested transaction carries a date out of range is rejected, not recorded
    /// (a redelivery is judged again), and takes nothing.
    @Test func anOutOfRangeRefundIsRejectedAndRecordsNothing() async throws {
        let setup = try Setup()
        let processor = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: setup.ledger)
        let bought = try setup.buy("com.kibblestreet.td.gems.small", for: "p1")
        _ = try await setup.fulfill(bought, as: "p1")
        let revoked = try setup.simulator.revoke(transactionID: bought.transactionID)
        var notification = try setup.simulator.notificationPayload(type: .refund, transactionID: bought.transactionID)
        notification.data.signedTransactionInfo = try setup.simulator.signer.sign(
            revoked.payload, replacingFields: ["revocationDate": "9223372036854775807"])
        let signed = try setup.simulator.sign(notification)
        for _ in 1...2 {
            guard case .rejected(let error) = try await processor.process(signed) else {
                Issue.record("an out-of-range refund must be rejected")
                return
            }
            #expect(error.payloadError == .dateOutOfRange(field: "revocationDate", milliseconds: .max))
            #expect(error.detail.hasPrefix("signedTransactionInfo: "))
        }
        await #expect(try setup.ledger.player("p1").balances == ["gems": 100])
    }

    /// Identifiers the ledger would refuse by throwing are refused as payload errors instead.
    @Test(arguments: [
        ("transactionId", String(repeating: "7", count: 257), 7105),
        ("transactionId", "", 7104),
        ("originalTransactionId", String(repeating: "7", count: 257), 7105),
    ])
    func identifiersOutsideTheLedgerLimitAreRejected(field: String, value: String, code: Int) async throws {
        let setup = try Setup()
        let processor = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: setup.ledger)
        let bought = try setup.buy("com.kibblestreet.td.gems.small", for: "p1")
        var notification = try setup.simulator.notificationPayload(type: .refund, transactionID: bought.transactionID)
        var payload = bought.payload
        if field == "transactionId" { payload.transactionID = value } else { payload.originalTransactionID = value }
        notification.data.signedTransactionInfo = try setup.simulator.sign(payload)
        guard case .rejected(let error) = try await processor.process(try setup.simulator.sign(notification)) else {
            Issue.record("an identifier the ledger refuses must be a rejection")
            return
        }
        #expect(error.payloadError?.code == code, "\(error)")
    }

    @Test func timestampsKeepAnyValueAndBuildDatesOnlyInRange() throws {
        #expect(AppStoreTimestamp(milliseconds: 0).date == Date(timeIntervalSince1970: 0))
        #expect(AppStoreTimestamp(milliseconds: Self.end).date == Date(ledgerMilliseconds: Self.end))
        #expect(AppStoreTimestamp(milliseconds: Self.end + 1).date == nil)
        #expect(AppStoreTimestamp(milliseconds: .max).date == nil)
        #expect(AppStoreTimestamp(milliseconds: -1).date == nil)
        // Xcode's app transaction: 0001-01-01 decodes and round-trips; it is never made a date.
        let year1 = try JSONDecoder().decode(AppStoreTimestamp.self, from: Data("-62135769600000".utf8))
        #expect(year1.milliseconds == -62_135_769_600_000 && year1.date == nil)
        #expect(String(decoding: try JSONEncoder().encode(year1), as: UTF8.self) == "-62135769600000")
    }

    static func failure<Payload>(_ result: Result<Payload, AppStoreVerificationError>) -> AppStoreVerificationError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}
