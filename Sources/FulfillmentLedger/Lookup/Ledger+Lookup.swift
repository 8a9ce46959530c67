import Foundation

extension Ledger {
    /// Finds what the ledger holds under any store ID of a purchase (see `LookupReport`), in
    /// every store, with one consistent read. Throws `.invalidArgument` for an empty or
    /// over-long ID; an ID nothing matches gives a report whose `found` is false.
    public func lookup(_ id: String) async throws(LedgerError) -> LookupReport {
        try checkTransactionID(id, "id")
        return try await store.lookup(id, now: clock.now(), finishWarningAgeSeconds: configuration.finishWarningAgeSeconds)
    }
}

extension LedgerStore {
    /// `Ledger.lookup(_:)` on a store alone, for tools without a ledger (the CLI): a pending
    /// finish's age is measured at `now` against `finishWarningAgeSeconds`. The caller checks `id`.
    public func lookup(_ id: String, now: Date, finishWarningAgeSeconds: Int64) async throws(LedgerError) -> LookupReport {
        try await read { reader throws(LedgerError) in
            try LookupReading(reader: reader).report(id, now: now, finishWarningAgeSeconds: finishWarningAgeSeconds)
        }
    }
}

/// The reads of one lookup, inside one snapshot.
struct LookupReading {
    let reader: LedgerReader

    /// Gathers the rows under `id` and orders them into steps.
    func report(_ id: String, now: Date, finishWarningAgeSeconds: Int64) throws(LedgerError) -> LookupReport {
        var records: [TransactionKey: TransactionRecord] = [:]
        var chains: [TransactionKey: SubscriptionRecord] = [:]
        for store in PlatformStore.known {
            let key = TransactionKey(store: store, transactionID: id)
            for record in [
                try reader.transaction(key), try reader.transaction(store: store, deliveryID: id),
                try reader.transaction(store: store, orderID: id),
            ].compactMap({ $0 }) {
                records[record.key] = record
            }
            if let chain = try reader.subscription(key) { chains[chain.chain] = chain }
        }
        // A found period brings its chain; a found chain brings its periods' records.
        for record in records.values where record.productKind == .autoRenewable {
            if let period = try reader.subscriptionPeriod(record.key), let chain = try reader.subscription(period.chain) {
                chains[chain.chain] = chain
            }
        }
        for chain in chains.values {
            for period in try reader.subscriptionPeriods(chain.chain, limit: LookupReport.recordCountMax)
            where records.count < LookupReport.recordCountMax {
                if let record = try reader.transaction(period.recordKey) { records[record.key] = record }
            }
        }
        let found = records.values.sorted { ($0.fulfilledAt, $0.key.transactionID) < ($1.fulfilledAt, $1.key.transactionID) }
        var revocations: [String: RevocationRecord] = [:]
        var steps: [LookupStep] = []
        var pending: [PendingFinish] = []
        var purchases = Set(found.map(\.key))
        for store in PlatformStore.known { purchases.insert(TransactionKey(store: store, transactionID: id)) }
        for purchase in purchases {
            for revocation in try reader.revocationEvents(for: purchase, limit: LookupReport.revocationsPerPurchaseMax) {
                revocations[revocation.event.eventID] = revocation
            }
        }
        for record in found {
            for event in try reader.events(transaction: record.key, limit: LookupReport.eventsPerRecordMax) {
                steps.append(LookupStep(at: event.at, source: .event, playerID: event.playerID, kind: event.kind.rawValue, text: event.detail))
            }
            if let finish = try reader.pendingFinish(record.key) {
                pending.append(finish)
                steps.append(Self.step(finish, now: now, warningAgeSeconds: finishWarningAgeSeconds))
            }
        }
        let attempts = try reader.attempts(matchingID: id, limit: LookupReport.attemptCountMax)
        steps += attempts.map { LookupStep(at: $0.at, source: .attempt, playerID: $0.playerID, kind: $0.outcome.rawValue, text: $0.summary) }
        let orderedRevocations = revocations.values.sorted { ($0.receivedAt, $0.event.eventID) < ($1.receivedAt, $1.event.eventID) }
        for revocation in orderedRevocations where revocation.disposition != .applied {
            // An applied one is in the event log already; the others changed nothing yet.
            steps.append(Self.step(revocation, playerID: found.first(where: { $0.key == revocation.purchase })?.playerID ?? ""))
        }
        return LookupReport(
            id: id, records: found, subscriptions: chains.values.sorted { $0.chain.transactionID < $1.chain.transactionID },
            attempts: attempts, revocations: orderedRevocations, pendingFinishes: pending,
            steps: steps.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element))
    }

    /// A pending finish in words, with its age against the warning age.
    static func step(_ finish: PendingFinish, now: Date, warningAgeSeconds: Int64) -> LookupStep {
        let ageSeconds = max(0, (now.ledgerMilliseconds - finish.enqueuedAt.ledgerMilliseconds) / 1_000)
        let overdue = ageSeconds >= warningAgeSeconds ? " (overdue: the store may refund an unfinished purchase)" : ""
        let failures = finish.attemptCount == 0 ? "" : ", \(finish.attemptCount) failed attempt(s), last: \(finish.lastError ?? "unknown")"
        return LookupStep(
            at: now, source: .pendingFinish, playerID: finish.playerID, kind: "finishPending",
            text: "granted, but the store has not been told to finish it for \(ageSeconds) s\(failures)\(overdue)")
    }

    /// A refund or revocation that changed nothing yet, in words.
    static func step(_ revocation: RevocationRecord, playerID: String) -> LookupStep {
        let text: String
        switch revocation.disposition {
        case .awaitingPurchase: text = "\(revocation.event.kind) received before its purchase; it applies when the purchase is granted"
        case .stale: text = "\(revocation.event.kind) received out of date; it changed nothing"
        case .noChange: text = "\(revocation.event.kind) received; nothing was left to take back"
        case .applied: text = "\(revocation.event.kind) applied"
        }
        return LookupStep(
            at: revocation.receivedAt, source: .revocation, playerID: playerID, kind: revocation.disposition.rawValue,
            text: text + (revocation.event.reason.map { " (reason: \($0))" } ?? ""))
    }
}
