import AppStoreAdapter
import FulfillmentLedger

/// `ledger appstore verify`: checks one signed payload offline and prints it decoded.
enum AppStoreVerifyCommand {
    /// What `--kind` names.
    static let kinds = ["transaction", "notification", "renewal"]
    /// `--kind K`.
    static let kind = CommandOption(
        "kind", "K", default: "transaction", constraint: .choices(kinds), help: "what the JWS is")

    static let command = Command(
        words: ["appstore", "verify"],
        summary: "verify an App Store JWS offline and print its decoded payload",
        positionals: "FILE",
        description: """
            Verifies a StoreKit 2 signed transaction, signed renewal info or an App Store
            Server Notification V2 (FILE, or - for stdin): 3 segments, alg ES256, an x5c
            chain of 3 certificates valid at the payload's signedDate up to a trusted root,
            Apple's leaf and intermediate OIDs, the ES256 signature, then bundle ID,
            environment and (production notifications) app Apple ID. A notification's
            nested signed transaction and renewal info are verified the same way.

            exit codes: 0 verified (payload printed), 65 not verified (the error body printed:
              {"error": {"code": 7001-7006, "name": "appStore.<status>", "detailCode"?, …}}), 64 usage
            """,
        options: AppStoreCommands.verifierOptions + [kind],
        run: { arguments, io in
            let verifier: SignedDataVerifier
            let jws: String
            let kind = arguments.value(Self.kind) ?? "transaction"
            do throws(Arguments.UsageError) {
                try arguments.expectPositionals(max: 1)
                guard Self.kinds.contains(kind) else {
                    throw Arguments.UsageError(message: "--kind must be transaction, notification or renewal")
                }
                (verifier, _) = try AppStoreCommands.signedDataVerifier(arguments)
                jws = try AppStoreCommands.readJWS(arguments, io: io)
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "appstore verify")
            }
            switch kind {
            case "notification":
                switch verifier.verifyNotification(jws) {
                case .success(let payload): io.printJSON(payload)
                case .failure(let error): return AppStoreCommands.printFailure(error, io: io)
                }
            case "renewal":
                switch verifier.verifyRenewalInfo(jws) {
                case .success(let payload): io.printJSON(payload)
                case .failure(let error): return AppStoreCommands.printFailure(error, io: io)
                }
            default:
                switch verifier.verifyTransaction(jws) {
                case .success(let payload): io.printJSON(payload)
                case .failure(let error): return AppStoreCommands.printFailure(error, io: io)
                }
            }
            return .ok
        })
}
