import AppStoreAdapter
import Foundation
import FulfillmentLedger
import PlayStoreAdapter
import PlayStoreSimulator

/// Google Play subscription traffic: tokens bought, renewed (by the game's delivery or a
/// SUBSCRIPTION_RENEWED push), redelivered, failed with and without grace, recovered, put on hold,
/// canceled and restarted, expired, revoked and their periods refunded, with pushes sometimes late.
/// Every push is signed as Pub/Sub signs it and goes through `PlayNotificationProcessor`, which
/// reads the token back from the simulated `subscriptionsv2`.
extension SimulationRun {
    /// A Play subscription notification's type.
    typealias PlayPushKind = DeveloperNotification.SubscriptionNotification.Kind

    /// The key every run's push signer shares: generating an RSA key takes a while.
    static let pushKey: RSATestKey? = try? RSATestKey()

    /// Attempts at one delivery or push: a second one after a failure, as a client or Pub/Sub retries.
    static let playAttemptCountMax = 2

    /// The catalog's Google Play subscription the traffic sells, if it has one.
    var playSubscriptionProduct: Product? {
        options.catalog.products.first { $0.kind == .autoRenewable && $0.storeProductIDs[.playStore] != nil }
    }

    /// The Play subscriber whose obfuscated account ID is `account`, as the game maps it back.
    static func playSubscriber(ofAccount account: String?) -> String? {
        SubscriptionTraffic.playSubscribers.first { AppAccountToken.forPlayer($0) == account }
    }

    /// One Play subscription action.
    func playSubscriptionStep() async throws(SimulationViolation) {
        guard let product = playSubscriptionProduct, let productID = product.storeProductIDs[.playStore] else { return }
        let player = random.pick(SubscriptionTraffic.playSubscribers)
        // A player without a token, or whose token Google ended, subscribes anew.
        guard let token = subscriptions.playChains[player]?.last?.token, let state = playStore.storedSubscription(token)?.state,
            state != .expired
        else { return try await subscribeOnPlay(player, productID: productID) }
        switch random.below(100) {
        case 0..<24:
            // The period ends and Google renews it: a new order, delivered by the game or the push.
            guard state == .active else { return note("play subscription \(player) not renewable: \(state)") }
            moveToExpiry(of: token)
            playStore.renewSubscription(token)
            if random.chance(8) { try await refundPlayRenewalBeforeItsGrant(token, player: player) }
            if random.chance(40) {
                try await deliverPlayByGame(token, productID: productID, player: player)
            } else {
                try await pushPlay(.renewed, token: token, player: player, delay: random.chance(15))
            }
        case 24..<34:
            // A restore or a new device: the same token again, which grants nothing already granted.
            try await deliverPlayByGame(token, productID: productID, player: player)
        case 34..<48:
            // The renewal fails, with or without a grace period; sometimes the push is late.
            guard state == .active else { return note("play subscription \(player) cannot fail: \(state)") }
            moveToExpiry(of: token)
            let graceDays = random.chance(50) ? random.pick([3, 7]) : nil
            playStore.failSubscriptionRenewal(token, graceSeconds: graceDays.map { TimeInterval($0) * 86_400 })
            try await pushPlay(graceDays == nil ? .onHold : .inGracePeriod, token: token, player: player, delay: random.chance(30))
        case 48..<56:
            // Payment recovered from grace or hold, or the grace ran out unpaid.
            guard state == .inGracePeriod || state == .onHold else {
                return note("play subscription \(player) nothing to recover: \(state)")
            }
            if state == .inGracePeriod, random.chance(40) {
                moveToExpiry(of: token)
                playStore.holdSubscription(token)
                return try await pushPlay(.onHold, token: token, player: player, delay: random.chance(20))
            }
            playStore.recoverSubscription(token)
            try await pushPlay(.recovered, token: token, player: player, delay: random.chance(20))
        case 56..<64:
            // Auto-renew turned off, or back on before the period lapsed.
            if state == .active {
                playStore.cancelSubscription(token)
                try await pushPlay(.canceled, token: token, player: player, delay: random.chance(20))
            } else if state == .canceled {
                playStore.restartSubscription(token)
                try await pushPlay(.restarted, token: token, player: player, delay: random.chance(20))
            }
        case 64..<70:
            moveToExpiry(of: token)
            playStore.expireSubscription(token)
            try await pushPlay(.expired, token: token, player: player, delay: random.chance(20))
        case 70..<74:
            playStore.revokeSubscription(token)
            try await pushPlay(.revoked, token: token, player: player, delay: random.chance(10))
        case 74..<86:
            try await refundPlayPeriod(of: player)
        case 86..<93:
            try await deliverDelayedPush(of: player)
        default:
            let seconds = random.pick([3_600, 86_400, 10 * 86_400, 40 * 86_400])
            clock.advance(seconds: TimeInterval(seconds))
            note("play subscription clock +\(seconds)s")
        }
    }

