import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import Testing

/// Outside millisecond times and quantities are range-checked and refused with typed errors.
@Suite struct PlayPayloadBoundaryTests {
    @Test func checkedMillisecondsCoverTheDocumentedRangeExactly() {
        let range = Date.ledgerMillisecondsRange
        for milliseconds in [range.lowerBound, 1, 1_767_571_200_123, range.upperBound - 1, range.upperBound] {
            #expect(Date.checkedLedgerMilliseconds(milliseconds)?.ledgerMilliseconds == milliseconds)
        }
        #expect(Date.checkedLedgerMilliseconds(range.upperBound)?.ledgerISO8601 == "2199-12-31T23:59:59.999Z")
        for milliseconds in [-1, range.upperBound + 1, Int64.max, Int64.min] {
            #expect(Date.checkedLedgerMilliseconds(milliseconds) == nil)
        }
    }

    @Test func aPushWithAnEventTimeOutOfRangeIsATypedRefusalAndRecordsNothing() async throws {
        let setup = try PlayLedgerSetup()
        let token = try await setup.buyAndFulfill("gems_small", for: "p1")
        setup.play.void(token: token)
        let upper = String(Date.ledgerMillisecondsRange.upperBound)
        let refused: [(String, PlayPayloadError)] = [
            ("9223372036854775807", .millisecondsOutOfRange(field: "eventTimeMillis", value: "9223372036854775807")),
            (String(Date.ledgerMillisecondsRange.upperBound + 1), .millisecondsOutOfRange(field: "eventTimeMillis", value: "7258118400000")),
            ("-1", .millisecondsOutOfRange(field: "eventTimeMillis", value: "-1")),
            ("1.5e12", .malformedMilliseconds(field: "eventTimeMillis", value: "1.5e12")),
        ]
        for (eventTime, error) in refused {
            var notification = DeveloperNotification()
            notification.eventTimeMillis = eventTime
            notification.voidedPurchaseNotification = .init(
                purchaseToken: token, orderId: nil, productType: 2, refundType: 1)
            let outcome = try await setup.push(setup.play.envelope(notification, messageID: "m-t"))
            guard case .rejected(let rejection) = outcome else {
                Issue.record("\(eventTime) must be refused, got \(outcome)")
                continue
            }
            #expect(rejection.reason == .invalidPayload && rejection.payloadError == error)
            #expect(error.code == (eventTime == "1.5e12" ? 8202 : 8203))
        }
        await #expect(try setup.gems("p1") == 100)
        await #expect(try !setup.isRecorded("m-t"))
        // The same number as JSON (not a string) is refused the same way.
        let data = Data(
            #"{"version":"1.0","packageName":"\#(PlayLedgerSetup.packageName)","eventTimeMillis":9223372036854775807,"testNotification":{"version":"1.0"}}"#
                .utf8)
        let body = #"{"message":{"data":"\#(data.base64EncodedString())","messageId":"m-n"}}"#
        #expect(try await setup.push(Data(body.utf8)).rejectionReason == .invalidPayload)
        var last = DeveloperNotification()
        last.eventTimeMillis = upper
        last.testNotification = .init()
        guard case .logged = try await setup.push(setup.play.envelope(last, messageID: "m-t")) else {
            Issue.record("the last millisecond of the range is accepted, and m-t was never recorded")
            return
        }
    }

    @Test func tokensAsLongAsGooglesAreAcceptedAndLongerOnesRefused() async throws {
        let setup = try PlayLedgerSetup()
        var notification = DeveloperNotification()
        notification.oneTimeProductNotification = .init(
            notificationType: 1, purchaseToken: String(repeating: "t", count: 1_950), sku: "gems_small")
        guard case .unresolved(let record) = try await setup.push(setup.play.envelope(notification)) else {
            Issue.record("a 1,950-character token passes the adapter's limits (Google does not know this one)")
            return
        }
        #expect(record.outcome.contains("could not be read"))
        notification.oneTimeProductNotification?.purchaseToken = String(
            repeating: "t", count: PlayPayloadLimits.purchaseTokenByteCountMax + 1)
        let outcome = try await setup.push(setup.play.envelope(notification))
        guard case .rejected(let rejection) = outcome else {
            Issue.record("a token over the limit is refused, got \(outcome)")
            return
        }
        #expect(rejection.payloadError?.code == 8205)
    }

