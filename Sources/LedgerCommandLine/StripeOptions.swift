import Foundation
import FulfillmentLedger
import StripeAdapter

/// The Stripe options `ledger stripe webhook` and `ledger serve` take: the secret key and the
/// webhook signing secrets, each read from an environment variable the option names (never from
/// the command line, where other users can read it, nor from a file in a repository).
struct StripeOptions {
    /// The group of the options.
    static let group = OptionGroup(
        title: "Stripe",
        summary: "Stripe's secret key and webhook signing secrets, each read from the environment variable an option "
            + "names, never from the command line. `--stripe-api-key-env` needs `--stripe-webhook-secret-env`; the "
            + "others need `--stripe-api-key-env`.")
    /// `--stripe-api-key-env VAR`.
    static let apiKeyEnv = CommandOption(
        "stripe-api-key-env", "VAR",
        help: "the variable holding the secret key (sk_…, or a restricted rk_… key that reads Checkout Sessions, charges and disputes)",
        group: group)
    /// `--stripe-webhook-secret-env VAR`.
    static let webhookSecretEnv = CommandOption(
        "stripe-webhook-secret-env", "VAR",
        help: "the variable holding the endpoint's signing secret (whsec_…; two, comma-separated, while one is rolled)",
        group: group)
    /// `--stripe-api-base URL`.
    static let apiBase = CommandOption(
        "stripe-api-base", "URL", default: StripeAPIClient.baseURLDefault.absoluteString, help: "the API root", group: group)
    /// `--stripe-tolerance-seconds N`.
    static let toleranceSeconds = CommandOption.integer(
        "stripe-tolerance-seconds", default: Int(StripeWebhookAuthenticator.toleranceSecondsDefault),
        range: 1...Int(StripeWebhookAuthenticator.toleranceSecondsMax),
        help: "how far a webhook's signed time may be from the clock", group: group)
    /// The options.
    static let options = [apiKeyEnv, webhookSecretEnv, apiBase, toleranceSeconds]

    /// The API the key reaches.
    var api: StripeAPIClient
    /// Checks webhooks' signatures.
    var authenticator: StripeWebhookAuthenticator

    /// The options, when `--stripe-api-key-env` is given; nil when no Stripe option is.
    static func parse(_ arguments: Arguments, io: CommandIO) throws(Arguments.UsageError) -> StripeOptions? {
        guard let keyVariable = arguments.value(apiKeyEnv) else {
            if let other = options.dropFirst().sorted(by: { $0.name < $1.name }).first(where: { arguments.value($0) != nil }) {
                throw Arguments.UsageError(message: "--\(other.name) needs --stripe-api-key-env")
            }
            return nil
        }
        guard let secretVariable = arguments.value(webhookSecretEnv) else {
            throw Arguments.UsageError(message: "--stripe-api-key-env needs --stripe-webhook-secret-env")
        }
        guard let key = io.environmentValue(keyVariable), !key.isEmpty else {
            throw Arguments.UsageError(message: "--stripe-api-key-env \(keyVariable): the variable is unset or empty")
        }
        let secrets = (io.environmentValue(secretVariable) ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        let tolerance = try arguments.integer(toleranceSeconds)
        guard let authenticator = StripeWebhookAuthenticator(secrets: secrets, toleranceSeconds: Int64(tolerance)) else {
            throw Arguments.UsageError(
                message: "--stripe-webhook-secret-env \(secretVariable): the variable must hold 1 to \(StripeWebhookAuthenticator.secretCountMax) secrets")
        }
        var base = StripeAPIClient.baseURLDefault
        if let text = arguments.value(apiBase) {
            guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http", url.host != nil else {
                throw Arguments.UsageError(message: "--stripe-api-base \(text) is not an http(s) URL")
            }
            base = url
        }
        guard let api = StripeAPIClient(secretKey: key, baseURL: base) else {
            throw Arguments.UsageError(message: "--stripe-api-key-env \(keyVariable): the key holds spaces or control characters")
        }
        return StripeOptions(api: api, authenticator: authenticator)
    }
}
