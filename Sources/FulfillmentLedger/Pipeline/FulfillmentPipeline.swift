import Foundation

/// Where a purchase becomes a grant. The order is fixed and must not be rearranged:
///
/// 1. verify the platform transaction (port);
/// 2. map the store product ID to a catalog product;
/// 3. look up the ledger by the purchase's key (store and the ID that names the purchase on
///    every delivery), or by the delivery's own ID;
/// 4. in one store transaction: grant the rewards, record the transaction (pending its
///    finish), bump a limited product's purchase count, and log one event;
/// 5. commit, durably (concurrent fulfillments may share one commit and one sync);
/// 6. call the platform-finish port;
/// 7. mark the transaction finished (a deferred-durability write: if power loss takes the
///    mark, the finish is sent again, which the platforms accept).
///
/// A failure in 4 or 5 rolls everything back and leaves the platform transaction
/// unfinished, so a retry grants exactly once. A failure in 6 or 7 keeps the grant and
/// the ledger row; a retry or `recover()` calls finish only.
extension Ledger {
    /// Submits a transaction. Returns `granted`, `alreadyFulfilled` or `rejected`; throws
    /// only for infrastructure failures. After a throw nothing was finished and the outcome
    /// is unknown until retried: usually nothing was granted, but a commit whose fsync failed
    /// can still appear after the file is reopened. The retry then answers `alreadyFulfilled`;
    /// it never grants twice.
    ///
    /// A rejection or a failure is written to the attempts journal afterwards, outside the
    /// grant's transaction, with `entryPoint` (see `AttemptJournaling.swift`).
    public func fulfill(
        _ submission: TransactionSubmission, via entryPoint: DeliveryEntryPoint = .client
    ) async throws(LedgerError) -> FulfillmentOutcome {
        let start = ContinuousClock.now
        var verified: VerifiedTransaction?
        do throws(LedgerError) {
            let outcome = try await runFulfillment(submission, verified: &verified)
            observe(
                .fulfillment(transaction: submission.key, playerID: submission.playerID, outcome: outcome), since: start)
            if case .rejected(let rejection) = outcome {
                await journal(submission, verified: verified, via: entryPoint, rejection: rejection)
            }
            return outcome
        } catch {
            observe(.failure(operation: "fulfill", error: error), since: start)
            await journal(submission, verified: verified, via: entryPoint, failure: error)
            throw error
        }
    }

