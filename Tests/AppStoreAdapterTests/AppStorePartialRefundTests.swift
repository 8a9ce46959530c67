import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// App Store partial refunds: `revocationType` `REFUND_PRORATED` with `revocationPercentage`
/// takes back that share of the units, rounded half up, cumulatively; family revokes revoke.
@Suite struct AppStorePartialRefundTests {
    typealias Setup = AppStoreLedgerTests.Setup

    static let gems = "com.kibblestreet.td.gems.small"

    /// The setup with a processor and one purchase of `quantity` units of `storeProductID` for p1.
    struct Purchase {
        let setup: Setup
        let processor: AppStoreNotificationProcessor
        let transactionID: String

        init(_ storeProductID: String = AppStorePartialRefundTests.gems, quantity: Int, type: TransactionType = .consumable)
            async throws
        {
            setup = try Setup()
            processor = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: setup.ledger)
            let bought = try setup.simulator.purchase(
                productID: storeProductID, quantity: quantity, appAccountToken: AppAccountToken.forPlayer("p1"),
                type: type)
            transactionID = bought.transactionID
            #expect(try await setup.fulfill(bought, as: "p1").name == "granted")
        }

        /// A minute later, Apple revokes the transaction as given and sends `notification`.
        func notify(
            _ notification: NotificationTypeV2 = .refund, type: RevocationType? = nil, percentage: Int32? = nil
        ) async throws -> AppStoreNotificationOutcome {
            setup.clock.advance(seconds: 60)
            if notification == .refundReversed {
                _ = try setup.simulator.reverseRefund(transactionID: transactionID)
            } else {
                _ = try setup.simulator.revoke(transactionID: transactionID, type: type, percentage: percentage)
            }
            return try await processor.process(try setup.simulator.notification(type: notification, transactionID: transactionID))
        }

        /// The revocation record a notification produced.
        func record(
            _ notification: NotificationTypeV2 = .refund, type: RevocationType? = nil, percentage: Int32? = nil
        ) async throws -> RevocationRecord {
            let outcome = try await notify(notification, type: type, percentage: percentage)
            guard case .revocation(let revocation) = outcome, let record = revocation.record else {
                Issue.record("expected a recorded revocation, got \(outcome)")
                throw AppStoreSimulatorError("no revocation record")
            }
            return record
        }

        var gems: Int64? { get async throws { try await setup.ledger.player("p1").balances["gems"] } }

