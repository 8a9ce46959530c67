import AppStoreAdapter
import FulfillmentLedger
import PlayStoreAdapter
import SteamAdapter
import StripeAdapter
import TestStoreAdapter

/// The store ports an operator command runs on, each from its flags: no command ever fakes a
/// store. A store without a configured port is wired to one that refuses and says which flag
/// it needs, so its pending finishes stay pending and are reported, never marked finished.
///
/// - Google Play: `--package NAME` with `--service-account FILE [--api-base URL]` (the Play
///   Developer API) or `--purchases FILE` (offline trials).
/// - App Store: the finish port's documented meaning (`AppStoreFinisher`: the client calls
///   `Transaction.finish()` once told; the server has nothing to call). App Store transactions
///   are verified by the command's own signed-data verifier when it has one (`ledger serve
///   --root …`, `ledger appstore fulfill`), else refused.
/// - The test store, for `test` transactions only, and only on a sandbox ledger.
struct StorePortOptions {
    /// The group of the options.
    static let group = OptionGroup(
        title: "Store ports",
        summary: "What the ledger serves, and Google Play's port: `--package` with `--service-account` (the Play "
            + "Developer API) or `--purchases` (offline trials). A store without a port refuses and names the flags it needs.")
    /// `--environment E`.
    static let environment = CommandOption(
        "environment", "E", default: "sandbox", constraint: .choices(["sandbox", "production"]),
        help: "what the ledger serves; the test store is wired on a sandbox ledger only", group: group)
    /// `--package NAME`.
    static let package = CommandOption("package", "NAME", help: "Google Play: the app's package name", group: group)
    /// `--service-account FILE`.
    static let serviceAccount = CommandOption(
        "service-account", "FILE", help: "Google Play: a service-account JSON key (calls the Play Developer API)", group: group)
    /// `--api-base URL`.
    static let apiBase = CommandOption(
        "api-base", "URL", default: "https://androidpublisher.googleapis.com", help: "Google Play: the API root", group: group)
    /// `--purchases FILE`.
    static let purchases = CommandOption(
        "purchases", "FILE",
        help: #"Google Play: answer from a JSON file instead (offline trials): {"purchases": {TOKEN: {...}}, "subscriptions": {TOKEN: {...}}, "voided": [...]}, Google's own documents, read strictly (another section is a usage error)"#,
        group: group)
    /// The options every command that builds a ledger takes.
    static let options = [environment, package, serviceAccount, apiBase, purchases]
    /// The same, for a command that needs Google Play: `--package` required.
    static let playOptions = [environment, package.required, serviceAccount, apiBase, purchases]

    /// What a command tells an operator to pass when a Play port is missing.
    static let playHint = "pass --package NAME with --service-account FILE [--api-base URL] or --purchases FILE"

    var environment: StoreEnvironment
    /// The verifier of each store but Google Play's, which `verifier(for:)` adds with the catalog.
    private var verifiers: [PlatformStore: any TransactionVerifier]
    /// The finisher of each store but Google Play's, which `finisher(for:)` adds.
    private var finishers: [PlatformStore: any PlatformFinisher]
    /// The Play Developer API and package the flags name, when they name one.
    var play: (api: any PlayPurchasesAPI, packageName: String)?