    @Test func voidedRecordsOutOfRangeAreSkippedAndNeverReadAsFullRefunds() async throws {
        let setup = try PlayLedgerSetup()
        let token = try await setup.buyAndFulfill("gems_small", for: "p1", quantity: 3)
        func record(_ millis: String?, quantity: Int? = nil, token value: String? = token) -> VoidedPurchase {
            var record = VoidedPurchase()
            record.purchaseToken = value
            record.voidedTimeMillis = millis
            record.voidedQuantity = quantity
            return record
        }
        let now = String(setup.clock.now().ledgerMilliseconds)
        let bad = [
            record("9223372036854775807"), record("-5"), record("soon"), record(nil), record(now, token: nil),
            record(now, quantity: 0), record(now, quantity: -1), record(now, quantity: Int.max),
            record(now, token: String(repeating: "x", count: PlayPayloadLimits.purchaseTokenByteCountMax + 1)),
        ]
        var sync = VoidedPurchasesSync(
            api: AlteredPlayAPI(play: setup.play, voided: bad), packageName: PlayLedgerSetup.packageName, ledger: setup.ledger)
        sync.pageSize = 100
        let report = try await sync.run()
        #expect(report.skipped == bad.count && report.recorded == 0 && report.watermarkSaved == nil)
        #expect(report.invalid.map(\.code) == [8203, 8203, 8202, 8201, 8201, 8204, 8204, 8204, 8205])
        await #expect(try setup.gems("p1") == 300)
    }

    @Test func anOutOfRangePurchaseTimeIsUnverifiedAndABrokenRefundableQuantityIsReported() async throws {
        let setup = try PlayLedgerSetup()
        let token = setup.play.purchase(productID: "gems_small", accountID: "p1")
        let altered = AlteredPlayAPI(play: setup.play, alterPurchase: { $0.purchaseTimeMillis = "9223372036854775807" })
        for read in PlayPurchaseVerifier.OneTimeProductRead.allCases {
            var verifier = PlayPurchaseVerifier(api: altered, packageName: PlayLedgerSetup.packageName, environment: .sandbox)
            verifier.oneTimeProductRead = read
            let submission = PlayPurchaseVerifier.submission(token: token, storeProductID: "gems_small", playerID: "p1")
            let result = try await verifier.verify(submission)
            guard case .invalid(let reason) = result else {
                Issue.record("an out-of-range purchase time never verifies, got \(result)")
                return
            }
            #expect(reason.contains(read == .productsV1 ? "purchaseTimeMillis" : "purchaseCompletionTime"), "\(reason)")
        }

        let bought = try await setup.buyAndFulfill("gems_small", for: "p2", quantity: 3)
        setup.play.void(token: bought, quantity: 1)
        setup.play.setRefundableQuantity(bought, to: Int.min)
        let report = try await setup.sync().run()
        guard case .unavailable(let detail) = report.refundChecks[bought] else {
            Issue.record("a refundableQuantity out of range makes the check unavailable")
            return
        }
        #expect(detail.contains("refundableQuantity"))
        await #expect(try setup.gems("p2") == 200)
    }

    @Test func aSyncCursorOutOfRangeIsIgnored() async throws {
        let setup = try PlayLedgerSetup()
        try await setup.ledger.store.write { writer throws(LedgerError) in
            try writer.setSyncCursor(name: VoidedPurchasesSync.cursorName, value: String(Int64.max))
        }
        let report = try await setup.sync().run()
        #expect(report.startTime == setup.clock.now().addingTimeInterval(-VoidedPurchasesSync.defaultLookbackMaxSeconds))
    }
}