        var refundState: RefundState? {
            get async throws {
                let key = TransactionKey(store: .appStore, transactionID: transactionID)
                return try await setup.ledger.store.read { reader throws(LedgerError) in try reader.refundState(key) }
            }
        }
    }

    /// The issue: 300 gems bought as 3 units, then a REFUND with REFUND_PRORATED at 33333
    /// milliunits (1 of 3): 100 gems taken back, 200 left, not all 300.
    @Test func theIssuesProratedRefundTakesOneUnitOfThree() async throws {
        let purchase = try await Purchase(quantity: 3)
        await #expect(try purchase.gems == 300)
        let record = try await purchase.record(type: .refundProrated, percentage: 33_333)
        #expect(record.disposition == .applied)
        #expect(record.event.kind == .partialRefund && record.event.quantity == 1 && record.event.quantityIsCumulative)
        #expect(record.effect == [GrantLine(kind: .currency, id: "gems", quantity: -100)])
        #expect(record.event.reason == "revocationReason 0; REFUND_PRORATED 33333 milliunits")
        await #expect(try purchase.gems == 200)
        let state1 = try await purchase.refundState
        #expect(state1?.status == .partiallyRefunded && state1?.refundedQuantity == 1)
    }

    /// The simulated store writes what it was told into the payload it signs, and a reversal
    /// removes it, as Apple does.
    @Test func theSimulatorSignsTheRevocationTypeAndPercentage() throws {
        let setup = try Setup()
        let bought = try setup.simulator.purchase(productID: Self.gems, quantity: 3)
        let revoked = try setup.simulator.revoke(
            transactionID: bought.transactionID, reason: .refundedDueToIssue, type: .refundProrated, percentage: 33_333)
        let payload = try setup.verifier.verifyTransaction(revoked.jws).get()
        #expect(payload.revocationType == .refundProrated && payload.revocationPercentage == 33_333)
        #expect(payload.revocationReason == .refundedDueToIssue && payload.revocationDate != nil)
        let reversed = try setup.verifier.verifyTransaction(setup.simulator.reverseRefund(transactionID: bought.transactionID).jws).get()
        #expect(reversed.revocationType == nil && reversed.revocationPercentage == nil && reversed.revocationDate == nil)
    }

    /// Apple's percentage is the transaction's total so far: 66666 takes one more unit, 33333
    /// again takes nothing, a full refund takes the rest, and nothing takes more than was granted.
    @Test func laterRefundsNeverTakeMoreThanWasGranted() async throws {
        let purchase = try await Purchase(quantity: 3)
        #expect(try await purchase.record(type: .refundProrated, percentage: 33_333).effect.first?.quantity == -100)
        let second = try await purchase.record(type: .refundProrated, percentage: 66_666)
        #expect(second.event.quantity == 2 && second.effect.first?.quantity == -100)
        await #expect(try purchase.gems == 100)
        let again = try await purchase.record(type: .refundProrated, percentage: 33_333)
        #expect(again.disposition == .noChange && again.effect.isEmpty)
        await #expect(try purchase.gems == 100)
        let full = try await purchase.record(type: .refundFull)
        #expect(full.event.kind == .fullRefund && full.effect.first?.quantity == -100)
        await #expect(try purchase.gems == nil, "every gem granted is taken back, and no more")
        let state3 = try await purchase.refundState
        #expect(state3?.status == .refunded && state3?.refundedQuantity == 3)
        #expect(try await purchase.record(type: .refundProrated, percentage: 100_000).disposition == .noChange)
        await #expect(try purchase.gems == nil)
    }

    @Test func aReversalAfterAProratedRefundGivesBackWhatWasTaken() async throws {
        let purchase = try await Purchase(quantity: 3)
        _ = try await purchase.record(type: .refundProrated, percentage: 66_666)
        await #expect(try purchase.gems == 100)
        let reversal = try await purchase.record(.refundReversed)
        #expect(reversal.disposition == .applied && reversal.effect == [GrantLine(kind: .currency, id: "gems", quantity: 200)])
        await #expect(try purchase.gems == 300)
        let state0 = try await purchase.refundState
        #expect(state0?.status == .active && state0?.refundedQuantity == 0)
        // A later prorated refund counts from the reversal: 1 of 3 is one unit again.
        #expect(try await purchase.record(type: .refundProrated, percentage: 33_333).effect.first?.quantity == -100)
        await #expect(try purchase.gems == 200)
    }

    /// A quantity-1 purchase, and every non-consumable, gives up its one unit to any prorated
    /// refund above zero.
    @Test func aProratedRefundOfOneUnitTakesEverything() async throws {
        let single = try await Purchase(quantity: 1)
        #expect(try await single.record(type: .refundProrated, percentage: 1_000).effect.first?.quantity == -100)
        await #expect(try single.gems == nil)
        let ads = try await Purchase("com.kibblestreet.td.remove_ads", quantity: 1, type: .nonConsumable)
        await #expect(try !ads.setup.ledger.adsAllowed("p1", consent: true))
        let record = try await ads.record(type: .refundProrated, percentage: 50_000)
        #expect(record.event.kind == .partialRefund && record.event.quantity == 1)
        await #expect(try ads.setup.ledger.entitlements("p1").statuses["remove_ads"] == .notOwned)
    }

    /// A prorated refund of 0 % takes nothing; it is logged, once.
    @Test func aProratedRefundOfZeroIsLogged() async throws {
        let purchase = try await Purchase(quantity: 3)
        _ = try purchase.setup.simulator.revoke(transactionID: purchase.transactionID, type: .refundProrated, percentage: 0)
        let refund = try purchase.setup.simulator.notification(type: .refund, transactionID: purchase.transactionID)
        guard case .logged(let record) = try await purchase.processor.process(refund) else {
            Issue.record("a 0 % refund is logged")
            return
        }
        #expect(record.outcome == "prorated refund of 0 milliunits: nothing taken back")
        await #expect(try purchase.gems == 300)
        guard case .alreadyProcessed(let again) = try await purchase.processor.process(refund) else {
            Issue.record("logged once")
            return
        }
        #expect(again.outcome == record.outcome)
    }

    /// Without its percentage a prorated refund cannot be applied: rejected, not recorded, and
    /// judged again when Apple sends it again.
    @Test func aProratedRefundWithoutItsPercentageIsRejected() async throws {
        let purchase = try await Purchase(quantity: 3)
        purchase.setup.clock.advance(seconds: 60)
        _ = try purchase.setup.simulator.revoke(transactionID: purchase.transactionID, type: .refundProrated)
        let refund = try purchase.setup.simulator.notification(type: .refund, transactionID: purchase.transactionID)
        for _ in 1...2 {
            guard case .rejected(let error) = try await purchase.processor.process(refund) else {
                Issue.record("a prorated refund without revocationPercentage must be rejected")
                return
            }
            #expect(error.payloadError == .missingField("revocationPercentage"))
        }
        await #expect(try purchase.gems == 300)
    }

    @Test("REFUND_FULL, no revocationType and a type Apple adds later stay full refunds",
        arguments: [RevocationType.refundFull, nil, RevocationType(rawValue: "ASSIGNMENT_REVOKE")])
    func fullRefunds(type: RevocationType?) async throws {
        let purchase = try await Purchase(quantity: 3)
        let record = try await purchase.record(type: type, percentage: 33_333)
        #expect(record.event.kind == .fullRefund && record.event.quantity == nil)
        #expect(record.event.reason == "revocationReason 0")
        await #expect(try purchase.gems == nil)
    }

    /// FAMILY_REVOKE ends a family member's access: a revoke, in a REFUND or a REVOKE notification.
    @Test(arguments: [NotificationTypeV2.refund, .revoke])
    func familyRevokesRevoke(notification: NotificationTypeV2) async throws {
        let purchase = try await Purchase("com.kibblestreet.td.remove_ads", quantity: 1, type: .nonConsumable)
        let record = try await purchase.record(notification, type: .familyRevoke)
        #expect(record.event.kind == .revoke && record.disposition == .applied)
        await #expect(try purchase.refundState?.status == .revoked)
        await #expect(try purchase.setup.ledger.entitlements("p1").statuses["remove_ads"] == .notOwned)
    }

    /// Quantity, `revocationPercentage`, units refunded.
    static let rounding: [(Int, Int32, Int)] = [
        (3, 33_333, 1),  // 0.99999: 1 of 3
        (3, 66_666, 2),  // 1.99998: 2 of 3
        (3, 50_000, 2),  // 1.5, half up
        (3, 100_000, 3),
        (3, 15, 1),  // 0.00045: at least 1 above zero
        (3, 0, 0),
        (2, 25_000, 1),  // 0.5, half up
        (10, 14_999, 1),  // 1.4999
        (10, 15_000, 2),  // 1.5
        (10, 67_932, 7),  // 6.7932
        (1, 1, 1),
        (1, 99_999, 1),
        (10_000, 33_333, 3_333),
        (.max, 100_000, .max),  // no overflow
        (.max, 50_000, 4_611_686_018_427_387_904),
        (0, 50_000, 0),
        (-3, 50_000, 0),
        (3, -1, 0),
        (3, .max, 3),  // capped at 100 %
    ]

    @Test("units refunded: quantity × percentage, half up, at least 1 above zero, at most the quantity",
        arguments: rounding)
    func refundedUnits(quantity: Int, percentage: Int32, units: Int) {
        #expect(AppStoreRevocationMapping.refundedUnits(quantity: quantity, revocationPercentage: percentage) == units)
    }

    /// The rule against exact arithmetic for every quantity StoreKit sells and a spread of percentages.
    @Test func refundedUnitsMatchExactRounding() {
        for quantity in 1...10 {
            for percentage in stride(from: Int32(0), through: 100_000, by: 137) {
                // Decimal arithmetic is exact here, and .plain rounds half up for positive values.
                var exact = Decimal(quantity) * Decimal(Int(percentage)) / 100_000
                var rounded = Decimal()
                NSDecimalRound(&rounded, &exact, 0, .plain)
                let nearest = NSDecimalNumber(decimal: rounded).intValue
                let expected = percentage == 0 ? 0 : min(quantity, max(1, nearest))
                #expect(
                    AppStoreRevocationMapping.refundedUnits(quantity: quantity, revocationPercentage: percentage) == expected,
                    "\(quantity) × \(percentage)")
            }
        }
    }
}
