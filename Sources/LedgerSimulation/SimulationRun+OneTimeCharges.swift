import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger

/// App Store `ONE_TIME_CHARGE` traffic: Apple's word of a one-time purchase, before the client's
/// delivery, after it, or instead of it, and players registering their token before buying.
extension SimulationRun {
    /// Percent of App Store purchases Apple reports with a `ONE_TIME_CHARGE`.
    static let chargePercent = 30
    /// Percent of App Store purchases whose player registers its token first.
    static let registrationPercent = 15

    /// Sends what the client and Apple send for one App Store purchase, in a seeded order.
    func oneTimeChargeTraffic(
        _ submission: TransactionSubmission, player: String, clientDelivers: Bool
    ) async throws(SimulationViolation) {
        if chargeRandom.chance(Self.registrationPercent) { try await registerToken(of: player) }
        let charged = chargeRandom.chance(Self.chargePercent)
        let chargeFirst = chargeRandom.chance(50)
        if charged, chargeFirst { try await sendOneTimeCharge(submission, player: player) }
        if clientDelivers { try await deliver(submission) }
        if charged, !chargeFirst { try await sendOneTimeCharge(submission, player: player) }
    }

    /// Registers `player`'s token; the binding must name the player, whoever learned it first.
    private func registerToken(of player: String) async throws(SimulationViolation) {
        let ledger = try currentLedger()
        let binding: AccountTokenBinding
        do throws(LedgerError) {
            binding = try await ledger.bindAccountToken(store: .appStore, playerID: player)
        } catch {
            throw violation("registering \(player)'s token failed: \(error)")
        }
        guard binding.playerID == player, binding.token == AppAccountToken.forPlayer(player) else {
            throw violation("\(player)'s token is bound to \(binding.playerID)")
        }
        summary.tokenRegistrations += 1
        note("bind \(player) (\(binding.source))")
    }

    /// Processes Apple's `ONE_TIME_CHARGE` of `submission`: granted to `player` exactly when the
    /// ledger held the player's token beforehand (and then checked like any delivery against the
    /// model), else journaled and granted to no one (the model does not change, which the step's
    /// invariants check).
    private func sendOneTimeCharge(_ submission: TransactionSubmission, player: String) async throws(SimulationViolation) {
        guard let appStore, let appStoreVerifier else { return }
        let ledger = try currentLedger()
        let notice: String
        do {
            notice = try appStore.notification(type: .oneTimeCharge, transactionID: submission.transactionID, at: clock.now())
        } catch {
            throw violation("the simulated App Store could not sign a ONE_TIME_CHARGE: \(error)")
        }
        let processor = AppStoreNotificationProcessor(signedDataVerifier: appStoreVerifier, ledger: ledger)
        let token = AppAccountToken.forPlayer(player)
        let bound: AccountTokenBinding?
        let outcome: AppStoreNotificationOutcome
        do throws(LedgerError) {
            bound = try await ledger.accountTokenBinding(store: .appStore, token: token)
            outcome = try await processor.process(notice)
        } catch {
            throw violation("the ONE_TIME_CHARGE of \(submission.transactionID) failed: \(error)")
        }
        if let bound, bound.playerID != player { throw violation("\(player)'s token is bound to \(bound.playerID)") }
        guard case .oneTimeCharge(let charge) = outcome else {
            throw violation("the ONE_TIME_CHARGE of \(submission.transactionID) answered \(outcome.name)")
        }
        summary.oneTimeCharges += 1
        guard bound != nil else {
            guard charge.isUnassigned, charge.fulfillment == nil else {
                throw violation("a charge whose token names no one was granted to \(charge.playerID ?? "?")")
            }
            summary.unassignedCharges += 1
            note("charge \(submission.transactionID) -> unassigned")
            return
        }
        guard charge.playerID == player, let fulfillment = charge.fulfillment else {
            throw violation("a charge for \(player) went to \(charge.playerID ?? "no one")")
        }
        note("charge \(submission.transactionID) -> \(fulfillment.name)")
        try check(fulfillment, for: submission, fired: nil)
    }
}
