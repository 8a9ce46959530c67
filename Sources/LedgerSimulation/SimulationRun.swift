import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import PlayStoreSimulator
import SteamAdapter
import StripeAdapter
import TestStoreAdapter

/// One seeded run: a workload of purchases, redeliveries, pending payments, spends,
/// resets and restarts, with faults at every point and port, checked after every step
/// against an independent model.
final class SimulationRun {
    /// A fault armed for one step, and how to tell whether it fired.
    enum ArmedFault: Equatable {
        case point(FaultPoint)
        case port(TestStore.Port)
        case finishTimeout

        var name: String {
            switch self {
            case .point(let point): point.rawValue
            case .port(let port): "\(port.rawValue)Port"
            case .finishTimeout: "finishTimeout"
            }
        }
    }

    let options: SimulationOptions
    let runIndex: Int
    let runSeed: UInt64
    var random: SplitMix64
    /// The one-time charge traffic's own stream (whether Apple reports an App Store purchase,
    /// before or after the client, and which players register their token), so adding it left
    /// every other draw of a seed as it was.
    var chargeRandom: SplitMix64
    /// The stream chargeback reviews draw from, apart from `random` like `chargeRandom`.
    var reviewRandom: SplitMix64
    /// The stream Play purchase options and offers draw from, apart from `random`.
    var offerRandom: SplitMix64
    /// The stream the Stripe traffic draws every choice from, apart from `random`.
    var stripeRandom: SplitMix64
    /// The Stripe traffic's account, clock and what it sold.
    let stripeTraffic: StripeTraffic
    /// The stream the Steam traffic draws every choice from, apart from `random`.
    var steamRandom: SplitMix64
    /// The Steam traffic's simulated Steam, clock, players' Steam IDs and what it sold.
    let steamTraffic: SteamTraffic
    /// Play purchases bought through a rental or pre-order offer: never granted.
    var refusedOfferKeys: Set<TransactionKey> = []
    /// The catalog product each Play purchase must be granted as, by the option it was bought through.
    var expectedPlayProducts: [TransactionKey: String] = [:]
    let clock = ManualClock()
    let platform: TestStore
    let finisher: SimulatedFinisher
    /// A simulated App Store with its own certificate chain, so some purchases go through
    /// real offline JWS verification; nil when its keys could not be generated.
    let appStore: AppStoreSimulator?
    let appStoreVerifier: SignedDataVerifier?
    static let appStoreBundleID = "com.kibblestreet.td"
    /// A simulated Google Play Developer API: tokens verified by asking it, finished by consume/acknowledge.
    let playStore: PlayStoreSimulator
    /// Signs the Pub/Sub pushes of the simulated Google, so Play notifications go through the real
    /// authenticator; nil when its key could not be generated.
    let pushSigner: PubSubPushSigner?
    let faults = ScriptedFaultInjector()
    /// The run's database, once `run()` has made it.
    var databaseLocation = ""
    var ledger: Ledger?
    var model = SimulationModel()
    /// Every version of every submission delivered or deliverable, with its document.
    var deliveries: [(submission: TransactionSubmission, document: TestStoreTransaction)] = []
    var pendingIDs: [String] = []
    /// The purchase of each restored delivery (a new App Store transaction ID for an old purchase).
    var purchaseKeys: [TransactionKey: TransactionKey] = [:]
    var step = 0
    var traceText = ""
    var summary = SimulationSummary()
    var operationNumber = 0
    let players: [String]
    /// The catalog's one-time products, which the one-time purchase traffic buys; subscriptions
    /// have traffic of their own.
    let oneTimeProducts: [Product]
    /// The subscription traffic's own model.
    var subscriptions = SubscriptionTraffic()

