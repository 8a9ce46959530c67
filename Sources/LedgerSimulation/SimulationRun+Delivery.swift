import Foundation
import FulfillmentLedger
import TestStoreAdapter

/// Deliveries with faults, and the check of each outcome against the model.
extension SimulationRun {
    /// Submits a transaction, maybe with one fault armed, and checks what came back.
    func deliver(_ submission: TransactionSubmission, faultsAllowed: Bool = true) async throws(SimulationViolation) {
        let ledger = try currentLedger()
        let armed = faultsAllowed ? armFault() : nil
        let result: Result<FulfillmentOutcome, LedgerError>
        do throws(LedgerError) {
            result = .success(try await ledger.fulfill(submission))
        } catch {
            result = .failure(error)
        }
        let fired = disarm(armed)
        if let fired { summary.faultsInjected[fired.name, default: 0] += 1 }
        switch result {
        case .failure(let error):
            note("deliver \(submission.transactionID) -> error")
            guard let fired, Self.failsBeforeCommit(fired) else {
                throw violation("\(submission.key) failed without a fault before the commit: \(error)")
            }
        case .success(let outcome):
            note("deliver \(submission.transactionID) -> \(outcome.name)")
            try check(outcome, for: submission, fired: fired)
        }
    }

    /// Whether a fault makes `fulfill` throw with nothing changed.
    static func failsBeforeCommit(_ fault: ArmedFault) -> Bool {
        switch fault {
        case .point(let point): point == .afterVerify || point.isInsideGrantTransaction
        case .port(let port): port == .verify
        case .finishTimeout: false
        }
    }

    private func armFault() -> ArmedFault? {
        guard random.chance(options.faultPercent) else { return nil }
        let choices: [ArmedFault] =
            FaultPoint.allCases.map { .point($0) } + [.port(.verify), .port(.finish), .finishTimeout]
        let fault = random.pick(choices)
        switch fault {
        case .point(let point): faults.arm(point, .error)
        case .port(let port): platform.failNext(port)
        case .finishTimeout: finisher.armTimeout()
        }
        return fault
    }

    /// Disarms whatever was armed and returns it if it fired.
    func disarm(_ fault: ArmedFault?) -> ArmedFault? {
        guard let fault else { return nil }
        var fired = false
        switch fault {
        case .point(let point):
            fired = faults.firedCount(point) > (summary.faultsInjected[fault.name] ?? 0)
            faults.disarmAll()
        case .port(let port):
            fired = platform.pendingFailureCount(port) == 0
            platform.failNext(port, count: 0)
        case .finishTimeout:
            fired = !finisher.disarmTimeout()
        }
        return fired ? fault : nil
    }

    func check(
        _ outcome: FulfillmentOutcome, for submission: TransactionSubmission, fired: ArmedFault?
    ) throws(SimulationViolation) {
        let key = purchaseKey(of: submission.key)
        let document = deliveries.first { $0.submission == submission }?.document
        switch outcome {
        case .granted(let receipt):
            guard model.fulfilled[key] == nil else { throw violation("\(key) granted twice") }
            guard !refusedOfferKeys.contains(key) else { throw violation("\(key), a rental or pre-order, was granted") }
            if let expected = expectedPlayProducts[key], receipt.record.productID != expected {
                throw violation("\(key) granted as \(receipt.record.productID), but its purchase option maps \(expected)")
            }
            if let product = options.catalog.product(id: receipt.record.productID), product.purchaseOption != nil {
                summary.playOptionGrants += 1
            }
            guard document?.state == .purchased, let product = options.catalog.product(id: receipt.record.productID)
            else { throw violation("\(key) granted although not purchased") }
            model.grant(
                product, quantity: receipt.record.quantity, to: receipt.record.playerID, key: key,
                purchaseDate: receipt.record.purchaseDate, fulfilledAt: receipt.record.fulfilledAt)
            summary.grants += 1
            if !receipt.finished && fired == nil { throw violation("\(key) left unfinished without a fault") }
        case .alreadyFulfilled(let receipt):
            guard let known = model.fulfilled[key], known.playerID == receipt.record.playerID else {
                throw violation("\(key) reported alreadyFulfilled but the model never saw it granted")
            }
        case .rejected(let rejection):
            try checkRejection(rejection, key: key, document: document)
        }
    }

    /// Percent of Play purchases bought through a named purchase option (granted as the
    /// catalog maps the option, see `SimulationCatalog`).
    static let purchaseOptionPercent = 30
    /// Percent bought through a rental or pre-order offer: a consumable's rental is granted as
    /// the catalog maps it, the others refused.
    static let refusedOfferPercent = 6

    /// How the Play purchase `token` of `product` was bought, as productsv2 reports it: the
    /// default purchase option, a named one (a third of those through an offer), or a rental or
    /// pre-order; and the catalog product it must be granted as, or that it must be refused.
    func chooseOffer(for token: String, key: TransactionKey, product: Product) {
        let roll = offerRandom.below(100)
        var option: String?
        var offer: String?
        var rental = false
        var preorder = false
        if roll < Self.refusedOfferPercent {
            rental = roll % 2 == 0
            preorder = !rental
            option = rental ? SimulationCatalog.rentOption : SimulationCatalog.preorderOption
            playStore.setOffer(
                token, purchaseOptionID: option, rental: rental,
                preorderReleaseTime: rental ? nil : clock.now().addingTimeInterval(7 * 86_400))
        } else if roll < Self.refusedOfferPercent + Self.purchaseOptionPercent {
            option = SimulationCatalog.bundleOption
            offer = roll % 3 == 0 ? SimulationCatalog.saleOffer : nil
            playStore.setOffer(token, purchaseOptionID: option, offerID: offer)
        }
        if option != nil { summary.playPurchaseOptions += 1 }
        let expected = SimulationCatalog.expectedProductID(
            of: product, option: option, offer: offer, rental: rental, preorder: preorder, in: options.catalog)
        if let expected {
            expectedPlayProducts[key] = expected
            if expected != product.id { note("play offer \(token) \(option ?? "")/\(offer ?? "") as \(expected)") }
        } else {
            refusedOfferKeys.insert(key)
            summary.playRefusedOffers += 1
            note("play offer \(token) \(rental ? "rental" : "preorder") refused")
        }
    }

    private func checkRejection(
        _ rejection: Rejection, key: TransactionKey, document: TestStoreTransaction?
    ) throws(SimulationViolation) {
        let expected: Bool
        switch rejection.reason {
        case .pending: expected = document?.state == .pending && model.fulfilled[key] == nil
        case .cancelled: expected = document?.state == .cancelled && model.fulfilled[key] == nil
        case .conflictProduct, .ownedByAnotherPlayer, .conflictQuantity: expected = model.fulfilled[key] != nil
        case .unsupportedProductType: expected = refusedOfferKeys.contains(key) && model.fulfilled[key] == nil
        default: expected = false
        }
        guard expected else { throw violation("\(key) rejected unexpectedly: \(rejection)") }
    }
}
