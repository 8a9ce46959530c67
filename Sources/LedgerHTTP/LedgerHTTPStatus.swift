import AppStoreAdapter
import FulfillmentLedger
import PlayStoreAdapter
import SteamAdapter

/// The HTTP status each outcome is answered with: the table of Docs/Integration.md
/// ("Status codes"), one function per sender. The rules every row follows:
///
/// - 2xx only once the outcome is durable, or when the request is permanently invalid and a
///   retry cannot help (Apple and Pub/Sub then stop redelivering);
/// - 5xx when a retry can succeed (storage, a store's API, the verifier);
/// - never 2xx after an infrastructure failure.
public enum LedgerHTTPStatus {
    /// A client's purchase submission: 200 granted or already fulfilled; 202 pending (it may
    /// grant later: submit it again once paid); 409 the transaction belongs to another product,
    /// player or quantity; 422 any other rejection (retrying the same submission cannot help).
    public static func purchase(_ outcome: FulfillmentOutcome) -> Int {
        switch outcome {
        case .granted, .alreadyFulfilled: return 200
        case .rejected(let rejection):
            switch rejection.reason {
            case .pending: return 202
            case .conflictProduct, .ownedByAnotherPlayer, .conflictQuantity, .conflictEvent: return 409
            default: return 422
            }
        }
    }

    /// A game's spend or grant: 200 applied or already applied; 409 the operation ID was used with
    /// other parameters, or the balance is short; 422 any other refusal (an unknown asset, an
    /// amount out of range).
    public static func operation(_ outcome: OperationOutcome) -> Int {
        switch outcome {
        case .applied, .alreadyApplied: return 200
        case .rejected(let reason, _):
            switch reason {
            case .conflictOperation, .insufficientFunds: return 409
            default: return 422
            }
        }
    }

    /// A Steam order: 200 started, or every item granted or already fulfilled; 202 an item is
    /// pending (the player has not answered, or the order is not finalised: report the answer
    /// again); 422 Steam refused the call, the buyer is no player the game knows, or an item was
    /// rejected otherwise.
    public static func steamOrder(_ outcome: SteamOrderOutcome) -> Int {
        switch outcome {
        case .started: return 200
        case .refused, .unassigned: return 422
        case .submitted(_, _, let outcomes):
            if outcomes.allSatisfy({ $0.rejection == nil }) { return 200 }
            return outcomes.contains { $0.rejection?.reason == .pending } ? 202 : 422
        }
    }

    /// A refund, revoke or reversal: 200 recorded or already recorded (its record says whether it
    /// changed anything, or waits for its purchase); 409 the event ID was recorded with other
    /// content; 422 any other rejection.
    public static func revocation(_ outcome: RevocationOutcome) -> Int {
        switch outcome {
        case .recorded, .alreadyRecorded: return 200
        case .rejected(let rejection): return rejection.reason == .conflictEvent ? 409 : 422
        }
    }

    /// An App Store Server Notification: 200 for every outcome, a refusal included (its
    /// signature or values will not change on a resend), except a verification that may pass
    /// on a retry (`retryableVerificationFailure`): 503, so Apple resends it.
    public static func appStoreNotification(_ outcome: AppStoreNotificationOutcome) -> Int {
        if case .rejected(let error) = outcome, error.status == .retryableVerificationFailure { return 503 }
        return 200
    }

    /// A Play RTDN push: the processor's own answer (`PlayNotificationOutcome.httpStatus`):
    /// 401 or 403 for a push that did not authenticate, else 204, which acknowledges it.
    public static func playNotification(_ outcome: PlayNotificationOutcome) -> Int { outcome.httpStatus }

    /// A thrown infrastructure error: 503 when a retry can succeed (storage, a port, an injected
    /// fault), 400 for an argument the ledger refuses, 422 for an amount that would overflow,
    /// and 500 for a broken deployment (no ledger, a newer schema, an invalid catalog or
    /// configuration), which a retry reaches again but an operator must fix. Never 2xx.
    public static func error(_ error: LedgerError) -> Int {
        switch error {
        case .storage, .ledgerInUse, .verifierUnavailable, .finishFailed, .transactionSourceUnavailable, .injectedFault:
            return 503
        case .invalidArgument: return 400
        case .amountOverflow: return 422
        case .notALedger, .foreignDatabase, .newerSchema, .integrityCheckFailed, .ledgerMissing, .catalogInvalid,
            .catalogUnreadable, .configuration:
            return 500
        }
    }
}
