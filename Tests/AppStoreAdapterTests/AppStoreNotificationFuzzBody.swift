import AppStoreAdapter
import Foundation
import FulfillmentLedger
// The libFuzzer build compiles the simulator's sources into its own module instead.
#if canImport(AppStoreSimulator)
    import AppStoreSimulator
#endif
#if canImport(FulfillmentLedgerTesting)
    import FulfillmentLedgerTesting
#endif

/// One input of the App Store notification fuzz target, shared by the libFuzzer target
/// (`Fuzz/AppStoreNotificationFuzzTarget.swift`, which compiles this file) and by
/// `AppStoreNotificationFuzzTests`, which runs it over seeded random and mutated inputs in CI.
///
/// Every input gets a fresh ledger holding one purchase of 3 units of 100 gems, then goes to
/// `AppStoreNotificationProcessor.process` twice. The first byte picks how the rest is used:
/// - 0: the signed payload text itself (the JWS parser, base64, header, `x5c` DER, the chain);
/// - 1: the outer notification's payload JSON, signed by the trusted chain (hostile but
///   authentic notification fields; its nested transaction is whatever the JSON holds);
/// - 2: the nested transaction's payload JSON, signed, inside a signed notification whose type
///   the second byte picks (hostile percentages, quantities, dates and IDs reach the refund mapping;
///   for a `RESCIND_CONSENT` it is the app transaction, whose `appTransactionId` names the account).
///
/// Beyond "no crash": `process` never throws (the store is in memory, so there is no
/// infrastructure to fail); every outcome is typed (a status code 7001-7006, a payload code
/// 7101-7105); a rejection changes nothing and is judged the same way again; anything recorded
/// is `alreadyProcessed` the second time and changes nothing more; the player's gems stay within
/// 0...300 and the refunded units within 0...3, whatever the notifications say, except that a
/// `ONE_TIME_CHARGE` for another transaction bound to p1 grants exactly what its receipt lists.
struct AppStoreNotificationFuzzBody: Sendable {
    static let bundleID = "com.kibblestreet.td"
    static let playerID = "p1"
    /// The purchase every ledger starts with.
    static let transactionID = "2000000000000001"
    static let quantity = 3
    static let gemsGranted: Int64 = 300
    /// 2026-01-01T00:00:00Z, inside the simulated chain's validity.
    static let signedDate: Int64 = 1_767_225_600_000
    /// The notification types mode 2 wraps a transaction in (a `RESCIND_CONSENT` wraps it as its
    /// app transaction). Eight, so the selector digits `0`...`7` pick them in order.
    static let notificationTypes: [NotificationTypeV2] = [
        .refund, .revoke, .refundReversed, .consumptionRequest, .test, .oneTimeCharge, .rescindConsent, .refundDeclined,
    ]

    /// What one input did.
    enum Verdict: String, Sendable, CaseIterable {
        case rejected, revocationRecorded, revocationRejected, consumptionRequest, consentRescinded, logged
        case chargeGranted, chargeUnassigned, chargeRejected
    }

    /// What one input did, and the player's gems after it.
    struct Report: Sendable, Hashable {
        let verdict: Verdict
        let gems: Int64
    }

    /// A broken invariant, with what broke.
    struct Violation: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    let catalog: ProductCatalog
    let verifier: SignedDataVerifier
    let sign: @Sendable ([UInt8]) throws -> String
    let makeStore: @Sendable () -> any LedgerStore
    let purchaseJWS: String

    /// A body whose payloads `sign` signs with a chain ending in `rootCertificateDER`.
    init(
        catalog: ProductCatalog, rootCertificateDER: [UInt8], sign: @escaping @Sendable ([UInt8]) throws -> String,
        makeStore: @escaping @Sendable () -> any LedgerStore
    ) throws {
        self.catalog = catalog
        self.sign = sign
        self.makeStore = makeStore
        verifier = try SignedDataVerifier(
            AppStoreVerifierConfiguration(
                rootCertificates: [rootCertificateDER], bundleID: Self.bundleID, environment: .sandbox))
        purchaseJWS = try sign(Array(Self.purchaseJSON.utf8))
    }

    /// The seeded purchase: 3 units of `com.kibblestreet.td.gems.small` for p1.
    static var purchaseJSON: String {
        #"{"transactionId":"\#(transactionID)","originalTransactionId":"\#(transactionID)","#
            + #""bundleId":"\#(bundleID)","productId":"com.kibblestreet.td.gems.small","type":"Consumable","#
            + #""quantity":\#(quantity),"purchaseDate":\#(signedDate),"signedDate":\#(signedDate),"#
            + #""appAccountToken":"\#(AppAccountToken.forPlayer(playerID))","environment":"Sandbox"}"#
    }

