/// Why a Steam Web API call gave no answer to use. Only infrastructure and configuration fail
/// this way; Steam's own refusals (`"result": "Failure"`) are values (`SteamFailure`).
public enum SteamAPIError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 401 or 403: the key is not a publisher key with the Microtransactions permission, or
    /// not for this app, or the server's IP is not on the key's allow-list. Fix the configuration.
    case unauthorized(statusCode: Int, detail: String)
    /// Steam refused the request with another 4xx (a malformed parameter).
    case rejected(statusCode: Int, detail: String)
    /// 429, 5xx or a transient transport failure outlasted the retries: try again later.
    case unavailable(String)
    /// A transport failure retrying cannot fix (a bad URL, TLS), or InitTxn's request was lost:
    /// Steam says to abandon that order and start a new one.
    case transport(String)
    /// The answer is not what was asked for, or breaks a limit: its reason.
    case invalidResponse(String)

    /// The stable code (Docs/ErrorCodes.md).
    public var code: Int {
        switch self {
        case .unauthorized: 11101
        case .rejected: 11102
        case .unavailable: 11103
        case .transport: 11104
        case .invalidResponse: 11105
        }
    }

    /// Whether the same call later may succeed.
    public var isRetryable: Bool {
        if case .unavailable = self { return true }
        return false
    }

    /// The failure in words.
    public var description: String {
        switch self {
        case .unauthorized(let status, let detail): "Steam refused the key (HTTP \(status)): \(detail)"
        case .rejected(let status, let detail): "Steam refused the request (HTTP \(status)): \(detail)"
        case .unavailable(let detail): "Steam is unavailable: \(detail)"
        case .transport(let detail): "cannot reach Steam: \(detail)"
        case .invalidResponse(let detail): "Steam's answer is unusable: \(detail)"
        }
    }
}
