import FulfillmentLedger

/// What `StripeWebhookProcessor` did with one webhook, and the HTTP status to answer it with.
public enum StripeWebhookOutcome: Sendable, Hashable {
    /// The signature did not authenticate: nothing was read or recorded (400).
    case unauthenticated(StripeWebhookRefusal)
    /// Authenticated, but not an event the adapter can read: its reason; not recorded (400).
    case rejected(String)
    /// The event was processed before: what was recorded then (200).
    case duplicate(StoreNotificationRecord)
    /// A paid Checkout Session: the pipeline's outcome for each line item, in order (200).
    case fulfilled(sessionID: String, outcomes: [FulfillmentOutcome])
    /// A paid Checkout Session whose player the game did not set: recorded, granted to no one,
    /// for support to assign (200).
    case unassigned(sessionID: String)
    /// An event that grants nothing (a failed delayed payment, an expired or unpaid session, a
    /// type the ledger does not act on): recorded (200).
    case nothingToDo(type: StripeEventType)
    /// A refund or dispute: the revocation outcome of each line item it reaches, in order (200).
    case revocations(chargeID: String, outcomes: [RevocationOutcome])

    /// The status to answer Stripe with: 2xx only once the outcome is durable.
    public var httpStatus: Int {
        switch self {
        case .unauthenticated, .rejected: 400
        case .duplicate, .fulfilled, .unassigned, .nothingToDo, .revocations: 200
        }
    }
}