    /// The outer notification mode 2 signs around `signedTransactionInfo` (for a
    /// `RESCIND_CONSENT`, `appData.signedAppTransactionInfo`).
    static func notificationJSON(type: NotificationTypeV2, signedTransactionInfo: String) -> String {
        let nested =
            type == .rescindConsent
            ? #""appData":{"environment":"Sandbox","bundleId":"\#(bundleID)","#
                + #""signedAppTransactionInfo":"\#(signedTransactionInfo)"}"#
            : #""data":{"environment":"Sandbox","bundleId":"\#(bundleID)","#
                + #""bundleVersion":"1","signedTransactionInfo":"\#(signedTransactionInfo)"}"#
        return #"{"notificationType":"\#(type.rawValue)","notificationUUID":"fuzz-notification","version":"2.0","#
            + #""signedDate":\#(signedDate + 60_000),\#(nested)}"#
    }

    /// The signed payload text an input stands for.
    func signedPayload(for bytes: [UInt8]) throws -> String {
        guard let mode = bytes.first else { return "" }
        let rest = Array(bytes.dropFirst(mode % 3 == 2 ? 2 : 1))
        switch mode % 3 {
        case 0: return String(decoding: rest, as: UTF8.self)
        case 1: return try sign(rest)
        default:
            let selector = Int(bytes.count > 1 ? bytes[1] : 0)
            let type = Self.notificationTypes[selector % Self.notificationTypes.count]
            return try sign(Array(Self.notificationJSON(type: type, signedTransactionInfo: try sign(rest)).utf8))
        }
    }

    /// Runs one input; a broken invariant is the failure.
    func run(_ bytes: [UInt8]) async -> Result<Report, Violation> {
        do {
            return .success(try await checkedRun(bytes))
        } catch let violation as Violation {
            return .failure(violation)
        } catch {
            return .failure(Violation(description: "the harness failed: \(error)"))
        }
    }

    private func checkedRun(_ bytes: [UInt8]) async throws -> Report {
        let ledger = try makeLedger()
        try await seed(ledger)
        let text = try signedPayload(for: bytes)
        let processor = AppStoreNotificationProcessor(signedDataVerifier: verifier, ledger: ledger)
        let before = try await state(of: ledger)
        let first = try await process(text, with: processor)
        let after = try await state(of: ledger)
        let chargeReceipt = first.chargeReceipt
        if let chargeReceipt { try expectAdded(chargeReceipt, before: before, after: after) } else { try checkBounds(after) }
        let gems = after.balances["gems"] ?? 0
        let second = try await process(text, with: processor)
        try await expect(try state(of: ledger) == after, "a second delivery changed the ledger: \(first) then \(second)")
        switch first {
        case .rejected(let error):
            try checkCodes(error)
            try expect(after == before, "a rejected notification changed the ledger: \(error)")
            try expect(second == first, "a rejected notification was judged otherwise again: \(error), then \(second)")
            return Report(verdict: .rejected, gems: gems)
        case .alreadyProcessed:
            throw Violation(description: "a fresh ledger answered alreadyProcessed")
        case .revocation(let revocation):
            if let rejection = revocation.rejection {
                try expect(after == before, "a rejected revocation changed the ledger: \(rejection)")
                try expect(second == first, "a rejected revocation was judged otherwise again: \(second)")
                return Report(verdict: .revocationRejected, gems: gems)
            }
            try expectAlreadyProcessed(second)
            return Report(verdict: .revocationRecorded, gems: gems)
        case .subscription(let effect):
            if let rejection = effect.period?.rejection {
                try expect(second == first, "a rejected subscription period was judged otherwise again: \(rejection)")
                return Report(verdict: .revocationRejected, gems: gems)
            }
            try expectAlreadyProcessed(second)
            return Report(verdict: .logged, gems: gems)
        case .consentRescinded(let rescission):
            try expect(after == before, "a withdrawal of consent changed balances or records: \(rescission)")
            try expect(!rescission.accountID.isEmpty, "a withdrawal of consent for an empty account")
            try expectAlreadyProcessed(second)
            return Report(verdict: .consentRescinded, gems: gems)
        case .oneTimeCharge(let charge):
            return try checkCharge(charge, first: first, second: second, changed: after != before, gems: gems)
        case .consumptionRequest, .logged:
            try expect(after == before, "\(first) changed the ledger")
            try expectAlreadyProcessed(second)
            return Report(verdict: first.isLogged ? .logged : .consumptionRequest, gems: gems)
        }
    }

    /// A `ONE_TIME_CHARGE`: granted to p1 only when its token names p1 (changing the ledger
    /// only by its receipt, checked before), journaled when it names no one, and judged the same
    /// again when rejected; what was recorded is `alreadyProcessed` the second time.
    private func checkCharge(
        _ charge: AppStoreOneTimeCharge, first: AppStoreNotificationOutcome, second: AppStoreNotificationOutcome,
        changed: Bool, gems: Int64
    ) throws -> Report {
        if let rejection = charge.rejection {
            try expect(!changed, "a rejected charge changed the ledger: \(rejection)")
            try expect(second == first, "a rejected charge was judged otherwise again: \(second)")
            return Report(verdict: .chargeRejected, gems: gems)
        }
        try expectAlreadyProcessed(second)
        guard let playerID = charge.playerID else {
            try expect(!changed, "an unassigned charge changed the ledger")
            try expect(charge.fulfillment == nil, "an unassigned charge was fulfilled")
            return Report(verdict: .chargeUnassigned, gems: gems)
        }
        try expect(playerID == Self.playerID, "a charge was granted to \(playerID)")
        try expect(
            charge.appAccountToken == AppAccountToken.forPlayer(Self.playerID), "a charge granted without p1's token")
        if charge.fulfillment?.name == "alreadyFulfilled" { try expect(!changed, "an already fulfilled charge changed the ledger") }
        return Report(verdict: .chargeGranted, gems: gems)
    }

