/// The one error body of every edge: the `ledger` commands print it on standard output and the
/// HTTP handlers and server answer with it, whatever failed.
///
/// ```json
/// {"error": {"code": 3003, "name": "input.invalid", "message": "…", "retryable": false,
///            "outcomeUnknown": false, "path": "$.quantyty", "line": 1, "column": 40}}
/// ```
///
/// `code` and `name` are stable (Docs/ErrorCodes.md): a `LedgerError`'s, a store API's, or one
/// of the edges' own (`input.invalid`, `http.*`). `retryable` says whether sending the same
/// request again may succeed; `outcomeUnknown` whether the work may have been done although the
/// call failed (a retry finds out, and the ledger's idempotency keys make it safe). An input
/// error names the first problem's JSON `path` (and its `line` and `column` in the text) and lists
/// every problem in `problems`.
public struct LedgerErrorBody: Error, Hashable, Sendable, Codable {
    /// The error itself.
    public var error: Detail

    /// The members of `error`.
    public struct Detail: Hashable, Sendable, Codable {
        /// The stable numeric code.
        public var code: Int
        /// The stable symbolic name, such as `ledger.storage` or `http.notFound`.
        public var name: String
        /// What was wrong, for people.
        public var message: String
        /// Whether the same request sent again may succeed.
        public var retryable: Bool
        /// Whether the work may have been done although the call failed.
        public var outcomeUnknown: Bool
        /// When the service accepts the next request (ISO 8601), when it said (a rate limit).
        public var retryAfter: String?
        /// A finer code within `code`'s family, when there is one: the `AppStorePayloadError`
        /// code (7101–7105) of a signed payload refused for a value in it.
        public var detailCode: Int?
        /// For an input error: the JSON path of the first problem, such as `$.quantity`.
        public var path: String?
        /// For an input error: the first problem's line and column in the text, from 1.
        public var line: Int?
        public var column: Int?
        /// For an input error or an invalid catalog: every problem, located.
        public var problems: [Problem]?
    }

    /// One located problem of an input or a catalog.
    public struct Problem: Hashable, Sendable, Codable {
        /// The JSON path, such as `$.products[1].id`.
        public var path: String
        /// What is wrong there.
        public var message: String
        /// Where it is in the text, from 1, when the text was at hand.
        public var line: Int?
        public var column: Int?

        /// Creates a problem.
        public init(path: String, message: String, line: Int? = nil, column: Int? = nil) {
            self.path = path
            self.message = message
            self.line = line
            self.column = column
        }
    }

    /// A body with the given members.
    public init(code: Int, name: String, message: String, retryable: Bool = false, outcomeUnknown: Bool = false) {
        error = Detail(code: code, name: name, message: message, retryable: retryable, outcomeUnknown: outcomeUnknown)
    }

    /// The body of a thrown ledger error; an invalid catalog lists its problems.
    public init(_ ledgerError: LedgerError) {
        self.init(
            code: ledgerError.code, name: ledgerError.codeName, message: ledgerError.description,
            retryable: ledgerError.isRetryable, outcomeUnknown: ledgerError.outcomeUnknown)
        if case .catalogInvalid(let problems) = ledgerError {
            error.problems = problems.map { Problem(path: $0.path, message: $0.message, line: $0.line, column: $0.column) }
        }
    }

    /// The code of an input document refused by the strict decoding path.
    public static let invalidInputCode = 3003
    /// Its name.
    public static let invalidInputName = "input.invalid"

    /// The body of an input document refused for `problems` (at least one), with the first one's
    /// place; `message` says what was expected.
    public static func invalidInput(_ message: String, problems: [Problem]) -> LedgerErrorBody {
        var body = LedgerErrorBody(code: invalidInputCode, name: invalidInputName, message: message)
        let first = problems.first
        body.error.path = first?.path
        body.error.line = first?.line
        body.error.column = first?.column
        body.error.problems = problems.isEmpty ? nil : problems
        if let first { body.error.message = "\(message): \(first.path): \(first.message)" }
        return body
    }

    /// The code of a player ID the ledger holds nothing for, asked about by a support read
    /// (`ledger player`, `history --player`, `entitlements`, `subscriptions`).
    public static let unknownPlayerCode = 3004
    /// Its name.
    public static let unknownPlayerName = "player.unknown"

    /// The body saying the ledger holds nothing for `playerID` (`LedgerReader.isKnownPlayer`):
    /// a mistyped or foreign ID, told apart from a known player with no purchases.
    public static func unknownPlayer(_ playerID: String) -> LedgerErrorBody {
        LedgerErrorBody(
            code: unknownPlayerCode, name: unknownPlayerName,
            message: "unknown player \"\(playerID)\": the ledger holds no purchase, event, balance, entitlement, "
                + "subscription or attempt for it")
    }
}

extension LedgerError {
    /// Whether the same call may succeed if made again: a storage failure the engine calls
    /// retryable, a ledger another store holds, an unavailable port, an injected fault.
    public var isRetryable: Bool {
        switch self {
        case .storage(let failure): failure.isRetryable
        case .ledgerInUse, .verifierUnavailable, .finishFailed, .transactionSourceUnavailable, .injectedFault: true
        default: false
        }
    }

    /// Whether the work may have been committed although the call failed (a lost commit reply).
    public var outcomeUnknown: Bool {
        if case .storage(let failure) = self { return failure.outcomeUnknown }
        return false
    }
}
