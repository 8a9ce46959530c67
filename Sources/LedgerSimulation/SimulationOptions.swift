import Foundation
import FulfillmentLedger

/// How a simulation runs; every limit is named.
public struct SimulationOptions: Sendable {
    /// The first run's seed; run `r` uses `seed + r`, so any run replays alone.
    public var seed: UInt64
    /// Runs to do.
    public var runCount: Int
    /// Steps per run.
    public var stepCount: Int
    /// Players per run.
    public var playerCount = 6
    /// Percent of fulfillment steps that arm a fault or a port failure.
    public var faultPercent = 25
    /// Most submissions remembered for redelivery in one run.
    public var deliveryMemoryMax = 256
    /// The catalog.
    public var catalog: ProductCatalog
    /// Where each run's ledger lives: its engine, made fresh per run and removed after it.
    public var databases: SimulationDatabases

    /// Creates options.
    public init(
        seed: UInt64, runCount: Int, stepCount: Int, catalog: ProductCatalog, databases: SimulationDatabases
    ) {
        self.seed = seed
        self.runCount = runCount
        self.stepCount = stepCount
        self.catalog = catalog
        self.databases = databases
    }
}

/// A broken promise found by the simulation, with what is needed to replay it.
public struct SimulationViolation: Error, Sendable, CustomStringConvertible {
    /// The seed of the run that broke (replay with `--seed` this and `--runs 1`).
    public var runSeed: UInt64
    /// The run's index.
    public var run: Int
    /// The step at which the check failed.
    public var step: Int
    /// What was broken.
    public var message: String

    /// `run R (seed S), step K: message`.
    public var description: String { "run \(run) (seed \(runSeed)), step \(step): \(message)" }
}

/// What a simulation did.
public struct SimulationSummary: Sendable, Codable {
    /// Runs completed.
    public var runs = 0
    /// Steps taken.
    public var steps = 0
    /// Faults injected, by fault point or port.
    public var faultsInjected: [String: Int] = [:]
    /// Store transactions created.
    public var transactions = 0
    /// Of those, App Store transactions signed by the simulated App Store and verified offline.
    public var signedTransactions = 0
    /// Of those, Google Play purchases verified through the simulated Play Developer API.
    public var playTransactions = 0
    /// Restored App Store deliveries (a new transaction ID for a purchase already made).
    public var restoredDeliveries = 0
    /// Refunds, partial refunds and revokes applied, from every store.
    public var refunds = 0
    /// Refund reversals applied.
    public var reversals = 0
    /// Restores answered by one store, authoritative as of their read time.
    public var scopedRestores = 0
    /// Non-consumables those restores revoked because their store's list left them out.
    public var restoreRevokes = 0
    /// Grants the ledger made.
    public var grants = 0
    /// Restarts (ledger dropped and database reopened).
    public var restarts = 0
    /// Subscription periods the ledger granted (subscription traffic).
    public var subscriptionPeriods = 0
    /// Of those, Google Play periods (order IDs of a purchase token).
    public var playSubscriptionPeriods = 0
    /// Subscription state notifications the ledger processed (subscription traffic).
    public var subscriptionNotifications = 0
    /// App Store `ONE_TIME_CHARGE` notifications processed (Apple's word of a one-time purchase).
    public var oneTimeCharges = 0
    /// Of those, charges whose token named no player yet: journaled, granted to no one.
    public var unassignedCharges = 0
    /// Players whose account token the run registered (`Ledger.bindAccountToken`).
    public var tokenRegistrations = 0
    /// Google Play purchases bought through a named purchase option, rentals and pre-orders
    /// included (read with productsv2).
    public var playPurchaseOptions = 0
    /// Google Play purchases bought through a rental or pre-order offer no catalog product maps: refused.
    public var playRefusedOffers = 0
    /// Google Play purchases granted as the catalog product mapping their purchase option.
    public var playOptionGrants = 0
    /// Stripe Checkout Sessions sold (each of one or two line items).
    public var stripePurchases = 0
    /// Stripe refunds (partial or full) applied.
    public var stripeRefunds = 0
    /// Stripe disputes opened (funds withdrawn).
    public var stripeDisputes = 0
    /// Steam orders started (InitTxn, each of one or two items), whatever the player answered.
    public var steamOrders = 0
    /// Items Steam charged that the report sync granted: a crash between FinalizeTxn and the
    /// grant, recovered.
    public var steamRecoveredGrants = 0
    /// Steam refunds (whole, of some items, or for fraud) applied by the report sync.
    public var steamRefunds = 0
    /// Steam chargebacks applied by the report sync.
    public var steamChargebacks = 0
    /// Google Play chargeback reviews asked for (`pendingRefundReviewNotification`).
    public var refundReviews = 0
    /// Of those, reviews answered (once, within Google's 24 hours).
    public var refundReviewsAnswered = 0
    /// Of those, reviews first delivered after the deadline: recorded, never answered.
    public var refundReviewsLate = 0
    /// Broken promises found.
    public var violations: [String] = []
    /// SHA-256 over every run's trace: the same seed gives the same trace.
    public var trace = ""
}
