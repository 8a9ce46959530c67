import AppStoreAdapter
import Foundation

/// The App Store Server API options of the `ledger appstore` commands that ask Apple:
/// `--key FILE --key-id ID --issuer-id ID [--api-base URL]` beside the verifier's `--root`,
/// `--bundle-id` and `--environment`, which also check every JWS Apple returns.
enum AppStoreAPIOptions {
    /// The API's own option names.
    static let names: Set<String> = ["key", "key-id", "issuer-id", "api-base"]
    /// Every value option a command that asks Apple takes.
    static let valueOptions = names.union(AppStoreCommands.verifierOptions)

    static let help = """
          --key FILE.p8        the App Store Server API in-app purchase key (App Store Connect >
                               Users and Access > Integrations > In-App Purchase)
          --key-id ID          the key's ID
          --issuer-id ID       the issuer ID shown above the keys
          --api-base URL       the API root instead of Apple's host for --environment
        \(AppStoreCommands.verifierHelp)
        """

    /// The client the options describe; `--key`, `--key-id` and `--issuer-id` are required.
    static func client(_ arguments: Arguments) throws(Arguments.UsageError) -> AppStoreServerAPIClient {
        let (verifier, _) = try AppStoreCommands.signedDataVerifier(arguments)
        return try client(
            keyPath: try arguments.required("key"), keyID: try arguments.required("key-id"),
            issuerID: try arguments.required("issuer-id"), apiBase: arguments.value("api-base"),
            apiBaseOption: "api-base", verifier: verifier)
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
    static let prefixedNames: Set<String> = [
        "root", "bundle-id", "app-store-environment", "app-apple-id", "app-store-key", "app-store-key-id",
        "app-store-issuer", "app-store-api-base",
    ]

    static let prefixedHelp = """
          --root CERT.der         App Store: Apple's root (repeatable), with --bundle-id ID
                                  and --app-store-environment E (Production, Sandbox,
                                  Xcode, LocalTesting), [--app-apple-id N]
          --app-store-key FILE.p8 App Store Server API: the in-app purchase key, with
                                  --app-store-key-id KID and --app-store-issuer ID
                                  [--app-store-api-base URL]; needs --root. Purchases by
                                  transaction ID alone, finished on Apple's server
        """

    /// The signed-data verifier `--root` configures and the App Store Server API client
    /// `--app-store-key` configures over it (each nil when its option is absent).
    static func prefixed(_ arguments: Arguments) throws(Arguments.UsageError)
        -> (verifier: SignedDataVerifier?, client: AppStoreServerAPIClient?)
    {
        var verifier: SignedDataVerifier?
        if arguments.value("root") != nil {
            verifier = try AppStoreCommands.signedDataVerifier(arguments, environmentOption: "app-store-environment").0
        }
        guard let path = arguments.value("app-store-key") else {
            if arguments.value("app-store-key-id") != nil || arguments.value("app-store-issuer") != nil {
                throw Arguments.UsageError(message: "--app-store-key-id and --app-store-issuer need --app-store-key")
            }
            return (verifier, nil)
        }
        guard let verifier else { throw Arguments.UsageError(message: "--app-store-key needs --root and --bundle-id") }
        let client = try client(
            keyPath: path, keyID: try arguments.required("app-store-key-id"),
            issuerID: try arguments.required("app-store-issuer"), apiBase: arguments.value("app-store-api-base"),
            apiBaseOption: "app-store-api-base", verifier: verifier)
        return (verifier, client)
    }
}
