import AppStoreAdapter
import Foundation

/// The App Store Server API options of the `ledger appstore` commands that ask Apple:
/// `--key FILE --key-id ID --issuer-id ID [--api-base URL]` beside the verifier's `--root`,
/// `--bundle-id` and `--environment`, which also check every JWS Apple returns.
enum AppStoreAPIOptions {
    /// The group of the API's own options.
    static let group = OptionGroup(
        title: "App Store Server API",
        summary: "The in-app purchase key that signs the requests (App Store Connect > Users and Access > Integrations > "
            + "In-App Purchase), beside the App Store signed-data options, which also check every JWS Apple returns.")
    /// `--key FILE.p8`.
    static let key = CommandOption("key", "FILE.p8", help: "the App Store Server API in-app purchase key", group: group)
    /// `--key-id ID`.
    static let keyID = CommandOption("key-id", "ID", help: "the key's ID", group: group)
    /// `--issuer-id ID`.
    static let issuerID = CommandOption("issuer-id", "ID", help: "the issuer ID shown above the keys", group: group)
    /// `--api-base URL`.
    static let apiBase = CommandOption("api-base", "URL", help: "the API root instead of Apple's host for --environment", group: group)
    /// Every option a command that may ask Apple takes.
    static let options = [key, keyID, issuerID, apiBase] + AppStoreCommands.verifierOptions
    /// Every option a command that always asks Apple takes: the key required.
    static let requiredOptions = [key.required, keyID.required, issuerID.required, apiBase] + AppStoreCommands.verifierOptions

    /// The client the options describe; `--key`, `--key-id` and `--issuer-id` are required.
    static func client(_ arguments: Arguments) throws(Arguments.UsageError) -> AppStoreServerAPIClient {
        let (verifier, _) = try AppStoreCommands.signedDataVerifier(arguments)
        return try client(
            keyPath: try arguments.required(key), keyID: try arguments.required(keyID),
            issuerID: try arguments.required(issuerID), apiBase: arguments.value(apiBase),
            apiBaseOption: apiBase.name, verifier: verifier)
    }

    /// A client for the key at `keyPath`, over `verifier`, at `apiBase` if given (an http or
    /// https URL, named `--apiBaseOption` in errors).
    static func client(
        keyPath: String, keyID: String, issuerID: String, apiBase: String?, apiBaseOption: String,
        verifier: SignedDataVerifier
    ) throws(Arguments.UsageError) -> AppStoreServerAPIClient {
        var base: URL?
        if let apiBase {
            guard let url = URL(string: apiBase), url.scheme == "https" || url.scheme == "http", url.host != nil else {
                throw Arguments.UsageError(message: "--\(apiBaseOption) \(apiBase): expected an http(s) URL")
            }
            base = url
        }
        do throws(AppStoreServerAPIError) {
            return try AppStoreServerAPIClient(
                key: try AppStoreAPISigningKey(contentsOfFile: keyPath), keyID: keyID, issuerID: issuerID,
                verifier: verifier, baseURL: base)
        } catch {
            throw Arguments.UsageError(message: "cannot use the App Store Server API key: \(error)")
        }
    }

    // MARK: - Beside the Play options

    /// `serve`'s and `recover`'s App Store options: prefixed, because `--environment` and
    /// `--api-base` there are the Play options'.
    static let prefixedGroup = OptionGroup(
        title: "App Store beside Google Play",
        summary: "`ledger serve`'s and `ledger recover`'s App Store options, prefixed where the Play options take the "
            + "plain name. `--root` enables signed transactions and App Store notifications; `--app-store-key` (which "
            + "needs `--root`) purchases by transaction ID alone, finished on Apple's server, the App Store reconcile "
            + "and the account routes.")
    /// `--root CERT.der`, optional here.
    static let prefixedRoot = CommandOption(
        "root", "CERT.der", kind: .repeatable, help: "App Store: a trusted root certificate (DER), with --bundle-id",
        group: prefixedGroup)
    /// `--bundle-id ID`.
    static let prefixedBundleID = CommandOption("bundle-id", "ID", help: "App Store: the app's bundle ID", group: prefixedGroup)
    /// `--app-store-environment E`.
    static let prefixedEnvironment = CommandOption(
        "app-store-environment", "E", constraint: .choices(AppStoreCommands.environments),
        help: "App Store: the environment, with --root", group: prefixedGroup)
    /// `--app-apple-id N`.
    static let prefixedAppAppleID = CommandOption(
        "app-apple-id", "N", help: "App Store: the app's Apple ID (required for Production)", group: prefixedGroup)
    /// `--app-store-key FILE.p8`.
    static let prefixedKey = CommandOption(
        "app-store-key", "FILE.p8", help: "App Store Server API: the in-app purchase key", group: prefixedGroup)
    /// `--app-store-key-id KID`.
    static let prefixedKeyID = CommandOption("app-store-key-id", "KID", help: "the key's ID", group: prefixedGroup)
    /// `--app-store-issuer ID`.
    static let prefixedIssuer = CommandOption("app-store-issuer", "ID", help: "the issuer ID", group: prefixedGroup)
    /// `--app-store-api-base URL`.
    static let prefixedAPIBase = CommandOption(
        "app-store-api-base", "URL", help: "the App Store Server API root instead of Apple's host", group: prefixedGroup)
    /// The prefixed options.
    static let prefixedOptions = [
        prefixedRoot, prefixedBundleID, prefixedEnvironment, prefixedAppAppleID, prefixedKey, prefixedKeyID, prefixedIssuer,
        prefixedAPIBase,
    ]

    /// The signed-data verifier `--root` configures and the App Store Server API client
    /// `--app-store-key` configures over it (each nil when its option is absent).
    static func prefixed(_ arguments: Arguments) throws(Arguments.UsageError)
        -> (verifier: SignedDataVerifier?, client: AppStoreServerAPIClient?)
    {
        var verifier: SignedDataVerifier?
        if arguments.value(prefixedRoot) != nil {
            verifier = try AppStoreCommands.signedDataVerifier(arguments, environmentOption: prefixedEnvironment).0
        }
        guard let path = arguments.value(prefixedKey) else {
            if arguments.value(prefixedKeyID) != nil || arguments.value(prefixedIssuer) != nil {
                throw Arguments.UsageError(message: "--app-store-key-id and --app-store-issuer need --app-store-key")
            }
            return (verifier, nil)
        }
        guard let verifier else { throw Arguments.UsageError(message: "--app-store-key needs --root and --bundle-id") }
        let client = try client(
            keyPath: path, keyID: try arguments.required(prefixedKeyID),
            issuerID: try arguments.required(prefixedIssuer), apiBase: arguments.value(prefixedAPIBase),
            apiBaseOption: prefixedAPIBase.name, verifier: verifier)
        return (verifier, client)
    }
}
