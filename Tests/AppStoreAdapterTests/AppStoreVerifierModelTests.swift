import AppStoreAdapter
import Foundation
import Testing

/// Decoding of the App Store payload models, and verifier construction; needs no vectors.
@Suite struct AppStoreVerifierModelTests {
    /// Decodes `json` as `Payload`.
    private func decode<Payload: Decodable>(_ json: String, as type: Payload.Type = Payload.self) throws -> Payload {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    @Test func fractionalMillisecondDatesAreTruncated() throws {
        let transaction = try decode(
            #"{"purchaseDate":1697679936049.7297,"signedDate":1697679936056.485,"expiresDate":1700358336049}"#,
            as: JWSTransactionDecodedPayload.self)
        #expect(transaction.purchaseDate?.milliseconds == 1_697_679_936_049)
        #expect(transaction.signedDate == 1_697_679_936_056)
        #expect(transaction.expiresDate == 1_700_358_336_049)
        #expect(transaction.purchaseDate?.date == Date(timeIntervalSince1970: 1_697_679_936.049))
        let encoded = String(decoding: try JSONEncoder().encode(transaction.purchaseDate), as: UTF8.self)
        #expect(encoded == "1697679936049")
    }

    @Test func timestampsTruncateTowardZeroAndRefuseNonsense() throws {
        #expect(try decode("-1.9", as: AppStoreTimestamp.self) == -1)
        #expect(try decode("9007199254740993", as: AppStoreTimestamp.self).milliseconds == 9_007_199_254_740_993)
        #expect(throws: (any Error).self) { try decode("1e300", as: AppStoreTimestamp.self) }
        #expect(throws: (any Error).self) { try decode(#""1697679936049""#, as: AppStoreTimestamp.self) }
    }

    @Test func unknownEnumerationValuesSurviveARoundTrip() throws {
        let json = #"""
            {"type":"Subscription Bundle","inAppOwnershipType":"LOANED","transactionReason":"GIFT",
             "offerType":9,"revocationReason":7,"offerDiscountType":"BUY_ONE_GET_ONE","environment":"Staging"}
            """#
        let transaction = try decode(json, as: JWSTransactionDecodedPayload.self)
        #expect(transaction.type?.rawValue == "Subscription Bundle")
        #expect(transaction.inAppOwnershipType?.rawValue == "LOANED")
        #expect(transaction.transactionReason?.rawValue == "GIFT")
        #expect(transaction.offerType == OfferType(rawValue: 9))
        #expect(transaction.revocationReason?.rawValue == 7)
        #expect(transaction.offerDiscountType?.rawValue == "BUY_ONE_GET_ONE")
        #expect(transaction.environment?.rawValue == "Staging")
        let again = try JSONDecoder().decode(
            JWSTransactionDecodedPayload.self, from: try JSONEncoder().encode(transaction))
        #expect(again == transaction)
    }

    @Test func unknownRenewalAndNotificationValuesSurvive() throws {
        let renewal = try decode(
            #"{"expirationIntent":42,"autoRenewStatus":2,"priceIncreaseStatus":5,"eligibleWinBackOfferIds":["a"]}"#,
            as: JWSRenewalInfoDecodedPayload.self)
        #expect(renewal.expirationIntent?.rawValue == 42 && renewal.autoRenewStatus?.rawValue == 2)
        #expect(renewal.priceIncreaseStatus?.rawValue == 5 && renewal.eligibleWinBackOfferIds == ["a"])
        let notification = try decode(
            #"{"notificationType":"TIME_TRAVEL","subtype":"BACKWARDS","#
                + #""data":{"status":9,"consumptionRequestReason":"BORED"}}"#,
            as: ResponseBodyV2DecodedPayload.self)
        #expect(notification.notificationType?.rawValue == "TIME_TRAVEL")
        #expect(notification.subtype?.rawValue == "BACKWARDS")
        #expect(notification.data?.status?.rawValue == 9)
        #expect(notification.data?.consumptionRequestReason?.rawValue == "BORED")
    }

    @Test func unknownFieldsAreIgnored() throws {
        let transaction = try decode(
            #"{"transactionId":"7","price":1990,"currency":"EUR","#
                + #""futureField":{"nested":[1,2,{"x":null}]},"another":true}"#,
            as: JWSTransactionDecodedPayload.self)
        #expect(transaction.transactionId == "7" && transaction.price == 1990 && transaction.currency == "EUR")
    }

    @Test func knownNotificationFieldsDecode() throws {
        let json = #"""
            {"notificationType":"REFUND","subtype":null,"notificationUUID":"u","version":"2.0","signedDate":5,
             "data":{"environment":"Sandbox","appAppleId":1234,"bundleId":"b","bundleVersion":"1",
                     "signedTransactionInfo":"x.y.z","status":1},
             "summary":{"requestIdentifier":"r","storefrontCountryCodes":["USA"],"succeededCount":3,"failedCount":0},
             "externalPurchaseToken":{"externalPurchaseId":"SANDBOX_1","tokenCreationDate":7,"appAppleId":1}}
            """#
        let notification = try decode(json, as: ResponseBodyV2DecodedPayload.self)
        #expect(notification.notificationType == .refund && notification.subtype == nil)
        #expect(notification.data?.status == .active && notification.data?.signedTransactionInfo == "x.y.z")
        #expect(notification.summary?.succeededCount == 3)
        #expect(notification.externalPurchaseToken?.environment == .sandbox)
        // The nested payloads come only from verification, never from the JSON.
        #expect(notification.transaction == nil)
    }

    @Test func productionRequiresAnAppAppleID() {
        do {
            _ = try SignedDataVerifier(
                AppStoreVerifierConfiguration(rootCertificates: [], bundleID: "com.example", environment: .production))
            Issue.record("production without appAppleID was accepted")
        } catch {
            #expect(error.status == .invalidAppIdentifier)
        }
    }

    @Test func unparsableRootFailsConstruction() {
        do {
            _ = try SignedDataVerifier(
                AppStoreVerifierConfiguration(
                    rootCertificates: [Array("abc".utf8)], bundleID: "com.example", environment: .sandbox))
            Issue.record("a garbage root was accepted")
        } catch {
            #expect(error.status == .invalidCertificate)
        }
    }

    @Test func malformedInputIsRefusedWithoutCrashing() throws {
        let verifier = try SignedDataVerifier(
            AppStoreVerifierConfiguration(rootCertificates: [], bundleID: "com.example", environment: .xcode))
        let header = Data(#"{"alg":"ES256"}"#.utf8).base64EncodedString()
        let malformed = [
            "", ".", "..", "a..", "%%.%%.%%", "e30.e30",
            "\(header).bnVsbA.", "\(header).W10.", "\(header).e3=.", "\(header).e30.A",
        ]
        for text in malformed {
            #expect(failureStatus(verifier.verifyTransaction(text)) == .verificationFailure, "\(text)")
        }
        // `{}` is a well-formed payload: it reaches the identifier checks, which refuse it.
        #expect(failureStatus(verifier.verifyTransaction("\(header).e30.")) == .invalidAppIdentifier)
        let oversized = String(repeating: "a", count: 200_000) + ".e30.AA"
        #expect(failureStatus(verifier.verifyTransaction(oversized)) == .verificationFailure)
    }
}