    /// A new token for `player`, once whatever the ledger knows of the old one has ended.
    private func subscribeOnPlay(_ player: String, productID: String) async throws(SimulationViolation) {
        // The old token's end may not have reached the ledger yet (its push held back): the new
        // subscription starts after every end the ledger could know of, so at most one chain entitles.
        if let bound = subscriptions.playChains[player]?.compactMap(\.bound).max(), bound > clock.now() {
            clock.set(bound)
        }
        let token = playStore.subscribe(productID: productID, accountID: AppAccountToken.forPlayer(player))
        subscriptions.playChains[player, default: []].append(SubscriptionTraffic.PlayChain(token: token))
        note("play subscription \(player) subscribes \(token)")
        if random.chance(30) {
            try await pushPlay(.purchased, token: token, player: player, delay: false)
        } else {
            try await deliverPlayByGame(token, productID: productID, player: player)
        }
    }

    /// Moves the clock to the end of the token's current period, if that is still ahead.
    private func moveToExpiry(of token: String) {
        if let end = playExpiry(of: token), end > clock.now() { clock.set(end) }
    }

    /// The token's `expiryTime` as Google holds it now.
    private func playExpiry(of token: String) -> Date? {
        guard let item = playStore.storedSubscription(token)?.lineItems?.first else { return nil }
        return (try? item.checkedExpiryDate()) ?? nil
    }

    /// The game delivers the token (`PlayPurchaseVerifier.submission`), once more after a failure.
    private func deliverPlayByGame(_ token: String, productID: String, player: String) async throws(SimulationViolation) {
        let ledger = try currentLedger()
        let submission = PlayPurchaseVerifier.submission(token: token, storeProductID: productID, playerID: player)
        var outcome: FulfillmentOutcome?
        for _ in 0..<Self.playAttemptCountMax where outcome == nil {
            do throws(LedgerError) {
                outcome = try await ledger.fulfill(submission)
            } catch {
                note("play subscription \(player) delivery of \(token) failed: \(error.code)")
            }
        }
        // Google was read whatever the outcome: the ledger may know of its current end.
        observePlayBound(of: token, player: player)
        guard let outcome else { return }
        note("play subscription \(player) \(token) delivered: \(outcome.name)")
        try recordPlayPeriod(outcome, token: token, player: player)
    }

    /// Pushes a notification of `kind` for `token` now, or holds it back for a later step.
    private func pushPlay(_ kind: PlayPushKind, token: String, player: String, delay: Bool) async throws(SimulationViolation) {
        // The body carries the event time of now, even when delivered late.
        let body = playStore.subscriptionBody(for: token, kind: kind)
        if delay {
            subscriptions.delayedPushes.append((player, token, body))
            return note("play subscription \(player) \(kind) push held back")
        }
        try await processPlayPush(body, token: token, player: player)
    }

    /// Delivers the oldest push held back for `player`.
    private func deliverDelayedPush(of player: String) async throws(SimulationViolation) {
        guard let index = subscriptions.delayedPushes.firstIndex(where: { $0.player == player }) else { return }
        let held = subscriptions.delayedPushes.remove(at: index)
        try await processPlayPush(held.body, token: held.token, player: player)
    }

    /// Signs and processes one push, once more after a failure, and records its period.
    private func processPlayPush(_ body: Data, token: String, player: String) async throws(SimulationViolation) {
        let ledger = try currentLedger()
        guard let pushSigner else { throw violation("no simulated Pub/Sub push signer") }
        let processor = PlayNotificationProcessor(
            api: playStore, packageName: Self.appStoreBundleID, ledger: ledger, authenticator: pushSigner.authenticator(),
            playerResolver: { Self.playSubscriber(ofAccount: $0) })
        for _ in 0..<Self.playAttemptCountMax {
            let headers: [String: String]
            do {
                // Pub/Sub signs a fresh token for every attempt, late ones included.
                headers = try pushSigner.headers()
            } catch {
                throw violation("the simulated Pub/Sub could not sign: \(error)")
            }
            let outcome: PlayNotificationOutcome
            do throws(LedgerError) {
                outcome = try await processor.process(headers: headers, body: body)
            } catch {
                note("play subscription \(player) push failed: \(error.code)")
                continue
            }
            observePlayBound(of: token, player: player)
            if case .alreadyProcessed = outcome { return note("play subscription \(player) push already processed") }
            guard case .subscription(let effect) = outcome else {
                throw violation("a Play subscription push for \(player) was taken as \(outcome)")
            }
            note("play subscription \(player) \(effect.note)")
            summary.subscriptionNotifications += 1
            if let period = effect.period { try recordPlayPeriod(period, token: token, player: player) }
            return
        }
    }

    /// Raises the token's bound to the end Google reports now, which the ledger may just have read.
    private func observePlayBound(of token: String, player: String) {
        guard let index = subscriptions.playChains[player]?.firstIndex(where: { $0.token == token }) else { return }
        let end = playExpiry(of: token)
        let bound = [subscriptions.playChains[player]?[index].bound, end].compactMap { $0 }.max()
        subscriptions.playChains[player]?[index].bound = bound
    }

