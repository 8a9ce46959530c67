import Foundation

/// One of `LedgerHTTPHandler`'s routes, parsed from the path's segments.
package enum LedgerHTTPRoute: Equatable {
    case purchases
    case operations
    case revocations
    case player(String)
    case entitlements(String)
    case eligibility(String)
    case subscriptions(String)
    case history(String)
    case reset(String)
    case restore(String)
    case accountToken(String)
    case reconcile(String)
    case lookup(String)
    case appTransaction(String)
    case appAccountToken(String)
    case changes
    case appStoreNotifications
    case playNotifications
    case stripeWebhooks
    case steamOrders
    case steamAuthorization(String)
    case steamSync
    case health
    case ready
    case metrics
    case openAPI

    /// The route of `segments`, percent-decoded; nil when none matches.
    package init?(_ segments: [String]) {
        switch segments.count {
        case 1:
            switch segments[0] {
            case "purchases": self = .purchases
            case "operations": self = .operations
            case "revocations": self = .revocations
            case "healthz": self = .health
            case "readyz": self = .ready
            case "metrics": self = .metrics
            case "openapi.json": self = .openAPI
            case "changes": self = .changes
            default: return nil
            }
        case 2 where segments[0] == "lookup":
            guard let id = Self.decode(segments[1], byteCountMax: LedgerHTTPHandler.lookupIDByteCountMax) else { return nil }
            self = .lookup(id)
        case 2 where segments[0] == "players":
            guard let playerID = Self.decode(segments[1]) else { return nil }
            self = .player(playerID)
        case 2 where segments == ["appstore", "notifications"]: self = .appStoreNotifications
        case 3 where segments[0] == "appstore" && segments[1] == "app-transactions":
            guard let id = Self.decode(segments[2]) else { return nil }
            self = .appTransaction(id)
        case 4 where segments[0] == "appstore" && segments[1] == "transactions" && segments[3] == "app-account-token":
            guard let id = Self.decode(segments[2]) else { return nil }
            self = .appAccountToken(id)
        case 2 where segments == ["playstore", "notifications"]: self = .playNotifications
        case 2 where segments == ["stripe", "webhooks"]: self = .stripeWebhooks
        case 2 where segments == ["steam", "orders"]: self = .steamOrders
        case 2 where segments == ["steam", "sync"]: self = .steamSync
        case 4 where segments[0] == "steam" && segments[1] == "orders" && segments[3] == "authorization":
            guard let id = Self.decode(segments[2]) else { return nil }
            self = .steamAuthorization(id)
        case 3 where segments[0] == "players":
            guard let playerID = Self.decode(segments[1]) else { return nil }
            switch segments[2] {
            case "entitlements": self = .entitlements(playerID)
            case "eligibility": self = .eligibility(playerID)
            case "subscriptions": self = .subscriptions(playerID)
            case "history": self = .history(playerID)
            case "reset": self = .reset(playerID)
            case "restore": self = .restore(playerID)
            case "account-token": self = .accountToken(playerID)
            case "reconcile": self = .reconcile(playerID)
            default: return nil
            }
        default: return nil
        }
    }

    /// The route's path as Docs/openapi.json names it (`/players/{playerID}/history`); the
    /// switch is exhaustive, so a new route cannot be added without one, and
    /// `OpenAPIDocumentTests` checks the document describes each.
    package var template: String {
        switch self {
        case .purchases: "/purchases"
        case .operations: "/operations"
        case .revocations: "/revocations"
        case .player: "/players/{playerID}"
        case .entitlements: "/players/{playerID}/entitlements"
        case .eligibility: "/players/{playerID}/eligibility"
        case .subscriptions: "/players/{playerID}/subscriptions"
        case .history: "/players/{playerID}/history"
        case .reset: "/players/{playerID}/reset"
        case .restore: "/players/{playerID}/restore"
        case .accountToken: "/players/{playerID}/account-token"
        case .reconcile: "/players/{playerID}/reconcile"
        case .lookup: "/lookup/{id}"
        case .appTransaction: "/appstore/app-transactions/{transactionID}"
        case .appAccountToken: "/appstore/transactions/{originalTransactionID}/app-account-token"
        case .changes: "/changes"
        case .appStoreNotifications: "/appstore/notifications"
        case .playNotifications: "/playstore/notifications"
        case .stripeWebhooks: "/stripe/webhooks"
        case .steamOrders: "/steam/orders"
        case .steamAuthorization: "/steam/orders/{orderID}/authorization"
        case .steamSync: "/steam/sync"
        case .health: "/healthz"
        case .ready: "/readyz"
        case .metrics: "/metrics"
        case .openAPI: "/openapi.json"
        }
    }

    /// One instance of every route, for tests that must cover them all.
    package static let every: [LedgerHTTPRoute] = [
        .purchases, .operations, .revocations, .player("p"), .entitlements("p"), .eligibility("p"), .subscriptions("p"),
        .history("p"), .reset("p"), .restore("p"), .accountToken("p"), .reconcile("p"), .lookup("GPA.1"),
        .appTransaction("2000000000000001"), .appAccountToken("2000000000000001"), .changes, .appStoreNotifications,
        .playNotifications, .stripeWebhooks, .steamOrders, .steamAuthorization("42"), .steamSync, .health, .ready, .metrics,
        .openAPI,
    ]

    /// The one method the route takes.
    package var method: String {
        switch self {
        case .purchases, .operations, .revocations, .reset, .restore, .accountToken, .reconcile, .appAccountToken,
            .appStoreNotifications, .playNotifications, .stripeWebhooks, .steamOrders, .steamAuthorization, .steamSync:
            "POST"
        case .player, .entitlements, .eligibility, .subscriptions, .history, .lookup, .appTransaction, .changes, .health,
            .ready, .metrics, .openAPI:
            "GET"
        }
    }

    /// Whether the route serves the game (and so needs the bearer token when one is set).
    var isGameFacing: Bool {
        switch self {
        case .purchases, .operations, .revocations, .reset, .restore, .accountToken, .reconcile, .player, .entitlements,
            .eligibility, .subscriptions, .history, .lookup, .appTransaction, .appAccountToken, .changes, .steamOrders,
            .steamAuthorization, .steamSync:
            true
        case .appStoreNotifications, .playNotifications, .stripeWebhooks, .health, .ready, .metrics, .openAPI: false
        }
    }

    /// A path segment percent-decoded, when it is non-empty and within the ID limit.
    private static func decode(
        _ segment: String, byteCountMax: Int = LedgerHTTPHandler.playerIDByteCountMax
    ) -> String? {
        guard let decoded = segment.removingPercentEncoding, !decoded.isEmpty,
            decoded.utf8.count <= byteCountMax
        else { return nil }
        return decoded
    }
}
