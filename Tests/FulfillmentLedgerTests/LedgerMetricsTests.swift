import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// `LedgerMetrics`: counters by code, latency histograms, the outbox gauges and their
/// Prometheus text.
struct LedgerMetricsTests {
    /// A ledger on the test store and an in-memory store, seen by `observer`.
    static func ledger(observer: any LedgerObserver, faults: any FaultInjector = NoFaults()) throws
        -> (Ledger, TestStore, ManualClock)
    {
        let clock = ManualClock()
        let testStore = TestStore(clock: clock)
        let ledger = try Ledger(
            catalog: try LedgerHarness.sampleCatalog(), store: InMemoryLedgerStore(), verifier: testStore.verifier,
            finisher: testStore, source: testStore, clock: clock, faults: faults, observer: observer,
            configuration: .sandbox)
        return (ledger, testStore, clock)
    }

    @Test("a write that does not commit is counted as commit.failed and kept out of the commit histogram")
    func failedCommitsAreCounted() async throws {
        let faults = ScriptedFaultInjector()
        let metrics = LedgerMetrics()
        let (ledger, testStore, _) = try Self.ledger(observer: metrics, faults: faults)
        faults.arm(.beforeCommit)
        let purchase = testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        await #expect(throws: LedgerError.self) { try await ledger.fulfill(purchase) }
        #expect(metrics.snapshot.counts[LedgerMetrics.commitFailedCode] == 1)
        // The only commit timed is the attempts journal's row for the failure.
        #expect(metrics.snapshot.latencies[LedgerMetrics.commitKind]?.count == 1)
        _ = try await ledger.fulfill(purchase)
        // Then the grant and its finish mark.
        #expect(metrics.snapshot.latencies[LedgerMetrics.commitKind]?.count == 3)
    }

    @Test("a ledger's fulfillments and finish failures are counted by code, timed, and rendered as Prometheus text")
    func countsAndRenders() async throws {
        let metrics = LedgerMetrics()
        let memory = InMemoryLedgerObserver()
        let (ledger, testStore, clock) = try Self.ledger(observer: CombinedLedgerObserver([metrics, memory]))
        let first = testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        _ = try await ledger.fulfill(first)
        _ = try await ledger.fulfill(first)
        testStore.failNext(.finish)
        _ = try await ledger.fulfill(testStore.purchase(storeProductID: "test.gems_small", playerID: "p2"))
        clock.advance(seconds: 90)

        let snapshot = metrics.snapshot
        #expect(
            snapshot.counts == [
                "fulfillment.granted": 2, "fulfillment.alreadyFulfilled": 1, "finish.finished": 1, "finish.failed": 1,
            ])
        #expect(snapshot.latencies["fulfillment"]?.count == 3)
        #expect(snapshot.latencies["finish"]?.count == 2)
        #expect(memory.observations.count == 5, "the combined observer feeds both")
        // Two grants, one finish mark and one failed finish recorded; the duplicate only reads.
        #expect(snapshot.latencies[LedgerMetrics.commitKind]?.count == 4)
        #expect(memory.commitCounts == (4, 0))

        let gauge = try await ledger.pendingFinishGauge()
        #expect(gauge == PendingFinishGauge(count: 1, countIsAtLeast: false, oldestAgeSeconds: 90))
        let text = metrics.prometheusText(pending: gauge)
        #expect(text.contains("ledger_observations_total{code=\"fulfillment.granted\"} 2\n"))
        #expect(text.contains("ledger_duration_seconds_bucket{event=\"fulfillment\",le=\"+Inf\"} 3\n"))
        #expect(text.contains("ledger_duration_seconds_count{event=\"finish\"} 2\n"))
        #expect(text.contains("ledger_duration_seconds_count{event=\"commit\"} 4\n"))
        #expect(text.contains("ledger_pending_finishes 1\n"))
        #expect(text.contains("ledger_oldest_pending_finish_age_seconds 90\n"))
        // Buckets are cumulative and end at the count.
        let buckets = text.split(separator: "\n").filter { $0.hasPrefix("ledger_duration_seconds_bucket{event=\"fulfillment\"") }
        let values = buckets.compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
        #expect(values.count == LedgerMetrics.bucketUpperBoundsMicroseconds.count + 1)
        #expect(values == values.sorted() && values.last == 3)
        #expect(text.hasSuffix("\n"))
    }

    @Test("durations land in the right bucket; sums render as exact decimal seconds")
    func buckets() {
        let metrics = LedgerMetrics()
        for microseconds: Int64 in [100, 101, 20_000_000] {
            metrics.observe(LedgerObservation(.failure(operation: "x", error: .invalidArgument("y")), durationMicroseconds: microseconds))
        }
        guard let histogram = metrics.snapshot.latencies["failure"] else { Issue.record("no failure histogram"); return }
        #expect(histogram.bucketCounts[0] == 1 && histogram.bucketCounts[1] == 1 && histogram.bucketCounts.last == 1)
        #expect(histogram.sumMicroseconds == 20_000_201)
        let text = metrics.prometheusText()
        #expect(text.contains("ledger_duration_seconds_sum{event=\"failure\"} 20.000201\n"))
        #expect(text.contains("le=\"0.0001\"} 1\n") && text.contains("le=\"0.00025\"} 2\n") && text.contains("le=\"10\"} 2\n"))
        #expect(!text.contains("ledger_pending_finishes"))
        #expect(LedgerMetrics.seconds(2_500_000) == "2.5" && LedgerMetrics.seconds(3_000_000) == "3")
        #expect(LedgerMetrics.escaped("a\"b\\c\nd") == "a\\\"b\\\\c\\nd")
    }

    @Test("past codeCountMax distinct codes, new codes are counted under other")
    func codeLimit() {
        let metrics = LedgerMetrics(codeCountMax: 1)
        for operation in ["a", "b", "c", "a"] {
            metrics.observe(LedgerObservation(.failure(operation: operation, error: .invalidArgument("y")), durationMicroseconds: 1))
        }
        #expect(metrics.snapshot.counts == ["failure.a.argument.invalid": 2, LedgerMetrics.overflowCode: 2])
    }
}
