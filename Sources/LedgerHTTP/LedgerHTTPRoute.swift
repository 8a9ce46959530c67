import Foundation

/// One of `LedgerHTTPHandler`'s routes, parsed from the path's segments.
enum LedgerHTTPRoute: Equatable {
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
    case changes
    case appStoreNotifications
    case playNotifications
    case health
    case ready
    case metrics

    /// The route of `segments`, percent-decoded; nil when none matches.
    init?(_ segments: [String]) {
        switch segments.count {
        case 1:
            switch segments[0] {
            case "purchases": self = .purchases
            case "operations": self = .operations
            case "revocations": self = .revocations
            case "healthz": self = .health
            case "readyz": self = .ready
            case "metrics": self = .metrics
            case "changes": self = .changes
            default: return nil
            }
        case 2 where segments[0] == "players":
            guard let playerID = Self.decode(segments[1]) else { return nil }
            self = .player(playerID)
        case 2 where segments == ["appstore", "notifications"]: self = .appStoreNotifications
        case 2 where segments == ["playstore", "notifications"]: self = .playNotifications
        case 3 where segments[0] == "players":
            guard let playerID = Self.decode(segments[1]) else { return nil }
            switch segments[2] {
            case "entitlements": self = .entitlements(playerID)
            case "eligibility": self = .eligibility(playerID)
            case "subscriptions": self = .subscriptions(playerID)
            case "history": self = .history(playerID)
            case "reset": self = .reset(playerID)
            case "restore": self = .restore(playerID)
            default: return nil
            }
        default: return nil
        }
    }

    /// The one method the route takes.
    var method: String {
        switch self {
        case .purchases, .operations, .revocations, .reset, .restore, .appStoreNotifications, .playNotifications: "POST"
        case .player, .entitlements, .eligibility, .subscriptions, .history, .changes, .health, .ready, .metrics: "GET"
        }
    }

    /// Whether the route serves the game (and so needs the bearer token when one is set).
    var isGameFacing: Bool {
        switch self {
        case .purchases, .operations, .revocations, .reset, .restore, .player, .entitlements, .eligibility, .subscriptions, .history,
            .changes:
            true
        case .appStoreNotifications, .playNotifications, .health, .ready, .metrics: false
        }
    }

    /// A path segment percent-decoded, when it is non-empty and within the ID limit.
    private static func decode(_ segment: String) -> String? {
        guard let decoded = segment.removingPercentEncoding, !decoded.isEmpty,
            decoded.utf8.count <= LedgerHTTPHandler.playerIDByteCountMax
        else { return nil }
        return decoded
    }
}
