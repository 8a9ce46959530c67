import Foundation
import FulfillmentLedger
import SteamAdapter

/// The Steam options `ledger steam …` and `ledger serve` take: the publisher Web API key, read
/// from an environment variable the option names (never from the command line, where other users
/// can read it, nor from a file in a repository), the App ID and the API root. `--environment
/// sandbox` (the default) calls `ISteamMicroTxnSandbox`, `production` `ISteamMicroTxn`.
struct SteamOptions {
    /// The group of the options.
    static let group = OptionGroup(
        title: "Steam",
        summary: "Steam's publisher Web API key, read from the environment variable an option names, and the game's "
            + "App ID. `--environment sandbox` (the default) calls ISteamMicroTxnSandbox, `production` ISteamMicroTxn. "
            + "`--steam-api-key-env` needs `--steam-app-id`; the others need `--steam-api-key-env`.")
    /// `--steam-api-key-env VAR`.
    static let apiKeyEnv = CommandOption(
        "steam-api-key-env", "VAR", help: "the variable holding the publisher Web API key (with the Microtransactions permission)",
        group: group)
    /// `--steam-app-id N`.
    static let appID = CommandOption(
        "steam-app-id", "N", constraint: .integers(1...Int(UInt32.max)), help: "the game's App ID", group: group)
    /// `--steam-api-base URL`.
    static let apiBase = CommandOption(
        "steam-api-base", "URL", default: SteamWebAPIClient.baseURLDefault.absoluteString, help: "the API root", group: group)
    /// The options.
    static let options = [apiKeyEnv, appID, apiBase]

    /// The API the key reaches.
    var api: SteamWebAPIClient

    /// The options, when `--steam-api-key-env` is given; nil when no Steam option is.
    static func parse(_ arguments: Arguments, io: CommandIO, environment: StoreEnvironment) throws(Arguments.UsageError)
        -> SteamOptions?
    {
        guard let keyVariable = arguments.value(apiKeyEnv) else {
            if let other = options.dropFirst().sorted(by: { $0.name < $1.name }).first(where: { arguments.value($0) != nil }) {
                throw Arguments.UsageError(message: "--\(other.name) needs --steam-api-key-env")
            }
            return nil
        }
        guard let appIDText = arguments.value(Self.appID) else {
            throw Arguments.UsageError(message: "--steam-api-key-env needs --steam-app-id")
        }
        guard let appID = UInt32(appIDText), appID != 0, String(appID) == appIDText else {
            throw Arguments.UsageError(message: "--steam-app-id \(appIDText): expected a whole number in 1...4294967295")
        }
        guard let key = io.environmentValue(keyVariable), !key.isEmpty else {
            throw Arguments.UsageError(message: "--steam-api-key-env \(keyVariable): the variable is unset or empty")
        }
        var base = SteamWebAPIClient.baseURLDefault
        if let text = arguments.value(apiBase) {
            guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http", url.host != nil else {
                throw Arguments.UsageError(message: "--steam-api-base \(text) is not an http(s) URL")
            }
            base = url
        }
        guard let api = SteamWebAPIClient(key: key, appID: appID, sandbox: environment != .production, baseURL: base) else {
            throw Arguments.UsageError(message: "--steam-api-key-env \(keyVariable): the key holds spaces or control characters")
        }
        return SteamOptions(api: api)
    }
}
