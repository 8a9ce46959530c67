import Foundation
import FulfillmentLedger
import PlayStoreAdapter
import SQLiteLedgerStore

/// `ledger playstore verify|rtdn|voided-sync`: Google Play input, through the Play
/// Developer API or a purchases file.
enum PlayStoreCommands {

    /// The API the options name.
    static func api(_ arguments: Arguments) throws(Arguments.UsageError) -> any PlayPurchasesAPI {
        switch (arguments.value(StorePortOptions.serviceAccount), arguments.value(StorePortOptions.purchases)) {
        case (let key?, nil):
            do throws(PlayAPIError) {
                let credentials = try ServiceAccountCredentials(contentsOfFile: key)
                let tokens = try AccessTokenProvider(credentials: credentials)
                guard let base = URL(string: arguments.value(StorePortOptions.apiBase) ?? PlayDeveloperAPIClient.defaultBaseURL.absoluteString)
                else { throw PlayAPIError.permanent("--api-base is not a URL") }
                return PlayDeveloperAPIClient(tokenSource: tokens, baseURL: base)
            } catch {
                throw Arguments.UsageError(message: "cannot use the service account: \(error)")
            }
        case (nil, let file?): return try PlayPurchasesFile(path: file)
        default: throw Arguments.UsageError(message: "give exactly one of --service-account and --purchases")
        }
    }

    static func environment(_ arguments: Arguments) throws(Arguments.UsageError) -> StoreEnvironment {
        let environment = StoreEnvironment(rawValue: arguments.value(StorePortOptions.environment) ?? "sandbox")
        guard environment == .sandbox || environment == .production else {
            throw Arguments.UsageError(message: "--environment must be sandbox or production")
        }
        return environment
    }

    /// Runs `body` with a ledger whose Play verifier and finisher use `api`, then closes its
    /// store. The player's account binding is its ID itself: set `obfuscatedAccountId` to the
    /// player ID at purchase.
    static func withLedger<T>(
        _ arguments: Arguments, database: LedgerDatabase, api: any PlayPurchasesAPI, package: String,
        environment: StoreEnvironment, _ body: (Ledger) async throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        guard let catalogPath = arguments.value(CommonOptions.catalog) else { throw LedgerError.invalidArgument("--catalog is required") }
        let catalog = try CatalogLoader.load(path: catalogPath)
        let configuration = LedgerConfiguration(environment: environment)
        return try await LedgerSetup.withStore(database, createIfMissing: false) { store throws(LedgerError) in
            try await body(
                try Ledger(
                    catalog: catalog, store: store,
                    verifier: PlayPurchaseVerifier(
                        api: api, packageName: package, environment: environment,
                        subscriptionStoreProductIDs: catalog.playSubscriptionStoreProductIDs),
                    finisher: PlayFinisher(
                        api: api, packageName: package,
                        attributionAccountID: { configuration.accountBinding(for: .playStore, playerID: $0) }),
                    configuration: configuration))
        }
    }

    struct VerifyOutput: Encodable {
        var purchase: ProductPurchase?
        var state: String?
        var quantity: Int?
        var accountBinding: String?
        var environment: String?
    }

    /// `--token T`.
    static let token = CommandOption("token", "T", required: true, help: "the purchase token")
    /// `--product P`.
    static let product = CommandOption("product", "P", required: true, help: "the Play product ID")

    static let verify = Command(
        words: ["playstore", "verify"],
        summary: "look up a Google Play purchase token and print what the ledger would see",
        description: """
            Calls purchases.products.get for the token and prints the purchase and the facts
            the ledger takes from it: state (purchased grants, pending waits, canceled is
            rejected), quantity, account binding (obfuscatedExternalAccountId) and environment
            (a test purchase is always sandbox). Needs --service-account or --purchases.

            exit codes: 0 found, 65 invalid or unknown token, 1 the API could not answer, 64 usage
            """,
        options: [Self.token, Self.product] + StorePortOptions.playOptions,
        run: { arguments, io in
            let api: any PlayPurchasesAPI
            let (token, product, package): (String, String, String)
            let environment: StoreEnvironment
            do throws(Arguments.UsageError) {
                try arguments.expectPositionals(max: 0)
                (token, product, package) = (
                    try arguments.required(Self.token), try arguments.required(Self.product),
                    try arguments.required(StorePortOptions.package)
                )
                api = try Self.api(arguments)
                environment = try Self.environment(arguments)
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "playstore verify")
            }
            do throws(PlayAPIError) {
                let purchase = try await api.productPurchase(packageName: package, storeProductID: product, token: token)
                let verifier = PlayPurchaseVerifier(api: api, packageName: package, environment: environment)
                let facts = verifier.facts(purchase, token: token, storeProductID: product)
                io.printJSON(
                    VerifyOutput(
                        purchase: purchase, state: facts.state.rawValue, quantity: facts.quantity,
                        accountBinding: facts.accountBinding, environment: facts.environment.rawValue))
                return .ok
            } catch {
                io.printJSON(LedgerErrorBody(error))
                switch error {
                case .invalidToken, .notFound: return .dataError
                default: return .failure
                }
            }
        })
}

extension LedgerErrorBody {
    /// The error body of a failed Play Developer API call: its kind's code, `playAPI.<kind>`,
    /// and whether a later retry may succeed.
    init(_ error: PlayAPIError) {
        let kind = error.description.prefix { $0 != ":" }
        self.init(code: error.code, name: "playAPI.\(kind)", message: error.description, retryable: error.isRetryable)
    }
}
