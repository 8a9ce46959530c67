import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// Apple's `type` must agree with the catalog's kind: a mismatch or a subscription is refused
/// before anything is granted, and changes nothing.
@Suite struct AppStoreProductTypeTests {
    typealias Setup = AppStoreLedgerTests.Setup

    static let gems = "com.kibblestreet.td.gems.small"
    static let removeAds = "com.kibblestreet.td.remove_ads"

    struct Case: Sendable, CustomTestStringConvertible {
        let storeProductID: String
        let type: TransactionType
        let reason: RejectionReason
        var testDescription: String { "\(type.rawValue) for \(storeProductID)" }
    }

    static let refused: [Case] = [
        Case(storeProductID: gems, type: .nonConsumable, reason: .productTypeMismatch),
        Case(storeProductID: removeAds, type: .consumable, reason: .productTypeMismatch),
        Case(storeProductID: gems, type: .nonRenewingSubscription, reason: .unsupportedProductType),
        Case(storeProductID: removeAds, type: .nonRenewingSubscription, reason: .unsupportedProductType),
        Case(storeProductID: removeAds, type: .autoRenewableSubscription, reason: .productTypeMismatch),
        Case(storeProductID: gems, type: TransactionType(rawValue: "Subscription Bundle"), reason: .unsupportedProductType),
    ]

    @Test("a type that disagrees with the catalog, or a subscription, is refused and changes nothing", arguments: refused)
    func refusedTypes(_ refused: Case) async throws {
        let setup = try Setup()
        let purchase = try setup.buy(refused.storeProductID, for: "p1", type: refused.type)
        let outcome = try await setup.fulfill(purchase, as: "p1")
        #expect(outcome.rejection?.reason == refused.reason, "\(outcome)")
        #expect(outcome.rejection?.message.contains(refused.type.storeProductType.rawValue) == true)
        let player = try await setup.ledger.player("p1")
        #expect(player.balances.isEmpty && player.entitlements.isEmpty && player.history.isEmpty)
    }

    @Test("the new codes are 110 and 111, after every existing one")
    func codes() {
        #expect(RejectionReason.productTypeMismatch.code == 110)
        #expect(RejectionReason.unsupportedProductType.code == 111)
        let codes = RejectionReason.allCases.map(\.code)
        #expect(Set(codes).count == codes.count, "codes are never reused")
    }

    @Test("the types that agree still grant, each with its own semantics")
    func agreeingTypesGrant() async throws {
        let setup = try Setup()
        #expect(try await setup.fulfill(setup.buy(Self.gems, for: "p1", type: .consumable), as: "p1").name == "granted")
        #expect(try await setup.fulfill(setup.buy(Self.removeAds, for: "p1", type: .nonConsumable), as: "p1").name == "granted")
        await #expect(try setup.ledger.player("p1").balances == ["gems": 100])
        await #expect(try !setup.ledger.adsAllowed("p1", consent: true))
    }

    /// Apple's mapping of its four names, and an unknown one kept raw.
    @Test func storeProductTypesFromApple() {
        #expect(TransactionType.consumable.storeProductType == .consumable)
        #expect(TransactionType.nonConsumable.storeProductType == .nonConsumable)
        #expect(TransactionType.autoRenewableSubscription.storeProductType == .autoRenewable)
        #expect(TransactionType.nonRenewingSubscription.storeProductType == .nonRenewing)
        #expect(TransactionType(rawValue: "Gift Card").storeProductType.rawValue == "Gift Card")
        #expect(StoreProductType.consumable.productKind == .consumable)
        #expect(StoreProductType.nonConsumable.productKind == .nonConsumable)
        #expect(StoreProductType.autoRenewable.productKind == .autoRenewable && StoreProductType.nonRenewing.productKind == nil)
    }

    /// The check runs before the ledger lookup: a purchase already granted, delivered again
    /// with a type that disagrees, is refused too (its key depends on the kind), and the
    /// delivery that agrees is still answered from the record.
    @Test func aReplayWithAMismatchedTypeIsRefusedAndTheRecordStays() async throws {
        let setup = try Setup()
        let purchase = try setup.buy(Self.gems, for: "p1")
        #expect(try await setup.fulfill(purchase, as: "p1").name == "granted")
        var altered = purchase.payload
        altered.type = .nonConsumable
        let mismatched = SignedAppStoreTransaction(jws: try setup.simulator.sign(altered), payload: altered)
        #expect(try await setup.fulfill(mismatched, as: "p1").rejection?.reason == .productTypeMismatch)
        #expect(try await setup.fulfill(purchase, as: "p1").name == "alreadyFulfilled")
        await #expect(try setup.ledger.player("p1").balances == ["gems": 100])
    }

    /// A verifier that does not report a type (every store but the App Store) is unaffected.
    @Test func factsWithoutATypeAreNotChecked() throws {
        var payload = JWSTransactionDecodedPayload()
        payload.transactionId = "1"
        payload.productId = Self.gems
        let facts = try #require(AppStoreTransactionVerifier.facts(payload, defaultEnvironment: .sandbox))
        #expect(facts.storeProductType == nil)
        payload.type = .consumable
        #expect(AppStoreTransactionVerifier.facts(payload, defaultEnvironment: .sandbox)?.storeProductType == .consumable)
    }
}