    /// The pipeline itself, unobserved; `verified` is set once the verifier vouches for the facts.
    private func runFulfillment(
        _ submission: TransactionSubmission, verified known: inout VerifiedTransaction?
    ) async throws(LedgerError) -> FulfillmentOutcome {
        try checkStore(submission.store)
        try checkTransactionID(submission.transactionID)
        try checkIdentifier(submission.playerID, "playerID")
        try checkIdentifier(submission.storeProductID, "productID")
        // One catalog for the whole fulfillment, even if it is reloaded meanwhile.
        let catalog = self.catalog

        // 1. Verify. Only what the verifier vouches for is used from here on.
        let verified: VerifiedTransaction
        switch try await verify(submission, verified: &known) {
        case .rejected(let rejection): return .rejected(rejection)
        case .verified(let facts): verified = facts
        }

        // 2. Map the store's product to the catalog.
        guard
            let product = catalog.product(
                store: verified.store, storeProductID: verified.storeProductID, purchaseOption: verified.purchaseOption)
        else {
            // A transaction fulfilled before its product left the catalog is still known:
            // acknowledge it and retry its finish instead of losing track of it.
            // A subscription period is known by its period ID alone: a Play token is the delivery
            // ID of every period of its chain, so it would answer a new period with an old one.
            let known = try await store.read { reader throws(LedgerError) in
                verified.subscriptionPeriod == nil
                    ? try reader.purchase(
                        store: verified.store, transactionID: verified.transactionID,
                        originalTransactionID: verified.originalTransactionID)
                    : try reader.transaction(verified.ledgerKey(for: .autoRenewable))
            }
            if let existing = known, existing.storeProductID == verified.storeProductID {
                return try await replay(existing, verified: verified, productID: existing.productID, playerID: submission.playerID)
            }
            return .rejected(
                Rejection(.unknownProduct, "no catalog product maps \(verified.store)/\(verified.storeProductID)"))
        }
        guard verified.quantity >= 1, verified.quantity <= configuration.quantityMax,
            product.kind == .consumable || verified.quantity == 1
        else {
            return .rejected(
                Rejection(.invalidQuantity, "quantity \(verified.quantity) is not allowed for \(product.id)"))
        }
        if let rejection = ProductTypeCheck.rejection(verified, for: product) { return .rejected(rejection) }

        // 3. Look up the ledger: a known purchase never grants again, whichever delivery names it.
        let playerID = submission.playerID
        let kind = product.kind
        if let existing = try await store.read({ reader throws(LedgerError) in try reader.fulfilledPurchase(verified, kind: kind) }) {
            return try await replay(existing, verified: verified, productID: product.id, playerID: playerID)
        }
        if let rejection = Self.stateRejection(verified) { return .rejected(rejection) }

        // 4 and 5. Grant, record and commit as one store transaction.
        let now = clock.now()
        // Concurrent fulfillments may share this transaction and its sync (group commit);
        // the call returns only once the grant is durable.
        let written = try await commit(.durable) { writer throws(LedgerError) -> GrantWrite in
            try self.grant(verified, product: product, playerID: playerID, catalog: catalog, now: now, writer: writer)
        }
        let record: TransactionRecord
        switch written {
        case .raced(let existing):
            // Another delivery of the same transaction committed first.
            return try await replay(existing, verified: verified, productID: product.id, playerID: playerID)
        case .granted(let granted):
            record = granted
        case .refused(let rejection):
            return .rejected(rejection)
        }

        // 6 and 7. Finish only now that the grant is durable.
        do {
            try faults.check(.afterCommit)
        } catch {
            return .granted(FulfillmentReceipt(record: record, finished: false, finishError: error.description))
        }
        let finish = await finishPending(record)
        return .granted(finish.receipt)
    }

    /// Step 1: the verifier's verdict, checked against the submission, the player's
    /// account binding and the ledger's environment.
    private func verify(
        _ submission: TransactionSubmission, verified known: inout VerifiedTransaction?
    ) async throws(LedgerError) -> Verdict {
        let verified: VerifiedTransaction
        switch try await verifier.verify(submission) {
        case .invalid(let reason): return .rejected(Rejection(.unverified, reason))
        case .verified(let facts): verified = facts
        }
        known = verified
        if let mismatch = Self.mismatch(between: submission, and: verified) {
            return .rejected(Rejection(.unverified, mismatch))
        }
        if let problem = Self.outOfRange(verified) { return .rejected(Rejection(.unverified, problem)) }
        if let accountID = verified.storeAccountID,
            accountID.isEmpty || accountID.utf8.count > configuration.identifierByteCountMax
        {
            return .rejected(
                Rejection(
                    .unverified,
                    "the verified store account ID is empty or longer than \(configuration.identifierByteCountMax) bytes"))
        }
        if let binding = verified.accountBinding,
            binding != configuration.accountBinding(for: submission.store, playerID: submission.playerID)
        {
            return .rejected(Rejection(.accountMismatch, "the store binds \(verified.key) to another account"))
        }
        try faults.check(.afterVerify)
        guard verified.environment == configuration.environment else {
            return .rejected(
                Rejection(
                    .wrongEnvironment,
                    "transaction is from \(verified.environment); this ledger serves \(configuration.environment)"))
        }
        return .verified(verified)
    }

    /// The outcome of step 1.
    enum Verdict {
        case verified(VerifiedTransaction)
        case rejected(Rejection)
    }

    /// The result of the grant transaction.
    enum GrantWrite: Sendable {
        case granted(TransactionRecord)
        case raced(TransactionRecord)
        /// Refused inside the write, changing nothing (a subscription chain of another player).
        case refused(Rejection)
    }