    init(options: SimulationOptions, runIndex: Int) {
        var options = options
        options.catalog = SimulationCatalog.withSteamItems(
            SimulationCatalog.withStripePrices(SimulationCatalog.withPlayOptions(options.catalog)))
        self.options = options
        self.runIndex = runIndex
        self.runSeed = options.seed &+ UInt64(runIndex)
        self.random = SplitMix64(seed: runSeed)
        self.chargeRandom = SplitMix64(seed: runSeed ^ 0x6F6E_6574_696D_6563)
        self.reviewRandom = SplitMix64(seed: runSeed ^ 0x7265_7669_6577_7321)
        self.offerRandom = SplitMix64(seed: runSeed ^ 0x6F66_6665_7273_7632)
        self.stripeRandom = SplitMix64(seed: runSeed ^ 0x7374_7269_7065_2121)
        self.stripeTraffic = StripeTraffic()
        self.steamRandom = SplitMix64(seed: runSeed ^ 0x7374_6561_6d21_2121)
        self.platform = TestStore(clock: clock)
        self.finisher = SimulatedFinisher(platform: platform)
        self.playStore = PlayStoreSimulator(packageName: Self.appStoreBundleID, clock: clock)
        let runClock = clock
        self.pushSigner = Self.pushKey.flatMap { try? PubSubPushSigner(clock: runClock, key: $0) }
        let appStore = try? AppStoreSimulator(bundleID: Self.appStoreBundleID, environment: .sandbox, clock: clock)
        self.appStore = appStore
        self.appStoreVerifier = appStore.flatMap {
            try? SignedDataVerifier(
                AppStoreVerifierConfiguration(
                    rootCertificates: [$0.rootCertificateDER], bundleID: Self.appStoreBundleID, environment: .sandbox))
        }
        self.players = (0..<options.playerCount).map { "player-\($0)" }
        self.steamTraffic = SteamTraffic(players: players)
        self.oneTimeProducts = options.catalog.products.filter { $0.kind != .autoRenewable && $0.purchaseOption == nil }
        // The catalog's longer plan is sold by the year, so an upgrade from it ends sooner.
        if let longer = subscriptionTiers.longer?.storeProductIDs[.appStore] {
            appStore?.setPeriod(seconds: 365 * 86_400, forProductID: longer)
        }
    }

    /// Runs every step; throws the first broken promise.
    func run() async throws(SimulationViolation) -> SimulationSummary {
        do throws(LedgerError) {
            databaseLocation = try await options.databases.create(runSeed)
        } catch {
            throw violation("cannot make the run's database: \(error)")
        }
        do throws(SimulationViolation) {
            try await openLedger()
            summary.runs = 1
            try await steps()
        } catch {
            // The store (and its connections) closes before the database goes.
            await closeLedger()
            await options.databases.remove(databaseLocation)
            throw error
        }
        await closeLedger()
        await options.databases.remove(databaseLocation)
        return summary
    }

    /// Closes the open ledger's store, as a game server that stops does, and drops the ledger.
    func closeLedger() async {
        await ledger?.store.close()
        ledger = nil
    }

    private func steps() async throws(SimulationViolation) {
        for index in 0..<options.stepCount {
            step = index
            try await takeStep()
            try await checkInvariants()
            try await checkSubscriptionInvariants()
            summary.steps += 1
        }
        try await finishRun()
        summary.trace = SHA256.hexDigest(Array(traceText.utf8))
    }

    /// Picks and performs one action.
    private func takeStep() async throws(SimulationViolation) {
        // Stripe's and Steam's traffic draw from their own streams, before anything of the step is armed.
        try await stripeStep()
        try await steamStep()
        if subscriptionProduct != nil || playSubscriptionProduct != nil, random.chance(12) {
            // Half the subscription steps go to each store, so one seed exercises both.
            if random.chance(50) { return try await playSubscriptionStep() }
            return try await subscriptionStep()
        }
        let roll = random.below(100)
        switch roll {
        case 0..<27: try await purchase()
        case 27..<44: try await redeliver()
        case 44..<52: try await resolvePending()
        case 52..<59: try await spend()
        case 59..<62: try await forgeConflict()
        case 62..<65: try await resetPlayer()
        case 65..<68: try await restart()
        case 68..<74: try await recover(after: "recover")
        case 74..<78: advanceClock()
        case 78..<85: try await checkEligibility()
        case 85..<93: try await refund()
        case 93..<96: try await reverseRefund()
        default: try await restoreFromStore()
        }
    }

    func note(_ line: String) { traceText += "\(step) \(line)\n" }

    func violation(_ message: String) -> SimulationViolation {
        SimulationViolation(runSeed: runSeed, run: runIndex, step: step, message: message)
    }

    func currentLedger() throws(SimulationViolation) -> Ledger {
        guard let ledger else { throw violation("no ledger open") }
        return ledger
    }