    /// Checks that the ledger changed by exactly what a granted charge's receipt lists.
    private func expectAdded(_ receipt: FulfillmentReceipt, before: LedgerState, after: LedgerState) throws {
        var expected = before
        for line in receipt.record.grants {
            switch line.kind {
            case .currency: expected.balances[line.id, default: 0] += line.quantity
            case .item: expected.inventory[line.id, default: 0] += line.quantity
            case .entitlement:
                if !expected.entitlements.contains(line.id) { expected.entitlements.append(line.id) }
            }
        }
        try expect(
            after.balances == expected.balances && after.inventory == expected.inventory
                && Set(after.entitlements) == Set(expected.entitlements) && after.refund == before.refund,
            "a granted charge changed more than its receipt: \(receipt.record.grants), \(before) -> \(after)")
    }

    /// A fresh in-memory ledger holding the seeded purchase.
    private func makeLedger() throws -> Ledger {
        var configuration = LedgerConfiguration.sandbox
        configuration.accountBinding = { AppAccountToken.forPlayer($0) }
        return try Ledger(
            catalog: catalog, store: makeStore(), verifier: AppStoreTransactionVerifier(signedDataVerifier: verifier),
            finisher: AppStoreFinisher(), clock: FixedClock(), configuration: configuration)
    }

    /// Grants the seeded purchase; any other answer is a harness failure.
    private func seed(_ ledger: Ledger) async throws {
        guard let submission = AppStoreTransactionVerifier.submission(jws: purchaseJWS, playerID: Self.playerID) else {
            throw Violation(description: "the seeded purchase is unreadable")
        }
        let outcome = try await ledger.fulfill(submission)
        try expect(outcome.name == "granted", "the seeded purchase was not granted: \(outcome)")
    }

    private func process(_ text: String, with processor: AppStoreNotificationProcessor) async throws
        -> AppStoreNotificationOutcome
    {
        do throws(LedgerError) {
            return try await processor.process(text)
        } catch {
            throw Violation(description: "process threw \(error.codeName): \(error)")
        }
    }

    /// What the notifications may change: the player's holdings and the purchase's refund state.
    struct LedgerState: Equatable {
        var balances: [String: Int64]
        var inventory: [String: Int64]
        var entitlements: [String]
        var refund: RefundState?
    }

    private func state(of ledger: Ledger) async throws -> LedgerState {
        let player = try await ledger.player(Self.playerID)
        let key = TransactionKey(store: .appStore, transactionID: Self.transactionID)
        return LedgerState(
            balances: player.balances, inventory: player.inventory, entitlements: player.entitlements.map(\.entitlementID),
            refund: try await ledger.store.read { reader throws(LedgerError) in try reader.refundState(key) })
    }

    private func checkBounds(_ state: LedgerState) throws {
        let gems = state.balances["gems"] ?? 0
        try expect((0...Self.gemsGranted).contains(gems), "gems \(gems) outside 0...\(Self.gemsGranted)")
        let refunded = state.refund?.refundedQuantity ?? 0
        try expect((0...Self.quantity).contains(refunded), "refunded units \(refunded) outside 0...\(Self.quantity)")
        try expect(state.balances.keys.allSatisfy { $0 == "gems" } && state.inventory.isEmpty, "other assets appeared")
    }

    private func checkCodes(_ error: AppStoreVerificationError) throws {
        try expect((7001...7006).contains(error.status.code), "status code \(error.status.code)")
        if let payload = error.payloadError {
            try expect((7101...7105).contains(payload.code), "payload code \(payload.code)")
            try expect(error.status == .verificationFailure, "a payload error with status \(error.status)")
        }
    }

    private func expectAlreadyProcessed(_ outcome: AppStoreNotificationOutcome) throws {
        guard case .alreadyProcessed = outcome else {
            throw Violation(description: "a recorded notification was applied again: \(outcome)")
        }
    }

    private func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw Violation(description: message()) }
    }
}

extension AppStoreNotificationOutcome {
    fileprivate var isLogged: Bool {
        if case .logged = self { return true }
        return false
    }

    /// The receipt of a charge granted now.
    fileprivate var chargeReceipt: FulfillmentReceipt? {
        if case .oneTimeCharge(let charge) = self, case .granted(let receipt) = charge.fulfillment { return receipt }
        return nil
    }
}

/// The fuzz ledger's clock: one fixed moment, so every run of an input is the same.
private struct FixedClock: LedgerClock {
    func now() -> Date { Date(ledgerMilliseconds: AppStoreNotificationFuzzBody.signedDate + 120_000) }
}