    /// Records what the ledger did with the token's latest paid period.
    private func recordPlayPeriod(_ outcome: FulfillmentOutcome, token: String, player: String) throws(SimulationViolation) {
        guard let index = subscriptions.playChains[player]?.firstIndex(where: { $0.token == token }) else {
            throw violation("\(player) has no Play token \(token)")
        }
        let everGranted = Set(subscriptions.playChains[player]?.flatMap(\.granted.keys) ?? [])
        switch outcome {
        case .granted(let receipt):
            let orderID = receipt.record.key.transactionID
            guard !everGranted.contains(orderID) else { throw violation("Play period \(orderID) of \(player) granted twice") }
            subscriptions.playChains[player]?[index].granted[orderID] = playExpiry(of: token) ?? clock.now()
            summary.subscriptionPeriods += 1
            summary.playSubscriptionPeriods += 1
        case .alreadyFulfilled(let receipt):
            let orderID = receipt.record.key.transactionID
            guard everGranted.contains(orderID) else {
                throw violation("Play period \(orderID) of \(player) answered alreadyFulfilled but was never granted")
            }
        case .rejected(let rejection):
            throw violation("the Play period of \(token) for \(player) was rejected: \(rejection)")
        }
    }

    /// Refunds a granted, unrefunded period (the void `voidedpurchases.list` reports with `type=1`),
    /// read by the voided purchases sync, sometimes twice: its gems must go back once.
    private func refundPlayPeriod(of player: String) async throws(SimulationViolation) {
        let chains = subscriptions.playChains[player] ?? []
        let candidates = chains.indices.flatMap { index in
            chains[index].granted.keys.filter { !chains[index].refunded.contains($0) }.map { (index, $0) }
        }.sorted { $0.1 < $1.1 }
        guard !candidates.isEmpty else { return }
        let (index, orderID) = random.pick(candidates)
        playStore.voidSubscriptionPeriod(chains[index].token, orderID: orderID)
        try await syncPlayVoids(of: orderID)
        subscriptions.playChains[player]?[index].refunded.insert(orderID)
        note("play subscription \(player) refund of \(orderID)")
    }

    /// Google refunds a renewal before the ledger has heard of it: the sync records the refund
    /// under the period's order ID, and the grant that comes later takes it back at once.
    private func refundPlayRenewalBeforeItsGrant(_ token: String, player: String) async throws(SimulationViolation) {
        guard let index = subscriptions.playChains[player]?.firstIndex(where: { $0.token == token }),
            let orderID = playStore.voidSubscriptionPeriod(token).orderId
        else { return }
        try await syncPlayVoids(of: orderID)
        subscriptions.playChains[player]?[index].refunded.insert(orderID)
        note("play subscription \(player) refund of \(orderID) before its grant")
    }

    /// Runs the voided purchases sync, sometimes twice, after Google voided period `orderID`.
    private func syncPlayVoids(of orderID: String) async throws(SimulationViolation) {
        let ledger = try currentLedger()
        for _ in 0..<(random.chance(30) ? 2 : 1) {
            let report: VoidedSyncReport
            do throws(LedgerError) {
                report = try await VoidedPurchasesSync(api: playStore, packageName: Self.appStoreBundleID, ledger: ledger).run()
            } catch {
                throw violation("the voided-purchases sync failed on Play period \(orderID): \(error)")
            }
            guard report.rejected.isEmpty, report.invalid.isEmpty else {
                throw violation("the sync did not apply the void of Play period \(orderID): \(report)")
            }
        }
    }

    /// The subscription invariants for the Play subscribers: those every subscriber keeps, and at
    /// most one entitled chain, which is entitled only before its own bound.
    func checkPlaySubscriptionInvariants() async throws(SimulationViolation) {
        guard let product = playSubscriptionProduct else { return }
        let now = clock.now()
        for player in SubscriptionTraffic.playSubscribers {
            let chains = subscriptions.playChains[player] ?? []
            let granted = chains.flatMap(\.granted.keys)
            let kept = Int64(granted.count - chains.map(\.grantedRefundCount).reduce(0, +))
            let amount = product.periodRewards?.lines.first { $0.kind == .currency }?.quantity ?? 0
            let (readings, _, _) = try await checkSubscriber(
                player, product: product, granted: Set(granted), expectedGems: kept * amount,
                bound: chains.compactMap(\.bound).max())
            let entitled = readings.filter(\.isEntitled)
            guard entitled.count <= 1 else {
                throw violation("\(player) is entitled by \(entitled.count) Play chains at \(now)")
            }
            for reading in entitled {
                let bound = chains.first { $0.token == reading.subscription.chain.transactionID }?.bound
                if bound.map({ now >= $0 }) ?? true {
                    throw violation("\(player)'s chain \(reading.subscription.chain) entitles at \(now) past \(String(describing: bound))")
                }
            }
        }
    }
}