    /// Step 4, inside the store transaction: every change of one purchase.
    func grant(
        _ verified: VerifiedTransaction, product: Product, playerID: String, catalog: ProductCatalog, now: Date,
        writer: LedgerWriter
    ) throws(LedgerError) -> GrantWrite {
        // Re-check inside the write lock: a concurrent delivery may have committed meanwhile.
        if let existing = try writer.fulfilledPurchase(verified, kind: product.kind) { return .raced(existing) }
        let key = verified.ledgerKey(for: product.kind)
        if let rejection = try SubscriptionChains.refusal(verified, playerID: playerID, reader: writer) {
            return .refused(rejection)
        }
        // Read in the grant's own transaction: a withdrawal recorded before it commits wins.
        if let accountID = verified.storeAccountID,
            let rescission = try writer.consentRescission(store: verified.store, accountID: accountID)
        {
            return .refused(
                Rejection(
                    .consentRescinded,
                    "the store withdrew consent for account \(accountID) (notification \(rescission.notificationID))"))
        }
        try faults.check(.beforeGrant)
        var granted: [GrantLine] = []
        // A family member's shared copy grants what the product's familySharing policy allows.
        for (index, line) in product.grantLines(familyShared: verified.isFamilyShared).enumerated() {
            if index > 0 { try faults.check(.betweenRewards) }
            if product.kind == .autoRenewable, line.kind == .entitlement {
                // Kept active by the subscription's chain while it entitles, never owned for good.
                granted.append(GrantLine(kind: .entitlement, id: line.id, quantity: 1))
                continue
            }
            granted.append(try apply(line, times: verified.quantity, playerID: playerID, source: key, now: now, writer: writer))
        }
        try faults.check(.beforeRecord)
        let record = TransactionRecord(
            key: key, playerID: playerID, productID: product.id, storeProductID: verified.storeProductID,
            productKind: product.kind, quantity: verified.quantity, environment: verified.environment,
            purchaseDate: verified.purchaseDate, fulfilledAt: now, catalogVersion: catalog.versionHash,
            grants: granted, finishedAt: nil, storeTransactionID: verified.transactionID,
            storeOrderID: verified.orderID)
        // The record is its own pending finish until `markFinished` stamps it. A concurrent
        // delivery that recorded the purchase first makes the store run this body again.
        guard try writer.insertTransaction(record) else { throw StoreConflict.purchaseRecordedConcurrently(key) }
        // Counted only where a limit reads it, in the limit's own period.
        if let limit = product.limit {
            try writer.incrementPurchaseCount(
                playerID: playerID, productID: product.id, period: PurchasePeriod.key(for: limit.period, at: verified.purchaseDate),
                by: verified.quantity)
        }
        var period = ""
        if let facts = verified.subscriptionPeriod, product.kind == .autoRenewable {
            let chain = try SubscriptionChains.recordPeriod(
                facts, of: record, product: product, verified: verified, now: now, writer: writer)
            period = " period \(chain.periodCount) until \(facts.expiresAt.ledgerISO8601)"
        }
        let summary = granted.map(\.description).joined(separator: ", ")
        let shared = verified.isFamilyShared ? " (family shared)" : ""
        try writer.appendEvent(
            LedgerEvent(
                kind: .purchaseGranted, playerID: playerID, transaction: key, at: now,
                detail: "\(product.id) x\(verified.quantity)\(shared)\(period): \(summary)"))
        try learnAccountToken(verified, playerID: playerID, now: now, writer: writer)
        // Refunds that arrived before the purchase apply now, in store-date order.
        try applyAwaitingRevocations(for: record, catalog: catalog, now: now, writer: writer)
        try faults.check(.beforeCommit)
        return .granted(record)
    }

    /// Applies one reward line `times` over; returns the line the record keeps: what changed,
    /// and every entitlement the purchase pays for, even one the player already owned through
    /// another purchase (so refunding that other purchase leaves it owned).
    private func apply(
        _ line: GrantLine, times: Int, playerID: String, source: TransactionKey, now: Date, writer: LedgerWriter
    ) throws(LedgerError) -> GrantLine {
        let (total, overflow) = line.quantity.multipliedReportingOverflow(by: Int64(times))
        guard !overflow else { throw LedgerError.amountOverflow(playerID: playerID, assetID: line.id) }
        switch line.kind {
        case .currency:
            let after = try writer.addToBalance(playerID: playerID, currencyID: line.id, delta: total)
            let repaid = try Self.noteDebtRepaid(
                before: after - total, granted: total, currencyID: line.id, playerID: playerID, source: source, now: now,
                writer: writer)
            return GrantLine(kind: .currency, id: line.id, quantity: total, debtRepaid: repaid > 0 ? repaid : nil)
        case .item:
            _ = try writer.addToInventory(playerID: playerID, itemID: line.id, delta: total)
            return GrantLine(kind: .item, id: line.id, quantity: total)
        case .entitlement:
            try EntitlementOwnership.pay(line.id, by: source, playerID: playerID, now: now, writer: writer)
            return GrantLine(kind: .entitlement, id: line.id, quantity: 1)
        }
    }

