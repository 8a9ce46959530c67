import Foundation
import FulfillmentLedger

/// Deterministic simulation of the ledger under faults: seeded runs of a workload with
/// faults at every point and port, checked after every step against an independent model.
public enum Simulator {
    /// Most runs one call accepts; the documented long mode runs 10,000.
    public static let runCountMax = 1_000_000
    /// Most steps per run.
    public static let stepCountMax = 100_000

    /// The outcome of a simulation.
    public struct Result: Sendable {
        /// What was done (complete up to the violation, if any).
        public var summary: SimulationSummary
        /// The first broken promise, if one was found; the simulation stops there.
        public var violation: SimulationViolation?
    }

    /// Runs `options.runCount` runs in order. `progress` is called after each run with
    /// (runs done, runs in all).
    public static func run(
        _ options: SimulationOptions, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async -> Result {
        precondition(options.runCount >= 1 && options.runCount <= runCountMax, "runCount out of range")
        precondition(options.stepCount >= 1 && options.stepCount <= stepCountMax, "stepCount out of range")
        var total = SimulationSummary()
        var traces = ""
        for index in 0..<options.runCount {
            let run = SimulationRun(options: options, runIndex: index)
            do throws(SimulationViolation) {
                let summary = try await run.run()
                merge(summary, into: &total)
                traces += summary.trace
            } catch {
                merge(run.summary, into: &total)
                total.violations.append(error.description)
                total.trace = SHA256.hexDigest(Array(traces.utf8))
                return Result(summary: total, violation: error)
            }
            progress?(index + 1, options.runCount)
        }
        total.trace = SHA256.hexDigest(Array(traces.utf8))
        return Result(summary: total, violation: nil)
    }

    private static func merge(_ run: SimulationSummary, into total: inout SimulationSummary) {
        total.runs += run.runs
        total.steps += run.steps
        total.transactions += run.transactions
        total.signedTransactions += run.signedTransactions
        total.oneTimeCharges += run.oneTimeCharges
        total.unassignedCharges += run.unassignedCharges
        total.tokenRegistrations += run.tokenRegistrations
        total.playPurchaseOptions += run.playPurchaseOptions
        total.playRefusedOffers += run.playRefusedOffers
        total.playOptionGrants += run.playOptionGrants
        total.stripePurchases += run.stripePurchases
        total.stripeRefunds += run.stripeRefunds
        total.stripeDisputes += run.stripeDisputes
        total.steamOrders += run.steamOrders
        total.steamRecoveredGrants += run.steamRecoveredGrants
        total.steamRefunds += run.steamRefunds
        total.steamChargebacks += run.steamChargebacks
        total.refundReviews += run.refundReviews
        total.refundReviewsAnswered += run.refundReviewsAnswered
        total.refundReviewsLate += run.refundReviewsLate
        total.playTransactions += run.playTransactions
        total.restoredDeliveries += run.restoredDeliveries
        total.refunds += run.refunds
        total.reversals += run.reversals
        total.scopedRestores += run.scopedRestores
        total.restoreRevokes += run.restoreRevokes
        total.grants += run.grants
        total.restarts += run.restarts
        total.subscriptionPeriods += run.subscriptionPeriods
        total.playSubscriptionPeriods += run.playSubscriptionPeriods
        total.subscriptionNotifications += run.subscriptionNotifications
        for (name, count) in run.faultsInjected { total.faultsInjected[name, default: 0] += count }
    }
}
