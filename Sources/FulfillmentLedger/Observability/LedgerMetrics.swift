import Synchronization

/// An observer that keeps metrics: a counter per observation code and a latency histogram per
/// kind of event, rendered as Prometheus text. Bounded: at most `codeCountMax` distinct codes
/// are counted by name, the rest under `other`.
public final class LedgerMetrics: LedgerObserver {
    /// Upper bounds of the latency buckets, in microseconds (Prometheus adds `+Inf`).
    public static let bucketUpperBoundsMicroseconds: [Int64] = [
        100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000,
        5_000_000, 10_000_000,
    ]
    /// Default for `codeCountMax`: the ledger's codes are a few dozen.
    public static let codeCountMaxDefault = 256
    /// The code distinct codes past the limit are counted under.
    public static let overflowCode = "other"

    /// A latency histogram: counts per bucket (not cumulative), their sum and count.
    public struct Histogram: Hashable, Sendable {
        /// Observations at or below each of `bucketUpperBoundsMicroseconds`, and one more for
        /// those above the last bound.
        public var bucketCounts = [Int](repeating: 0, count: LedgerMetrics.bucketUpperBoundsMicroseconds.count + 1)
        /// Sum of the durations, in microseconds.
        public var sumMicroseconds: Int64 = 0
        /// Number of observations.
        public var count = 0

        mutating func record(_ microseconds: Int64) {
            let bucket = LedgerMetrics.bucketUpperBoundsMicroseconds.firstIndex { microseconds <= $0 }
            bucketCounts[bucket ?? bucketCounts.count - 1] += 1
            let (sum, overflow) = sumMicroseconds.addingReportingOverflow(microseconds)
            sumMicroseconds = overflow ? .max : sum
            count += 1
        }
    }

    /// What has been counted so far.
    public struct Snapshot: Hashable, Sendable {
        /// Observations by code.
        public var counts: [String: Int] = [:]
        /// Latency by event kind: `fulfillment`, `finish`, `revocation`, `recovery`, `failure`, and
        /// `commit` for each committed store write.
        public var latencies: [String: Histogram] = [:]
    }

    /// Most distinct codes counted by name.
    public let codeCountMax: Int
    private let state = Mutex(Snapshot())

    /// Empty metrics counting at most `codeCountMax` distinct codes by name.
    public init(codeCountMax: Int = LedgerMetrics.codeCountMaxDefault) {
        precondition(codeCountMax >= 1, "metrics count at least one code")
        self.codeCountMax = codeCountMax
    }

    /// Counts `observation` and records its duration.
    public func observe(_ observation: LedgerObservation) {
        let code = observation.code
        let kind = String(code.prefix { $0 != "." })
        state.withLock { snapshot in
            let counted = snapshot.counts[code] != nil || snapshot.counts.count < codeCountMax ? code : Self.overflowCode
            snapshot.counts[counted, default: 0] += 1
            snapshot.latencies[kind, default: Histogram()].record(observation.durationMicroseconds)
        }
    }

    /// Records a committed write's latency in the `commit` histogram and counts a failed one
    /// as `commit.failed` (its error reaches `observe` as the failure of the call that made it).
    public func observeCommit(durability: WriteDurability, committed: Bool, durationMicroseconds: Int64) {
        state.withLock { snapshot in
            if committed {
                snapshot.latencies[Self.commitKind, default: Histogram()].record(durationMicroseconds)
            } else {
                snapshot.counts[Self.commitFailedCode, default: 0] += 1
            }
        }
    }

    /// The histogram of committed store writes.
    public static let commitKind = "commit"
    /// The count of store writes that did not commit.
    public static let commitFailedCode = "commit.failed"

    /// What has been counted so far.
    public var snapshot: Snapshot { state.withLock { $0 } }

    /// The metrics in Prometheus's text exposition format (version 0.0.4), with the outbox
    /// gauges when `pending` is given (read it with `Ledger.pendingFinishGauge()`).
    public func prometheusText(pending: PendingFinishGauge? = nil) -> String {
        let snapshot = self.snapshot
        var lines = [
            "# HELP ledger_observations_total Fulfillments, finish attempts, revocations, recoveries and errors, by stable code.",
            "# TYPE ledger_observations_total counter",
        ]
        for (code, count) in snapshot.counts.sorted(by: { $0.key < $1.key }) {
            lines.append("ledger_observations_total{code=\"\(Self.escaped(code))\"} \(count)")
        }
        lines += [
            "# HELP ledger_duration_seconds Wall time of each call, by event kind.",
            "# TYPE ledger_duration_seconds histogram",
        ]
        for (kind, histogram) in snapshot.latencies.sorted(by: { $0.key < $1.key }) {
            let label = "event=\"\(Self.escaped(kind))\""
            var cumulative = 0
            for (index, bound) in Self.bucketUpperBoundsMicroseconds.enumerated() {
                cumulative += histogram.bucketCounts[index]
                lines.append("ledger_duration_seconds_bucket{\(label),le=\"\(Self.seconds(bound))\"} \(cumulative)")
            }
            lines.append("ledger_duration_seconds_bucket{\(label),le=\"+Inf\"} \(histogram.count)")
            lines.append("ledger_duration_seconds_sum{\(label)} \(Self.seconds(histogram.sumMicroseconds))")
            lines.append("ledger_duration_seconds_count{\(label)} \(histogram.count)")
        }
        if let pending {
            lines += [
                "# HELP ledger_pending_finishes Finishes owed to the platforms (counted up to the recovery limit).",
                "# TYPE ledger_pending_finishes gauge",
                "ledger_pending_finishes \(pending.count)",
                "# HELP ledger_oldest_pending_finish_age_seconds Age of the oldest finish owed; 0 when none is.",
                "# TYPE ledger_oldest_pending_finish_age_seconds gauge",
                "ledger_oldest_pending_finish_age_seconds \(pending.oldestAgeSeconds ?? 0)",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Microseconds as decimal seconds, exactly (no floating point).
    package static func seconds(_ microseconds: Int64) -> String {
        let whole = microseconds / 1_000_000
        let fraction = microseconds % 1_000_000
        guard fraction != 0 else { return String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    /// A label value with Prometheus's escapes: backslash, double quote and line feed.
    package static func escaped(_ value: String) -> String {
        var result = ""
        for character in value {
            switch character {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }
}