    func openLedger() async throws(SimulationViolation) {
        do {
            let store = try await options.databases.open(databaseLocation)
            var verifiers: [PlatformStore: any TransactionVerifier] = [
                .test: platform.verifier,
                .playStore: PlayPurchaseVerifier(
                    api: playStore, packageName: Self.appStoreBundleID, environment: .sandbox, clock: clock,
                    subscriptionStoreProductIDs: options.catalog.playSubscriptionStoreProductIDs),
                .stripe: StripeCheckoutVerifier(api: stripeTraffic.api, environment: .sandbox),
                .steam: SteamOrderVerifier(api: steamTraffic.api, environment: .sandbox),
            ]
            if let appStoreVerifier {
                verifiers[.appStore] = AppStoreTransactionVerifier(signedDataVerifier: appStoreVerifier)
            }
            var configuration = LedgerConfiguration.sandbox
            configuration.accountBinding = { AppAccountToken.forPlayer($0) }
            // The web shop sets the player ID itself as the session's client_reference_id.
            configuration.storeAccountBindings[.stripe] = { $0 }
            // Steam binds a player to its Steam ID; the order processor maps it back.
            configuration.storeAccountBindings[.steam] = steamTraffic.accountBinding()
            ledger = try Ledger(
                catalog: options.catalog, store: store, verifier: StoreRoutingVerifier(verifiers),
                finisher: StoreRoutingFinisher([
                    .test: finisher, .appStore: AppStoreFinisher(),
                    .playStore: PlayFinisher(api: playStore, packageName: Self.appStoreBundleID),
                    .stripe: StripeFinisher(), .steam: SteamFinisher(),
                ]),
                source: platform,
                clock: clock, faults: faults, configuration: configuration)
        } catch {
            throw violation("cannot open the ledger: \(error)")
        }
    }

    // MARK: Actions

    private func purchase() async throws(SimulationViolation) {
        let store = random.below(100)
        if store < 25 {
            try await purchaseFromAppStore()
            return
        }
        if store < 40 {
            try await purchaseFromPlayStore()
            return
        }
        let product = random.pick(oneTimeProducts)
        guard let storeProductID = product.storeProductIDs[.test] else { return }
        let player = random.pick(players)
        let quantity = product.kind == .consumable && random.chance(10) ? 1 + random.below(3) : 1
        let roll = random.below(100)
        let state: PurchaseState = roll < 85 ? .purchased : roll < 95 ? .pending : .cancelled
        let submission = platform.purchase(storeProductID: storeProductID, playerID: player, quantity: quantity, state: state)
        summary.transactions += 1
        remember(submission)
        if state == .pending { pendingIDs.append(submission.transactionID) }
        note("purchase \(submission.transactionID) \(product.id) x\(quantity) \(state) for \(player)")
        if random.chance(80) { try await deliver(submission) }
    }

    private func redeliver() async throws(SimulationViolation) {
        guard !deliveries.isEmpty else { return }
        let picked = random.pick(deliveries).submission
        if picked.store == .appStore, random.chance(30), try await restoreFromAppStore(picked) { return }
        try await deliver(picked)
    }

    /// Restores an App Store non-consumable, as a player on a new device would: Apple
    /// delivers it with a new transaction ID and the original's ID, which must grant nothing
    /// more than the purchase did. Returns false when `original` is not a non-consumable.
    private func restoreFromAppStore(_ original: TransactionSubmission) async throws(SimulationViolation) -> Bool {
        guard let appStore, appStore.transaction(original.transactionID)?.type == .nonConsumable else { return false }
        let signed: SignedAppStoreTransaction
        do {
            signed = try appStore.restore(transactionID: original.transactionID, at: clock.now())
        } catch {
            throw violation("the simulated App Store could not restore: \(error)")
        }
        guard let submission = AppStoreTransactionVerifier.submission(jws: signed.jws, playerID: original.playerID) else {
            throw violation("the simulated App Store signed an unreadable restore")
        }
        purchaseKeys[submission.key] = purchaseKey(of: original.key)
        summary.restoredDeliveries += 1
        remember(submission, storeProductID: original.storeProductID, quantity: 1)
        note("appstore restore \(submission.transactionID) of \(original.transactionID) for \(original.playerID)")
        try await deliver(submission)
        return true
    }

    /// The purchase a delivery belongs to: a restored App Store delivery names its original.
    func purchaseKey(of delivery: TransactionKey) -> TransactionKey { purchaseKeys[delivery] ?? delivery }