    /// Logs the part of a grant that paid off debt from an earlier clawback, and returns it.
    @discardableResult
    static func noteDebtRepaid(
        before: Int64, granted: Int64, currencyID: String, playerID: String, source: TransactionKey?, now: Date,
        writer: LedgerWriter
    ) throws(LedgerError) -> Int64 {
        guard before < 0, granted > 0 else { return 0 }
        let repaid = min(granted, -before)
        try writer.appendEvent(
            LedgerEvent(
                kind: .debtRepaid, playerID: playerID, transaction: source, at: now,
                detail: "\(repaid) \(currencyID) repaid debt first; \(max(0, -before - repaid)) still owed"))
        return repaid
    }

    /// A transaction the ledger already holds: never grants; retries a pending finish.
    private func replay(
        _ existing: TransactionRecord, verified: VerifiedTransaction, productID: String, playerID: String
    ) async throws(LedgerError) -> FulfillmentOutcome {
        if existing.productID != productID {
            return .rejected(
                Rejection(
                    .conflictProduct,
                    "\(existing.key) was fulfilled for product \(existing.productID), not \(productID)"))
        }
        if existing.playerID != playerID {
            return .rejected(Rejection(.ownedByAnotherPlayer, "\(existing.key) was fulfilled for another player"))
        }
        if existing.quantity != verified.quantity {
            return .rejected(
                Rejection(
                    .conflictQuantity,
                    "\(existing.key) was fulfilled with quantity \(existing.quantity), not \(verified.quantity)"))
        }
        guard !existing.isFinished else { return .alreadyFulfilled(FulfillmentReceipt(record: existing, finished: true)) }
        let finish = await finishPending(existing, retry: .redelivery)
        return .alreadyFulfilled(finish.receipt)
    }

    /// Why verified facts disagree with what the caller submitted, if they do.
    static func mismatch(between submission: TransactionSubmission, and verified: VerifiedTransaction) -> String? {
        if verified.store != submission.store {
            return "verified store \(verified.store) differs from submitted \(submission.store)"
        }
        if verified.transactionID != submission.transactionID {
            return "verified transaction ID differs from the submitted one"
        }
        if verified.storeProductID != submission.storeProductID {
            return "verified product \(verified.storeProductID) differs from submitted \(submission.storeProductID)"
        }
        if verified.quantity != submission.quantity {
            return "verified quantity \(verified.quantity) differs from submitted \(submission.quantity)"
        }
        return nil
    }

    /// Why verified facts cannot be stored exactly, if they cannot: a date outside the ledger's
    /// range, or an original ID over the transaction ID limit. A verifier that passes such
    /// facts on is refused rather than trusted.
    static func outOfRange(_ verified: VerifiedTransaction) -> String? {
        if !verified.purchaseDate.isInLedgerRange { return "the verified purchase date is outside the ledger's range" }
        if let revoked = verified.revocationDate, !revoked.isInLedgerRange {
            return "the verified revocation date is outside the ledger's range"
        }
        return nil
    }

    /// Only a purchased, unrevoked transaction grants.
    static func stateRejection(_ verified: VerifiedTransaction) -> Rejection? {
        if let revoked = verified.revocationDate {
            return Rejection(.revoked, "the store revoked \(verified.key) at \(revoked)")
        }
        switch verified.state {
        case .purchased: return nil
        case .pending: return Rejection(.pending, "payment for \(verified.key) is pending")
        default: return Rejection(.cancelled, "\(verified.key) is \(verified.state), not purchased")
        }
    }
}
