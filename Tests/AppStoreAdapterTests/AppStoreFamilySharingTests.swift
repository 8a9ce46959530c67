import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// Family Sharing of a non-consumable: each family member's FAMILY_SHARED copy grants the
/// product's entitlements, and currencies and items only when the catalog opts in; a
/// FAMILY_REVOKE ends exactly that member's grant.
@Suite struct AppStoreFamilySharingTests {
    static let founders = "com.kibblestreet.td.founders_pack"

    /// A ledger on the repository catalog, with the founder's pack's `familySharing` set.
    static func ledger(_ setup: AppStoreLedgerTests.Setup, foundersSharing: String?) throws -> Ledger {
        guard let foundersSharing else { return setup.ledger }
        var text = try String(contentsOfFile: AppStoreLedgerTests.Setup.catalogPath, encoding: .utf8)
        let marker = #""id": "founders_pack","#
        text = text.replacingOccurrences(of: marker, with: marker + #" "familySharing": "\#(foundersSharing)","#)
        var configuration = LedgerConfiguration.sandbox
        configuration.accountBinding = { AppAccountToken.forPlayer($0) }
        let catalog = try CatalogLoader.parse(Array(text.utf8))
        #expect(catalog.product(id: "founders_pack")?.familySharing?.rawValue == foundersSharing)
        return try Ledger(
            catalog: catalog, store: InMemoryLedgerStore(),
            verifier: AppStoreTransactionVerifier(signedDataVerifier: setup.verifier), finisher: AppStoreFinisher(),
            clock: setup.clock, configuration: configuration)
    }

    static func fulfil(_ signed: SignedAppStoreTransaction, as player: String, in ledger: Ledger) async throws -> FulfillmentOutcome {
        let submission = try #require(AppStoreTransactionVerifier.submission(jws: signed.jws, playerID: player))
        return try await ledger.fulfill(submission)
    }

    @Test func aFamilyMembersCopyGrantsTheEntitlementAndNoCurrencyByDefault() async throws {
        let setup = try AppStoreLedgerTests.Setup()
        let ledger = setup.ledger
        let bought = try setup.buy(Self.founders, for: "parent", type: .nonConsumable)
        #expect(try await Self.fulfil(bought, as: "parent", in: ledger).name == "granted")
        for member in ["child", "partner"] {
            let copy = try setup.simulator.shareWithFamily(
                transactionID: bought.transactionID, appAccountToken: AppAccountToken.forPlayer(member))
            #expect(try await Self.fulfil(copy, as: member, in: ledger).name == "granted")
            #expect(try await Self.fulfil(copy, as: member, in: ledger).name == "alreadyFulfilled")
            let snapshot = try await ledger.player(member)
            #expect(snapshot.balances.isEmpty, "one payment mints no currency for the family")
            #expect(snapshot.entitlements.map(\.entitlementID) == ["remove_ads"])
            #expect(snapshot.history.first?.grants.map(\.kind) == [.entitlement])
            #expect(snapshot.events.first?.detail.contains("(family shared)") == true)
        }
        #expect(try await ledger.player("parent").balances == ["gems": 1_000])
    }

    @Test func aProductThatOptsInGrantsEverythingToEachMember() async throws {
        let setup = try AppStoreLedgerTests.Setup()
        let ledger = try Self.ledger(setup, foundersSharing: "allRewards")
        let bought = try setup.buy(Self.founders, for: "parent", type: .nonConsumable)
        _ = try await Self.fulfil(bought, as: "parent", in: ledger)
        let copy = try setup.simulator.shareWithFamily(
            transactionID: bought.transactionID, appAccountToken: AppAccountToken.forPlayer("child"))
        #expect(try await Self.fulfil(copy, as: "child", in: ledger).name == "granted")
        #expect(try await ledger.player("child").balances == ["gems": 1_000])
    }

    /// FAMILY_REVOKE of one member's copy removes that member's grant only.
    @Test func aFamilyRevokeEndsExactlyThatMembersGrant() async throws {
        let setup = try AppStoreLedgerTests.Setup()
        let ledger = setup.ledger
        let bought = try setup.buy(Self.founders, for: "parent", type: .nonConsumable)
        _ = try await Self.fulfil(bought, as: "parent", in: ledger)
        var copies: [String: SignedAppStoreTransaction] = [:]
        for member in ["child", "partner"] {
            copies[member] = try setup.simulator.shareWithFamily(
                transactionID: bought.transactionID, appAccountToken: AppAccountToken.forPlayer(member))
            _ = try await Self.fulfil(try #require(copies[member]), as: member, in: ledger)
        }
        let child = try #require(copies["child"])
        setup.clock.advance(seconds: 60)
        _ = try setup.simulator.revoke(transactionID: child.transactionID, type: .familyRevoke)
        let processor = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: ledger)
        let outcome = try await processor.process(
            try setup.simulator.notification(type: .refund, transactionID: child.transactionID))
        guard case .revocation(let revocation) = outcome else {
            Issue.record("expected a revocation, got \(outcome)")
            return
        }
        #expect(revocation.record?.event.kind == .revoke)
        #expect(try await ledger.player("child").entitlements.isEmpty)
        #expect(try await ledger.player("partner").entitlements.map(\.entitlementID) == ["remove_ads"])
        let parent = try await ledger.player("parent")
        #expect(parent.entitlements.map(\.entitlementID) == ["remove_ads"] && parent.balances == ["gems": 1_000])
    }

    @Test func onlyPurchasedOrAnAbsentOwnershipTypeCountsAsThePlayersOwnPurchase() throws {
        #expect(!AppStoreTransactionVerifier.isFamilyShared(nil))
        #expect(!AppStoreTransactionVerifier.isFamilyShared(.purchased))
        #expect(AppStoreTransactionVerifier.isFamilyShared(.familyShared))
        #expect(AppStoreTransactionVerifier.isFamilyShared(InAppOwnershipType(rawValue: "SOMETHING_NEW")))
    }
}
