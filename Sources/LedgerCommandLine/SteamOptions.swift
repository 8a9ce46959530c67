import Foundation
import FulfillmentLedger
import SteamAdapter

/// The Steam options `ledger steam …` and `ledger serve` take: the publisher Web API key, read
/// from an environment variable the option names (never from the command line, where other users
/// can read it, nor from a file in a repository), the App ID and the API root. `--environment
/// sandbox` (the default) calls `ISteamMicroTxnSandbox`, `production` `ISteamMicroTxn`.
struct SteamOptions {
    /// The options' names.
    static let names: Set<String> = ["steam-api-key-env", "steam-app-id", "steam-api-base"]

    /// Help lines for the options.
    static let help = """
          --steam-api-key-env VAR   Steam: the variable holding the publisher Web API key
                                    (with the Microtransactions permission), with
          --steam-app-id N          the game's App ID (1...4294967295)
          --steam-api-base URL      the API root (default https://partner.steam-api.com);
                                    --environment sandbox (the default) calls
                                    ISteamMicroTxnSandbox, production ISteamMicroTxn
        """

    /// The API the key reaches.
    var api: SteamWebAPIClient

    /// The options, when `--steam-api-key-env` is given; nil when no Steam option is.
    static func parse(_ arguments: Arguments, io: CommandIO, environment: StoreEnvironment) throws(Arguments.UsageError)
        -> SteamOptions?
    {
        guard let keyVariable = arguments.value("steam-api-key-env") else {
            if let other = names.subtracting(["steam-api-key-env"]).sorted().first(where: { arguments.value($0) != nil }) {
                throw Arguments.UsageError(message: "--\(other) needs --steam-api-key-env")
            }
            return nil
        }
        guard let appIDText = arguments.value("steam-app-id") else {
            throw Arguments.UsageError(message: "--steam-api-key-env needs --steam-app-id")
        }
        guard let appID = UInt32(appIDText), appID != 0, String(appID) == appIDText else {
            throw Arguments.UsageError(message: "--steam-app-id \(appIDText): expected a whole number in 1...4294967295")
        }
        guard let key = io.environmentValue(keyVariable), !key.isEmpty else {
            throw Arguments.UsageError(message: "--steam-api-key-env \(keyVariable): the variable is unset or empty")
        }
        var base = SteamWebAPIClient.baseURLDefault
        if let text = arguments.value("steam-api-base") {
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