    /// Reads the options; a malformed one is a usage error. App Store transactions are
    /// verified with `appStore` when the command built one from its own flags.
    init(
        _ arguments: Arguments, appStore: SignedDataVerifier? = nil, appStoreServerAPI: AppStoreServerAPIClient? = nil,
        stripe: StripeAPIClient? = nil, steam: SteamWebAPIClient? = nil
    ) throws(Arguments.UsageError) {
        environment = try PlayStoreCommands.environment(arguments)
        var verifiers: [PlatformStore: any TransactionVerifier] = [
            .appStore: UnconfiguredStore(store: .appStore, hint: "verify App Store transactions with ledger appstore fulfill"),
            .playStore: UnconfiguredStore(store: .playStore, hint: Self.playHint),
        ]
        var finishers: [PlatformStore: any PlatformFinisher] = [
            .appStore: AppStoreFinisher(),
            .playStore: UnconfiguredStore(store: .playStore, hint: Self.playHint),
        ]
        // A command that takes no Google Play option (the Steam commands) has no Play port.
        let takesPlay = arguments.declares(Self.package)
        if takesPlay, arguments.value(Self.serviceAccount) != nil || arguments.value(Self.purchases) != nil {
            let api = try PlayStoreCommands.api(arguments)
            let package = try arguments.required(Self.package)
            play = (api, package)
        } else if takesPlay, arguments.value(Self.package) != nil || arguments.value(Self.apiBase) != nil {
            throw Arguments.UsageError(message: "--package and --api-base need --service-account or --purchases")
        }
        if let appStore { verifiers[.appStore] = AppStoreTransactionVerifier(signedDataVerifier: appStore) }
        if let appStoreServerAPI {
            // By transaction ID, or a JWS checked against Apple's answer; finished on Apple's server.
            verifiers[.appStore] = AppStoreServerTransactionVerifier(client: appStoreServerAPI)
            finishers[.appStore] = AppStoreServerFinisher(client: appStoreServerAPI)
        }
        if let stripe {
            // Confirmed with Stripe's API; Stripe has nothing to finish.
            verifiers[.stripe] = StripeCheckoutVerifier(api: stripe, environment: environment)
            finishers[.stripe] = StripeFinisher()
        }
        if let steam {
            // Confirmed with QueryTxn; FinalizeTxn comes before the grant, so nothing to finish.
            verifiers[.steam] = SteamOrderVerifier(api: steam, environment: environment)
            finishers[.steam] = SteamFinisher()
        }
        if environment != .production {
            verifiers[.test] = TestStoreVerifier()
            finishers[.test] = TestStoreFinisher()
        }
        self.verifiers = verifiers
        self.finishers = finishers
    }

    /// The verifier routing each store to its port. Google Play's, when the flags configure it,
    /// reads the catalog's Play subscriptions with `subscriptionsv2`, so it is built from the
    /// catalog the command loaded.
    func verifier(for catalog: ProductCatalog) -> any TransactionVerifier {
        var verifiers = self.verifiers
        if let (api, package) = play {
            verifiers[.playStore] = PlayPurchaseVerifier(
                api: api, packageName: package, environment: environment,
                subscriptionStoreProductIDs: catalog.playSubscriptionStoreProductIDs)
        }
        return StoreRoutingVerifier(verifiers)
    }

    /// The finish port of every store. Google Play's attributes a resubscription made in the Play
    /// Store to the account `configuration` binds its player to (`PlayFinisher.attributionAccountID`).
    func finisher(for configuration: LedgerConfiguration) -> any PlatformFinisher {
        var finishers = self.finishers
        if let (api, package) = play {
            finishers[.playStore] = PlayFinisher(
                api: api, packageName: package,
                attributionAccountID: { configuration.accountBinding(for: .playStore, playerID: $0) })
        }
        return StoreRoutingFinisher(finishers)
    }

    /// The test store alone on a sandbox ledger, for commands that read test-store documents
    /// and take no store flags.
    static var testStoreOnly: StorePortOptions {
        StorePortOptions(
            environment: .sandbox,
            verifiers: [.test: TestStoreVerifier()],
            finishers: [
                .test: TestStoreFinisher(), .appStore: AppStoreFinisher(),
                .playStore: UnconfiguredStore(store: .playStore, hint: playHint),
            ])
    }

    private init(
        environment: StoreEnvironment, verifiers: [PlatformStore: any TransactionVerifier],
        finishers: [PlatformStore: any PlatformFinisher]
    ) {
        self.environment = environment
        self.verifiers = verifiers
        self.finishers = finishers
    }
}

/// A store no flag configured a port for: verifying answers `invalid` and finishing fails,
/// each naming the flags it needs, so nothing is granted or marked finished without the store.
struct UnconfiguredStore: TransactionVerifier, PlatformFinisher {
    let store: PlatformStore
    let hint: String

    /// Any environment: the refusal does not depend on it.
    var supportedEnvironments: Set<StoreEnvironment> { [.sandbox, .production] }

    func verify(_ submission: TransactionSubmission) async throws(LedgerError) -> VerificationResult {
        .invalid(reason: "no \(store) port is configured: \(hint)")
    }

    func finish(_ request: FinishRequest) async throws(LedgerError) {
        throw LedgerError.finishFailed("no \(store) finish port is configured for \(request.key): \(hint)")
    }
}
