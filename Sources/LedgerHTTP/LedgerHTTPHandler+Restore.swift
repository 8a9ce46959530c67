import Foundation
import FulfillmentLedger

/// `POST /players/{playerID}/restore`: the store's current list of the player's purchases (a
/// restore button, a new device), reconciled by `Ledger.restore`: whatever is missing is granted
/// once, and an authoritative list revokes what it no longer holds.
///
/// `{"store": "appStore" | "playStore" | "test", "purchases": [purchase, …], "authoritative":
/// false, "readAt": TIME?}`: each purchase is a `POST /purchases` body whose `store` and
/// `playerID` may be left to the list and the path; `authoritative` says the list is complete,
/// read at `readAt` (default now), so a non-consumable of that store it lacks may be revoked.
extension LedgerHTTPHandler {
    /// Most purchases one restore lists: the ledger's own restore limit is checked after.
    static let restorePurchaseCountMax = 1_000
    /// What a restore body must be, for the error's message.
    static let restoreExpected = "a restore: {\"store\", \"purchases\": [...], \"authoritative\"?, \"readAt\"?}"

    func restore(_ playerID: String, _ body: Data) async throws(LedgerError) -> LedgerHTTPResponse {
        let list: (store: PlatformStore, submissions: [TransactionSubmission], authoritative: Bool, readAt: Date?)
        switch Self.restoreList(body, playerID: playerID) {
        case .failure(let refusal): return .invalidInput(refusal)
        case .success(let value): list = value
        }
        let asOf = list.authoritative ? (list.readAt ?? ledger.clock.now()) : nil
        let report = try await ledger.restore(
            playerID: playerID, query: .answered(store: list.store, transactions: list.submissions, authoritativeAsOf: asOf))
        // A purchase that met an infrastructure error can be restored again safely.
        return report.errors.isEmpty ? .json(200, report) : .json(503, report, headers: [("Retry-After", "1")])
    }

    /// The restore body read strictly: its store, its purchases' submissions, and whether the list is
    /// authoritative, or the error body naming the first problem's path.
    static func restoreList(
        _ body: Data, playerID: String
    ) -> Result<(store: PlatformStore, submissions: [TransactionSubmission], authoritative: Bool, readAt: Date?), LedgerErrorBody> {
        let root: JSONValue
        do throws(StrictJSONError) {
            root = try StrictJSON.parse(body)
        } catch {
            return .failure(error.body(expected: restoreExpected))
        }
        guard case .object(let object, let position) = root else { return .failure(invalid("$", "expected an object", root.position)) }
        if let unknown = object.members.first(where: { !["store", "purchases", "authoritative", "readAt"].contains($0.key) }) {
            return .failure(invalid("$.\(unknown.key)", "unknown field; allowed here: store, purchases, authoritative, readAt", unknown.keyPosition))
        }
        guard case .string(let storeName, let storePosition)? = object["store"] else {
            return .failure(invalid("$.store", "missing: the store whose list this is", position))
        }
        let store = PlatformStore(rawValue: storeName)
        guard [.appStore, .playStore, .test].contains(store) else {
            return .failure(invalid("$.store", "\"\(storeName)\" is not one of \"appStore\", \"playStore\", \"test\"", storePosition))
        }
        guard case .array(let elements, let listPosition)? = object["purchases"] else {
            return .failure(invalid("$.purchases", "missing: a list of purchases", position))
        }
        guard elements.count <= restorePurchaseCountMax else {
            return .failure(invalid("$.purchases", "more than \(restorePurchaseCountMax) purchases", listPosition))
        }
        var authoritative = false
        if let value = object["authoritative"] {
            guard case .bool(let flag, _) = value else { return .failure(invalid("$.authoritative", "expected true or false", value.position)) }
            authoritative = flag
        }
        var readAt: Date?
        if let value = object["readAt"] {
            guard case .string(let text, _) = value, let date = LedgerJSON.parseDate(text) else {
                return .failure(invalid("$.readAt", "expected an RFC 3339 time such as 2026-11-29T12:00:00Z", value.position))
            }
            readAt = date
        }
        var submissions: [TransactionSubmission] = []
        for (index, element) in elements.enumerated() {
            switch PurchaseSubmissionBody.submission(from: withStore(element, store), playerID: playerID) {
            case .success(let submission): submissions.append(submission)
            case .failure(let refusal): return .failure(refusal.prefixingPaths(with: "$.purchases[\(index)]"))
            }
        }
        return .success((store, submissions, authoritative, readAt))
    }

    /// `element` with the list's `store` when it names none.
    private static func withStore(_ element: JSONValue, _ store: PlatformStore) -> JSONValue {
        guard case .object(var object, let position) = element, object["store"] == nil else { return element }
        object.members.append(.init(key: "store", keyPosition: position, value: .string(store.rawValue, position)))
        return .object(object, position)
    }

    private static func invalid(_ path: String, _ message: String, _ position: JSONPosition) -> LedgerErrorBody {
        LedgerErrorBody.invalidInput(
            "not \(restoreExpected)", problems: [.init(path: path, message: message, line: position.line, column: position.column)])
    }
}

extension LedgerErrorBody {
    /// The body with every JSON path moved under `prefix` (`$.purchases[2]` and `$.quantity` give
    /// `$.purchases[2].quantity`): a problem of one element of a list, named in the list.
    func prefixingPaths(with prefix: String) -> LedgerErrorBody {
        func moved(_ path: String) -> String { prefix + path.dropFirst() }
        var body = self
        body.error.path = error.path.map(moved)
        body.error.problems = error.problems?.map { problem in
            var problem = problem
            problem.path = moved(problem.path)
            return problem
        }
        if let path = error.path { body.error.message = error.message.replacingOccurrences(of: ": \(path):", with: ": \(moved(path)):") }
        return body
    }
}
