import Foundation

/// A Stripe event as a webhook delivers it (`"object": "event"`): its ID, by which it is applied
/// once (Stripe retries for days and does not keep order), its type, and the object it is about.
/// Names kept as Stripe's; a type or object kind Stripe adds reads back as itself.
public struct StripeEvent: Decodable, Sendable, Hashable {
    /// `evt_…`: the event's ID.
    public var id: String
    /// `checkout.session.completed`, `charge.refunded`, …
    public var type: StripeEventType
    /// When Stripe created the event, in seconds since 1970.
    public var created: Int64
    /// Whether the event is from live mode (false: test mode).
    public var livemode: Bool
    /// The API version the event's object is rendered in.
    public var apiVersion: String?
    /// The object the event is about, as of the event.
    public var object: StripeEventObject

    private enum CodingKeys: String, CodingKey {
        case id, type, created, livemode, object, data
        case apiVersion = "api_version"
    }

    private struct DataContainer: Decodable {
        var object: StripeEventObject
    }

    /// Decodes Stripe's envelope; `object` must be `"event"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(String.self, forKey: .object)
        guard kind == "event" else {
            throw DecodingError.dataCorruptedError(forKey: .object, in: container, debugDescription: "not an event: \(kind)")
        }
        id = try container.decode(String.self, forKey: .id)
        type = try container.decode(StripeEventType.self, forKey: .type)
        created = try container.decode(Int64.self, forKey: .created)
        livemode = try container.decode(Bool.self, forKey: .livemode)
        apiVersion = try container.decodeIfPresent(String.self, forKey: .apiVersion)
        object = try container.decode(DataContainer.self, forKey: .data).object
    }
}

/// The object a Stripe event is about, by its `object` field.
public enum StripeEventObject: Decodable, Sendable, Hashable {
    /// A Checkout Session (`checkout.session`).
    case checkoutSession(StripeCheckoutSession)
    /// A charge (`charge`), with its cumulative `amount_refunded`.
    case charge(StripeCharge)
    /// A refund (`refund`).
    case refund(StripeRefund)
    /// A dispute (`dispute`).
    case dispute(StripeDispute)
    /// Any other kind, by its `object` name; the ledger does not act on it.
    case other(String)

    private enum CodingKeys: String, CodingKey { case object }

    /// Decodes by the `object` field.
    public init(from decoder: any Decoder) throws {
        let kind = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .object)
        switch kind {
        case "checkout.session": self = .checkoutSession(try StripeCheckoutSession(from: decoder))
        case "charge": self = .charge(try StripeCharge(from: decoder))
        case "refund": self = .refund(try StripeRefund(from: decoder))
        case "dispute": self = .dispute(try StripeDispute(from: decoder))
        default: self = .other(kind)
        }
    }
}

/// A Stripe event type. Open: a type Stripe adds reads back as itself.
public struct StripeEventType: RawRepresentable, Codable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// Stripe's name.
    public var rawValue: String
    /// Wraps a name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a literal name.
    public init(stringLiteral value: String) { rawValue = value }
    /// Decodes the name.
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    /// Encodes the name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    /// The name.
    public var description: String { rawValue }

    /// The customer finished Checkout; `payment_status` says whether it is paid.
    public static let checkoutSessionCompleted: StripeEventType = "checkout.session.completed"
    /// A delayed payment method (a bank debit) succeeded after Checkout finished.
    public static let checkoutSessionAsyncPaymentSucceeded: StripeEventType = "checkout.session.async_payment_succeeded"
    /// A delayed payment method failed: nothing to grant.
    public static let checkoutSessionAsyncPaymentFailed: StripeEventType = "checkout.session.async_payment_failed"
    /// The session expired unpaid: nothing to grant.
    public static let checkoutSessionExpired: StripeEventType = "checkout.session.expired"
    /// A charge was refunded, in full or in part; its `amount_refunded` is cumulative.
    public static let chargeRefunded: StripeEventType = "charge.refunded"
    /// A refund changed (such as failed after it was reported).
    public static let refundUpdated: StripeEventType = "refund.updated"
    /// A dispute took the disputed funds back from the balance.
    public static let chargeDisputeFundsWithdrawn: StripeEventType = "charge.dispute.funds_withdrawn"
    /// A dispute won (or withdrawn) returned the funds.
    public static let chargeDisputeFundsReinstated: StripeEventType = "charge.dispute.funds_reinstated"
}
