import Foundation
import FulfillmentLedger
import StripeAdapter

/// `ledger stripe webhook`: one Stripe webhook, read from stdin, into the ledger.
enum StripeWebhookCommand {
    /// The environment variable holding the webhook's `Stripe-Signature` header when
    /// `--signature` is not given.
    static let signatureVariable = "LEDGER_STRIPE_SIGNATURE"

    /// `--signature HEADER`.
    static let signature = CommandOption(
        "signature", "HEADER", default: "$\(signatureVariable)",
        help: "the webhook's Stripe-Signature header; prefer the variable, which other users cannot see")

    static let command = Command(
        words: ["stripe", "webhook"],
        summary: "apply one Stripe webhook read from stdin",
        description: """
            Reads one webhook body on stdin, exactly as Stripe sent it. Its Stripe-Signature
            header (--signature, else the environment variable \(signatureVariable)) must be
            Stripe's HMAC-SHA256 of the body under the endpoint's signing secret, signed within
            the tolerance; otherwise nothing is read or recorded. An authenticated event is
            applied once by its ID: a paid Checkout Session (checkout.session.completed,
            checkout.session.async_payment_succeeded) is read again from Stripe's API and each
            line item granted to the player the game set (client_reference_id); a refund
            (charge.refunded, refund.updated) takes back, unit by unit, what the charge's
            cumulative amount_refunded pays for; a dispute's funds withdrawn take back, and
            reinstated give back. Stripe's answer is always read again; the webhook's copy is
            never trusted. Prints the outcome as JSON. The database must exist.

            exit codes: 0 processed (or already processed, or nothing to do), 3 rejected (or
              a line item or refund rejected), 77 the signature did not authenticate,
              1 infrastructure error (answer 5xx, Stripe delivers it again), 64 usage,
              65 invalid input or catalog, 66 database or catalog missing
            """,
        options: [LedgerDatabase.option, CommonOptions.catalog.required, signature, StorePortOptions.environment.helping("sandbox (Stripe's test mode) or production"), StripeOptions.apiKeyEnv.required, StripeOptions.webhookSecretEnv.required, StripeOptions.apiBase, StripeOptions.toleranceSeconds],
        run: { arguments, io in await run(arguments, io: io) })

    static func run(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let database: LedgerDatabase
        let stripe: StripeOptions
        let environment: StoreEnvironment
        do throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 0)
            database = try LedgerDatabase(arguments, io: io)
            _ = try arguments.required(CommonOptions.catalog)
            environment = try PlayStoreCommands.environment(arguments)
            guard let parsed = try StripeOptions.parse(arguments, io: io) else {
                throw Arguments.UsageError(message: "--stripe-api-key-env and --stripe-webhook-secret-env are required")
            }
            stripe = parsed
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "stripe webhook")
        }
        let signature = arguments.value(Self.signature) ?? io.environmentValue(signatureVariable)
        guard let body = io.readInput(StripeWebhookAuthenticator.bodyByteCountMax) else {
            io.printError("ledger stripe webhook: stdin is larger than \(StripeWebhookAuthenticator.bodyByteCountMax) bytes")
            return .dataError
        }
        do throws(LedgerError) {
            let catalog = try CatalogLoader.load(path: arguments.value(CommonOptions.catalog) ?? "")
            return try await LedgerSetup.withStore(database, createIfMissing: false) { store throws(LedgerError) in
                let ledger = try Ledger(
                    catalog: catalog, store: store,
                    verifier: StoreRoutingVerifier([.stripe: StripeCheckoutVerifier(api: stripe.api, environment: environment)]),
                    finisher: StoreRoutingFinisher([.stripe: StripeFinisher()]),
                    configuration: LedgerConfiguration(environment: environment))
                let processor = StripeWebhookProcessor(api: stripe.api, ledger: ledger, authenticator: stripe.authenticator)
                let outcome = try await processor.process(signatureHeader: signature, body: Array(body))
                io.printJSON(outcome)
                return exitCode(outcome)
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "stripe webhook")
        }
    }

    /// The exit code of an outcome.
    static func exitCode(_ outcome: StripeWebhookOutcome) -> ExitCode {
        switch outcome {
        case .unauthenticated: .noPermission
        case .rejected: .rejected
        case .fulfilled(_, let outcomes): outcomes.allSatisfy { $0.rejection == nil } ? .ok : .rejected
        case .revocations(_, let outcomes): outcomes.allSatisfy { $0.record != nil } ? .ok : .rejected
        case .duplicate, .unassigned, .nothingToDo: .ok
        }
    }
}
