import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerEngineTesting
import PlayStoreAdapter
import PlayStoreSimulator
import Testing

/// `PlayReconciler`: a player's Play records against the Orders API, with exact refund amounts,
/// and `apply` catching the ledger up through the voided purchases sync.
@Suite struct PlayReconcilerTests {
    static func reconciler(_ setup: PlayLedgerSetup) -> PlayReconciler {
        PlayReconciler(api: setup.play, packageName: PlayLedgerSetup.packageName, ledger: setup.ledger)
    }

    @Test(arguments: LedgerTestEngine.allCases)
    func aRefundTheLedgerMissedIsFoundWithItsAmountAndApplyCatchesUp(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        setup.play.setUnitPrice("gems_small", nanos: 1_990_000_000)
        let whole = try await setup.buyAndFulfill("gems_small", for: "p1", quantity: 2)
        let partial = try await setup.buyAndFulfill("gems_small", for: "p1", quantity: 3)
        _ = try await setup.buyAndFulfill("gems_small", for: "p1")
        #expect(try await Self.reconciler(setup).reconcile(playerID: "p1").isClean)

        setup.play.void(token: whole)
        setup.play.void(token: partial, quantity: 1)
        let found = try await Self.reconciler(setup).reconcile(playerID: "p1")
        #expect(!found.isClean && found.ordersRead == 3 && found.withoutOrderID == 0)
        #expect(Set(found.unappliedRefunds.map(\.ledgerKey)) == [setup.key(whole), setup.key(partial)])
        let full = try #require(found.unappliedRefunds.first { $0.ledgerKey == setup.key(whole) })
        #expect(full.orderState == "REFUNDED" && full.refunded?.description == "3.98 USD" && full.total?.description == "3.98 USD")
        let part = try #require(found.unappliedRefunds.first { $0.ledgerKey == setup.key(partial) })
        #expect(part.orderState == "PARTIALLY_REFUNDED" && part.refunded?.description == "1.99 USD" && part.quantity == 3)
        #expect(found.refundedTotals["USD"]?.description == "5.97 USD")
        await #expect(try setup.gems("p1") == 600, "reconciling without apply changes nothing")

        let applied = try await Self.reconciler(setup).reconcile(playerID: "p1", apply: true)
        #expect(applied.didApply && applied.voidsRecorded == 2 && applied.isClean, "\(applied)")
        #expect(applied.refundedTotals["USD"]?.description == "5.97 USD")
        await #expect(try setup.gems("p1") == 600 - 200 - 100)
    }

    @Test func ledgerOnlyTakeBacksCancelledOrdersUnknownOrdersAndPeriodsAreEachReported() async throws {
        let setup = try PlayLedgerSetup()
        let revoked = try await setup.buyAndFulfill("gems_small", for: "p1")
        let canceled = try await setup.buyAndFulfill("gems_small", for: "p1")
        let forgotten = try await setup.buyAndFulfill("gems_small", for: "p1")
        let subscription = setup.play.subscribe(productID: "vip_monthly", accountID: "p1")
        #expect(try await setup.fulfill(subscription, "vip_monthly", as: "p1").name == "granted")
        let period = try #require(setup.play.storedSubscription(subscription)?.lineItems?.first?.latestSuccessfulOrderId)

        _ = try await setup.ledger.applyRevocation(
            RevocationEvent(
                eventID: "operator-1", store: .playStore, transactionID: revoked, kind: .fullRefund,
                eventDate: setup.clock.now(), reason: "support"))
        setup.play.setState(canceled, to: 1)
        let forgottenOrder = try #require(setup.play.storedPurchase(forgotten)?.orderId)
        setup.play.setOrderID(forgotten, to: "GPA.other")
        setup.play.voidSubscriptionPeriod(subscription)

        let report = try await Self.reconciler(setup).reconcile(playerID: "p1")
        #expect(report.refundedOnlyInLedger.map(\.ledgerKey) == [setup.key(revoked)])
        #expect(report.canceledButGranted.map(\.ledgerKey) == [setup.key(canceled)])
        #expect(report.unknownToStore == [forgottenOrder])
        #expect(report.unappliedRefunds.map(\.orderID) == [period] && report.unappliedRefunds.first?.orderState == "REFUNDED")
        #expect(report.ordersRead == 3, "one unknown order fails Google's batch; the other three are read one by one")
    }