    private func resolvePending() async throws(SimulationViolation) {
        guard !pendingIDs.isEmpty else { return }
        let id = pendingIDs.remove(at: random.below(pendingIDs.count))
        let approve = random.chance(70)
        guard let updated = approve ? platform.approve(id) : platform.cancel(id) else { return }
        remember(updated)
        note("\(approve ? "approve" : "cancel") \(id)")
        if random.chance(70) { try await deliver(updated) }
    }

    /// A purchase signed by the simulated App Store, verified offline by the ledger.
    private func purchaseFromAppStore() async throws(SimulationViolation) {
        let product = random.pick(oneTimeProducts)
        guard let appStore, let storeProductID = product.storeProductIDs[.appStore] else { return }
        let player = random.pick(players)
        let quantity = product.kind == .consumable && random.chance(10) ? 1 + random.below(3) : 1
        let signed: SignedAppStoreTransaction
        do {
            signed = try appStore.purchase(
                productID: storeProductID, quantity: quantity, appAccountToken: AppAccountToken.forPlayer(player),
                type: product.kind == .consumable ? .consumable : .nonConsumable, at: clock.now())
        } catch {
            throw violation("the simulated App Store could not sign: \(error)")
        }
        guard let submission = AppStoreTransactionVerifier.submission(jws: signed.jws, playerID: player) else {
            throw violation("the simulated App Store signed an unreadable transaction")
        }
        summary.transactions += 1
        summary.signedTransactions += 1
        remember(submission, storeProductID: storeProductID, quantity: quantity)
        note("appstore purchase \(submission.transactionID) \(product.id) x\(quantity) for \(player)")
        let clientDelivers = random.chance(80)
        try await oneTimeChargeTraffic(submission, player: player, clientDelivers: clientDelivers)
    }

    /// A Google Play purchase, verified by asking the simulated Play Developer API.
    private func purchaseFromPlayStore() async throws(SimulationViolation) {
        let product = random.pick(oneTimeProducts)
        guard let productID = product.storeProductIDs[.playStore] else { return }
        let player = random.pick(players)
        let quantity = product.kind == .consumable && random.chance(10) ? 1 + random.below(3) : 1
        let token = playStore.purchase(productID: productID, quantity: quantity, accountID: AppAccountToken.forPlayer(player))
        let submission = PlayPurchaseVerifier.submission(token: token, storeProductID: productID, playerID: player, quantity: quantity)
        chooseOffer(for: token, key: submission.key, product: product)
        summary.transactions += 1
        summary.playTransactions += 1
        remember(submission, storeProductID: productID, quantity: quantity)
        note("play purchase \(token) x\(quantity) for \(player)")
        if random.chance(80) { try await deliver(submission) }
        try await refundReviewTraffic(token: token, player: player)
    }

    /// Remembers a test-store submission for redelivery, with the document its payload carries.
    func remember(_ submission: TransactionSubmission) {
        guard let document = try? TestStoreTransaction.decoder().decode(
            TestStoreTransaction.self, from: Data(submission.payload.utf8))
        else { return }
        remember(submission, document: document)
    }

    /// Remembers a purchased submission of another store, described as a purchased document.
    func remember(_ submission: TransactionSubmission, storeProductID: String, quantity: Int) {
        let document = TestStoreTransaction(
            store: submission.store, transactionID: submission.transactionID, storeProductID: storeProductID,
            playerID: submission.playerID, quantity: quantity, purchaseDate: clock.now())
        remember(submission, document: document)
    }

    private func remember(_ submission: TransactionSubmission, document: TestStoreTransaction) {
        if deliveries.count >= options.deliveryMemoryMax { deliveries.removeFirst() }
        deliveries.append((submission, document))
    }

    private func advanceClock() {
        let seconds = random.pick([60, 3_600, 86_400, 3 * 86_400])
        clock.advance(seconds: TimeInterval(seconds))
        note("advance \(seconds)s")
    }

    private func resetPlayer() async throws(SimulationViolation) {
        let player = random.pick(players)
        let ledger = try currentLedger()
        do throws(LedgerError) {
            try await ledger.resetPlayer(player)
        } catch {
            throw violation("reset failed: \(error)")
        }
        model.reset(player, at: clock.now())
        note("reset \(player)")
    }

    private func restart() async throws(SimulationViolation) {
        await closeLedger()
        summary.restarts += 1
        note("restart")
        try await openLedger()
        try await recover(after: "restart")
        // The game server syncs Steam's report when it starts.
        try await steamSync(after: "restart")
    }
}
