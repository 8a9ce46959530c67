import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerEngineTesting
import LedgerSQL
import PlayStoreAdapter
import PlayStoreSimulator
import PostgresLedgerStore
import SQLiteLedgerStore
import Testing

/// `voidedReason` 8 (`Unacknowledged_purchase`): Google refunded a purchase nobody acknowledged
/// within 3 days. Each such void, when recorded, raises an alert counted by the metrics, and
/// `ledger doctor` warns about those of the last 30 days on every engine.
@Suite struct PlayUnacknowledgedVoidTests {
    static let alertCode = "storeAlert.playStore.unacknowledgedPurchaseVoided"

    @Test(arguments: LedgerTestEngine.allCases)
    func anUnacknowledgedVoidRaisesOneAlertAndTheDoctorCountsIt(_ engine: LedgerTestEngine) async throws {
        let metrics = LedgerMetrics()
        let setup = try await PlayLedgerSetup.on(engine, observer: metrics)
        let token = try await setup.buyAndFulfill("gems_small", for: "p1")
        let other = try await setup.buyAndFulfill("gems_small", for: "p2")
        setup.play.void(token: token, reason: PlayVoidedEvent.unacknowledgedPurchaseReason)
        setup.play.void(token: other, reason: 1)
        let first = try await setup.sync().run()
        #expect(first.recorded == 2 && first.unacknowledgedVoids == 1)
        #expect(metrics.snapshot.counts[Self.alertCode] == 1)
        // A second run records nothing new and raises nothing.
        let second = try await setup.sync().run()
        #expect(second.unacknowledgedVoids == 0)
        #expect(metrics.snapshot.counts[Self.alertCode] == 1)
        #expect(metrics.prometheusText().contains("ledger_observations_total{code=\"\(Self.alertCode)\"} 1"))

        let count = try await Self.doctorCount(engine, setup)
        if let count {
            #expect(count.count == 1 && count.latestAt != nil)
            #expect(count.warning?.contains("refunded 1 purchase(s) in the last 30 days") == true)
        }
    }

    @Test func aPushedVoidOfReasonEightRaisesTheAlertOnceLikeTheSync() async throws {
        let metrics = LedgerMetrics()
        let setup = try PlayLedgerSetup(observer: metrics)
        let token = try await setup.buyAndFulfill("gems_small", for: "p1")
        setup.play.void(token: token, reason: PlayVoidedEvent.unacknowledgedPurchaseReason)
        guard case .revocation(let outcome, _) = try await setup.push(setup.play.voidedBody(for: token, refundType: 1)) else {
            Issue.record("the listed void must apply")
            return
        }
        #expect(outcome.record != nil)
        #expect(metrics.snapshot.counts[Self.alertCode] == 1)
        // The sync finds the same void recorded: no second alert.
        #expect(try await setup.sync().run().unacknowledgedVoids == 0)
        #expect(metrics.snapshot.counts[Self.alertCode] == 1)
    }

    @Test func theReasonTheAdapterWritesIsTheOneTheDoctorCounts() throws {
        var voided = VoidedPurchase()
        voided.purchaseToken = "t"
        voided.voidedTimeMillis = "1767571200000"
        voided.voidedSource = 2
        voided.voidedReason = PlayVoidedEvent.unacknowledgedPurchaseReason
        let event = try PlayVoidedEvent.event(for: voided)
        #expect(event.reason?.hasSuffix(UnacknowledgedVoidCount.reasonSuffix) == true)
        #expect(PlayVoidedEvent.unacknowledgedReasonSuffix == UnacknowledgedVoidCount.reasonSuffix)
        voided.voidedReason = 18
        #expect(try PlayVoidedEvent.event(for: voided).reason?.hasSuffix(UnacknowledgedVoidCount.reasonSuffix) == false)
    }

    /// What the engine's doctor counts, nil for the in-memory store (it has no doctor).
    static func doctorCount(_ engine: LedgerTestEngine, _ setup: PlayLedgerSetup) async throws -> UnacknowledgedVoidCount? {
        let now = setup.clock.now()
        switch engine {
        case .memory: return nil
        case .sqlite:
            let path = try #require(setup.engineLeaseForTests?.sqlitePath)
            return try LedgerDoctor.examine(path: path, now: now).unacknowledgedPlayVoids
        case .postgres:
            let url = try #require(setup.engineLeaseForTests?.postgresConnectionString)
            return try await PostgresLedgerDoctor.examine(connectionString: url, now: now).unacknowledgedPlayVoids
        }
    }
}