    @Test func anOutageThrowsAndChangesNothing() async throws {
        let setup = try PlayLedgerSetup()
        let token = try await setup.buyAndFulfill("gems_small", for: "p1")
        setup.play.void(token: token)
        setup.play.fail(.orderGet, with: .retryable("HTTP 503"))
        await #expect(throws: LedgerError.self) { try await Self.reconciler(setup).reconcile(playerID: "p1", apply: true) }
        await #expect(try setup.gems("p1") == 100)
        #expect(try await Self.reconciler(setup).reconcile(playerID: "p2").isClean, "a player with no records is clean")
    }

    @Test func moneyFollowsGooglesRules() throws {
        #expect(PlayMoney(currencyCode: "USD", units: "-1", nanos: -750_000_000).description == "-1.75 USD")
        #expect(try PlayMoney(currencyCode: "EUR", units: nil, nanos: 5).checked(field: "f").totalNanos == 5)
        #expect(PlayMoney(currencyCode: "JPY", totalNanos: 120 * PlayMoney.nanosPerUnit).description == "120 JPY")
        let refused = [
            PlayMoney(currencyCode: "USD", units: "1", nanos: -1), PlayMoney(currencyCode: "USD", units: "1.5", nanos: nil),
            PlayMoney(currencyCode: "USD", units: "0", nanos: 1_000_000_000), PlayMoney(currencyCode: "usd", units: "1", nanos: 0),
            PlayMoney(currencyCode: nil, units: "1", nanos: 0), PlayMoney(currencyCode: "USD", units: "9223372036854775807", nanos: 0),
            PlayMoney(currencyCode: "USD", units: String(repeating: "9", count: 400), nanos: 0),
        ]
        for money in refused {
            #expect(throws: PlayPayloadError.self) { try money.checked(field: "total") }
        }
        var order = PlayOrder()
        var history = PlayOrder.OrderHistory()
        history.partialRefundEvents = [
            .init(processTime: nil, refundDetails: .init(total: PlayMoney(currencyCode: "USD", units: "1", nanos: 0)), state: "PROCESSED_SUCCESSFULLY"),
            .init(processTime: nil, refundDetails: .init(total: PlayMoney(currencyCode: "EUR", units: "1", nanos: 0)), state: "PROCESSED_SUCCESSFULLY"),
        ]
        order.orderHistory = history
        #expect(throws: PlayPayloadError.self) { try order.refundedAmount() }
        history.partialRefundEvents?[1].state = "PENDING"
        order.orderHistory = history
        #expect(try order.refundedAmount()?.description == "1 USD", "a pending partial refund is not counted")
    }

    @Test func theClientReadsOneOrderAndBatchesOfDistinctIDs() async throws {
        let orderJSON = """
            {"orderId":"GPA.1","purchaseToken":"tok","state":"PARTIALLY_REFUNDED","createTime":"2026-11-02T10:00:00Z",
             "total":{"currencyCode":"USD","units":"4","nanos":990000000},"salesChannel":"IN_APP",
             "lineItems":[{"productId":"gems_small","total":{"currencyCode":"USD","units":"4","nanos":990000000},
               "oneTimePurchaseDetails":{"purchaseOptionId":"buy","quantity":5}}],
             "orderHistory":{"partialRefundEvents":[{"state":"PROCESSED_SUCCESSFULLY",
               "refundDetails":{"total":{"currencyCode":"USD","units":"1","nanos":980000000}}}]},
             "fieldGoogleAddsLater":1}
            """
        let fixture = try PlayClientFixture { request, _ in
            request.target.contains("batchGet") ? .json(200, #"{"orders":[\#(orderJSON)]}"#) : .json(200, orderJSON)
        }
        let order = try await fixture.client.order(packageName: "com.game", orderID: "GPA.1/x")
        #expect(order.knownState == .partiallyRefunded && order.lineItems?.first?.oneTimePurchaseDetails?.quantity == 5)
        #expect(try order.refundedAmount()?.description == "1.98 USD")
        let batch = try await fixture.client.orders(packageName: "com.game", orderIDs: ["GPA.1", "GPA.2"])
        #expect(batch.count == 1)
        let requests = fixture.server.apiRequests
        #expect(requests[0].target == "/androidpublisher/v3/applications/com.game/orders/GPA.1%2Fx")
        #expect(requests[1].target == "/androidpublisher/v3/applications/com.game/orders:batchGet?orderIds=GPA.1&orderIds=GPA.2")
        for refused in [[], ["GPA.1", "GPA.1"], Array(repeating: "x", count: 1).map { _ in "" },
            (0...PlayOrderLimits.batchCountMax).map { "GPA.\($0)" }]
        {
            await #expect(throws: PlayAPIError.self) { try await fixture.client.orders(packageName: "com.game", orderIDs: refused) }
        }
        #expect(fixture.server.apiRequests.count == 2, "a batch Google would refuse is never sent")
    }
}
