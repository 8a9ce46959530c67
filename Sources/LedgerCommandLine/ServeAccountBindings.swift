import AppStoreAdapter
import FulfillmentLedger

/// `ledger serve`'s account bindings: `--account-binding B` for every store, and
/// `--store-account-binding STORE=B` (repeatable) in its place for one store.
struct ServeAccountBindings {
    /// How a player ID becomes the account ID a store reports.
    enum Binding: String {
        /// The account ID is the player ID itself.
        case identity
        /// The account ID is `AppAccountToken.forPlayer(playerID)`, a UUID.
        case appAccountToken = "app-account-token"

        /// The binding as the ledger configuration takes it.
        var function: @Sendable (String) -> String {
            switch self {
            case .identity: { $0 }
            case .appAccountToken: { AppAccountToken.forPlayer($0) }
            }
        }
    }

    /// Stores `--store-account-binding` may name.
    static let stores: [PlatformStore] = [.appStore, .playStore, .stripe, .test]

    /// `--account-binding B`.
    static let accountBinding = CommandOption(
        "account-binding", "B", default: Binding.identity.rawValue,
        constraint: .choices([Binding.identity.rawValue, Binding.appAccountToken.rawValue]),
        help: "how a player ID becomes the account ID the stores report: itself, or AppAccountToken.forPlayer")
    /// `--store-account-binding STORE=B`.
    static let storeAccountBinding = CommandOption(
        "store-account-binding", "STORE=B", kind: .repeatable,
        help: "B for one store (\(stores.map(\.rawValue).joined(separator: ", "))) in place of --account-binding")
    /// The options.
    static let options = [accountBinding, storeAccountBinding]

    var all: Binding
    var byStore: [PlatformStore: Binding] = [:]

    /// Reads the options; an unknown binding or store is a usage error.
    init(_ arguments: Arguments) throws(Arguments.UsageError) {
        all = try Self.binding(arguments.value(Self.accountBinding) ?? "identity", option: "--account-binding")
        for text in arguments.values(Self.storeAccountBinding).prefix(Self.stores.count + 1) {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let store = Self.stores.first(where: { $0.rawValue == parts[0] }) else {
                let names = Self.stores.map(\.rawValue).joined(separator: ", ")
                throw Arguments.UsageError(message: "--store-account-binding \(text): expected STORE=B with STORE one of \(names)")
            }
            guard byStore[store] == nil else {
                throw Arguments.UsageError(message: "--store-account-binding names \(store.rawValue) twice")
            }
            byStore[store] = try Self.binding(parts[1], option: "--store-account-binding \(store.rawValue)")
        }
    }

    /// The binding of `store`.
    func binding(for store: PlatformStore) -> Binding { byStore[store] ?? all }

    /// Sets `configuration`'s bindings. Steam's is always the identity: a Steam order names its
    /// buyer by Steam ID, which `ledger serve` takes as the player ID (Docs/Steam.md).
    func apply(to configuration: inout LedgerConfiguration) {
        configuration.accountBinding = all.function
        configuration.storeAccountBindings = byStore.mapValues(\.function)
        configuration.storeAccountBindings[.steam] = Binding.identity.function
    }

    private static func binding(_ text: String, option: String) throws(Arguments.UsageError) -> Binding {
        guard let binding = Binding(rawValue: text) else {
            throw Arguments.UsageError(message: "\(option) \(text): expected identity or app-account-token")
        }
        return binding
    }
}
