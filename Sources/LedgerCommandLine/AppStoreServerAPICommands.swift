import AppStoreAdapter
import Foundation
import FulfillmentLedger

/// `ledger appstore lookup|history|token`: read-only questions to the App Store Server API.
enum AppStoreServerAPICommands {
    /// Most pages `history` reads unless told (`--page-count-max`), and the most it may be told.
    static let historyPageCountMaxDefault = 10
    static let historyPageCountMaxLimit = AppStoreServerAPIClient.pageCountMaxDefault
    /// `--page-count-max N` of `appstore history`.
    static let historyPageCountMax = CommandOption.integer(
        "page-count-max", default: historyPageCountMaxDefault, range: 1...historyPageCountMaxLimit, help: "pages to read at most")

    static let apiExitCodes = """
        exit codes: 0 answered, 3 Apple does not know the transaction in this environment,
          1 Apple unavailable or rate limited (retry later), 65 an answer that does not verify,
          77 the key, key ID, issuer ID or bundle ID refused (401/403), 64 usage
        """

    static let lookup = Command(
        words: ["appstore", "lookup"],
        summary: "Get Transaction Info from the App Store Server API, verified",
        description: """
            Asks Apple for the transaction (Get Transaction Info), verifies the signed answer
            and prints {"found": true, "transaction": …} with the decoded payload, or
            {"found": false, …} with Apple's error when the ID is unknown in this environment
            (a sandbox transaction asked of production, too). Changes nothing.

            \(apiExitCodes)
            """,
        options: [CommonOptions.transactionID.required.helping("any transaction ID of the purchase")] + AppStoreAPIOptions.requiredOptions,
        run: { arguments, io in await runLookup(arguments, io: io) })

    static let history = Command(
        words: ["appstore", "history"],
        summary: "Get Transaction History (v2) of a transaction's customer, verified",
        description: """
            Reads the customer's transaction history for the app (Get Transaction History v2:
            every product type, refunded and finished ones included), page after page up to
            N pages of 20 (default \(historyPageCountMaxDefault), at most \(historyPageCountMaxLimit)), verifies every
            signed transaction and prints {"transactions": […], "revision", "hasMore"}.
            hasMore true means the page limit stopped the read. Changes nothing.

            \(apiExitCodes)
            """,
        options: [CommonOptions.transactionID.required.helping("any transaction ID of the customer's"), historyPageCountMax] + AppStoreAPIOptions.requiredOptions,
        run: { arguments, io in await runHistory(arguments, io: io) })

    static let token = Command(
        words: ["appstore", "token"],
        summary: "print an App Store Server API request JWT (for curl, or to check a key)",
        description: """
            Prints one ES256 JWT as every request of the App Store Server API carries it
            (header alg, kid, typ; claims iss, iat, exp 60 minutes on, aud appstoreconnect-v1,
            bid). Nothing is sent. Use it as `Authorization: Bearer <token>`.

            exit codes: 0 printed, 65 the key file is not a usable EC P-256 key, 64 usage
            """,
        options: [AppStoreAPIOptions.key.required, AppStoreAPIOptions.keyID.required, AppStoreAPIOptions.issuerID.required, AppStoreCommands.bundleID],
        run: { arguments, io in runToken(arguments, io: io) })

    struct LookupOutput: Encodable {
        var found: Bool
        var transaction: JWSTransactionDecodedPayload?
        var httpStatusCode: Int?
        var errorCode: Int?
        var errorMessage: String?

        /// Apple's answer to an ID it does not know.
        init(notFound answer: AppStoreAPIErrorResponse) {
            self.init(
                found: false, httpStatusCode: answer.httpStatusCode, errorCode: answer.errorCode?.rawValue,
                errorMessage: answer.errorMessage)
        }

        init(
            found: Bool, transaction: JWSTransactionDecodedPayload? = nil, httpStatusCode: Int? = nil,
            errorCode: Int? = nil, errorMessage: String? = nil
        ) {
            self.found = found
            self.transaction = transaction
            self.httpStatusCode = httpStatusCode
            self.errorCode = errorCode
            self.errorMessage = errorMessage
        }
    }

    struct HistoryOutput: Encodable {
        var transactions: [JWSTransactionDecodedPayload]
        var revision: String?
        var hasMore: Bool
    }

    static func runLookup(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let client: AppStoreServerAPIClient
        let transactionID: String
        do throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 0)
            transactionID = try arguments.required(CommonOptions.transactionID)
            client = try AppStoreAPIOptions.client(arguments)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "appstore lookup")
        }
        do throws(AppStoreServerAPIError) {
            switch try await client.transactionInfo(transactionID: transactionID) {
            case .found(let signed):
                io.printJSON(LookupOutput(found: true, transaction: signed.transaction))
                return .ok
            case .notFound(let answer):
                io.printJSON(LookupOutput(notFound: answer))
                return .rejected
            }
        } catch {
            return report(error, io: io, command: "appstore lookup")
        }
    }

    static func runHistory(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let client: AppStoreServerAPIClient
        let transactionID: String
        let pageCountMax: Int
        do throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 0)
            transactionID = try arguments.required(CommonOptions.transactionID)
            pageCountMax = try arguments.integer(historyPageCountMax)
            client = try AppStoreAPIOptions.client(arguments)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "appstore history")
        }
        do throws(AppStoreServerAPIError) {
            let page = try await client.transactionHistory(transactionID: transactionID, pageCountMax: pageCountMax)
            io.printJSON(
                HistoryOutput(transactions: page.transactions.map(\.transaction), revision: page.revision, hasMore: page.hasMore))
            return .ok
        } catch {
            if case .rejected(let answer) = error, answer.httpStatusCode == 404 {
                io.printJSON(LookupOutput(notFound: answer))
                return .rejected
            }
            return report(error, io: io, command: "appstore history")
        }
    }

    static func runToken(_ arguments: Arguments, io: CommandIO) -> ExitCode {
        let keyPath: String
        let keyID: String
        let issuerID: String
        let bundleID: String
        do throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 0)
            keyPath = try arguments.required(AppStoreAPIOptions.key)
            keyID = try arguments.required(AppStoreAPIOptions.keyID)
            issuerID = try arguments.required(AppStoreAPIOptions.issuerID)
            bundleID = try arguments.required(AppStoreCommands.bundleID)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "appstore token")
        }
        do throws(AppStoreServerAPIError) {
            let provider = AppStoreAPITokenProvider(
                key: try AppStoreAPISigningKey(contentsOfFile: keyPath), keyID: keyID, issuerID: issuerID,
                bundleID: bundleID, clock: SystemClock())
            io.print(try provider.token())
            return .ok
        } catch {
            return report(error, io: io, command: "appstore token")
        }
    }

    /// Prints an API failure as JSON and a line on stderr; its exit code.
    static func report(_ error: AppStoreServerAPIError, io: CommandIO, command: String) -> ExitCode {
        io.printJSON(LedgerErrorBody(error))
        io.printError("ledger \(command): \(error)")
        switch error {
        case .unauthorized: return .noPermission
        case .keyFile, .verification, .invalidResponse: return .dataError
        case .configuration: return .usage
        case .rejected, .rateLimited, .unavailable, .transport: return .failure
        }
    }
}
