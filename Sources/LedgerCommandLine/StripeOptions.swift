import Foundation
import FulfillmentLedger
import StripeAdapter

/// The Stripe options `ledger stripe webhook` and `ledger serve` take: the secret key and the
/// webhook signing secrets, each read from an environment variable the option names (never from
/// the command line, where other users can read it, nor from a file in a repository).
struct StripeOptions {
    /// The options' names.
    static let names: Set<String> = ["stripe-api-key-env", "stripe-webhook-secret-env", "stripe-api-base", "stripe-tolerance-seconds"]

    /// Help lines for the options.
    static let help = """
          --stripe-api-key-env VAR  Stripe: the variable holding the secret key (sk_… or a
                                    restricted rk_… key that reads Checkout Sessions,
                                    charges and disputes), with
          --stripe-webhook-secret-env VAR
                                    the variable holding the endpoint's signing secret
                                    (whsec_…; two, comma-separated, while one is rolled)
          --stripe-api-base URL     the API root (default https://api.stripe.com)
          --stripe-tolerance-seconds N
                                    how far a webhook's signed time may be from the clock
                                    (default 300, 1...3600)
        """

    /// The API the key reaches.
    var api: StripeAPIClient
    /// Checks webhooks' signatures.
    var authenticator: StripeWebhookAuthenticator

    /// The options, when `--stripe-api-key-env` is given; nil when no Stripe option is.
    static func parse(_ arguments: Arguments, io: CommandIO) throws(Arguments.UsageError) -> StripeOptions? {
        guard let keyVariable = arguments.value("stripe-api-key-env") else {
            if let other = names.subtracting(["stripe-api-key-env"]).sorted().first(where: { arguments.value($0) != nil }) {
                throw Arguments.UsageError(message: "--\(other) needs --stripe-api-key-env")
            }
            return nil
        }
        guard let secretVariable = arguments.value("stripe-webhook-secret-env") else {
            throw Arguments.UsageError(message: "--stripe-api-key-env needs --stripe-webhook-secret-env")
        }
        guard let key = io.environmentValue(keyVariable), !key.isEmpty else {
            throw Arguments.UsageError(message: "--stripe-api-key-env \(keyVariable): the variable is unset or empty")
        }
        let secrets = (io.environmentValue(secretVariable) ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        let tolerance = try ServeCommand.Options.integer(
            arguments, "stripe-tolerance-seconds", default: Int(StripeWebhookAuthenticator.toleranceSecondsDefault),
            range: 1...Int(StripeWebhookAuthenticator.toleranceSecondsMax))
        guard let authenticator = StripeWebhookAuthenticator(secrets: secrets, toleranceSeconds: Int64(tolerance)) else {
            throw Arguments.UsageError(
                message: "--stripe-webhook-secret-env \(secretVariable): the variable must hold 1 to \(StripeWebhookAuthenticator.secretCountMax) secrets")
        }
        var base = StripeAPIClient.baseURLDefault
        if let text = arguments.value("stripe-api-base") {
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
