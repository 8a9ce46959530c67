/// One thing the ledger did, as an observer sees it: what happened, with the values a log line
/// or a metric needs, and how long it took (wall time, measured by the ledger).
public struct LedgerObservation: Hashable, Sendable {
    /// How much an observation matters, as swift-log's levels name it.
    public enum Level: String, Hashable, Sendable, Codable, Comparable {
        /// Expected outcomes: a grant, a duplicate, a finish done.
        case info
        /// Outcomes a person may want to see: a rejection, a failed finish, an unclean recovery.
        case warning
        /// An error the ledger threw: storage, configuration, a refused argument.
        case error

        /// Its place from least to most serious.
        private var rank: Int {
            switch self {
            case .info: 0
            case .warning: 1
            case .error: 2
            }
        }

        /// Whether `left` matters less than `right`.
        public static func < (left: Level, right: Level) -> Bool { left.rank < right.rank }
    }

    /// What happened.
    public enum Event: Hashable, Sendable {
        /// `fulfill` returned `outcome` for the submission of `transaction` by `playerID`.
        case fulfillment(transaction: TransactionKey, playerID: String, outcome: FulfillmentOutcome)
        /// The platform finish of `transaction` was tried: finished, failed with `error`, or left
        /// to another call already finishing it.
        case finishAttempt(transaction: TransactionKey, finished: Bool, error: String?, inProgressElsewhere: Bool)
        /// `applyRevocation` returned `outcome` for the event `eventID` of `transaction`.
        case revocation(eventID: String, transaction: TransactionKey, outcome: RevocationOutcome)
        /// `recover()` returned `report`.
        case recovery(RecoveryReport)
        /// `operation` (`fulfill`, `applyRevocation`, `recover`) threw `error`.
        case failure(operation: String, error: LedgerError)
        /// A store adapter saw something a person should look at (`Ledger.alert`): `name` is the
        /// adapter's stable name for it, such as `unacknowledgedPurchaseVoided`.
        case storeAlert(store: PlatformStore, name: String, transaction: TransactionKey?, detail: String)
    }

    /// What happened.
    public var event: Event
    /// How long it took, in microseconds of wall time.
    public var durationMicroseconds: Int64

    /// Creates an observation.
    public init(_ event: Event, durationMicroseconds: Int64) {
        precondition(durationMicroseconds >= 0, "a duration is never negative")
        self.event = event
        self.durationMicroseconds = durationMicroseconds
    }

    /// A stable code for counting and alerting, never reworded: `fulfillment.granted`,
    /// `fulfillment.rejected.<reason>`, `finish.finished`, `finish.failed`, `finish.inProgressElsewhere`,
    /// `revocation.recorded`, `revocation.alreadyRecorded`, `revocation.rejected.<reason>`,
    /// `recovery.clean`, `recovery.unclean`, `failure.<operation>.<error code name>`, or
    /// `storeAlert.<store>.<name>`.
    public var code: String {
        switch event {
        case .fulfillment(_, _, let outcome):
            "fulfillment." + outcome.name + (outcome.rejection.map { "." + $0.reason.rawValue } ?? "")
        case .finishAttempt(_, let finished, _, let elsewhere):
            "finish." + (finished ? "finished" : elsewhere ? "inProgressElsewhere" : "failed")
        case .revocation(_, _, let outcome):
            switch outcome {
            case .recorded: "revocation.recorded"
            case .alreadyRecorded: "revocation.alreadyRecorded"
            case .rejected(let rejection): "revocation.rejected." + rejection.reason.rawValue
            }
        case .recovery(let report): report.isClean ? "recovery.clean" : "recovery.unclean"
        case .failure(let operation, let error): "failure.\(operation).\(error.codeName)"
        case .storeAlert(let store, let name, _, _): "storeAlert.\(store.rawValue).\(name)"
        }
    }

    /// How much it matters.
    public var level: Level {
        switch event {
        case .fulfillment(_, _, let outcome): outcome.rejection == nil ? .info : .warning
        case .finishAttempt(_, let finished, _, let elsewhere): finished || elsewhere ? .info : .warning
        case .revocation(_, _, let outcome): outcome.rejection == nil ? .info : .warning
        case .recovery(let report): report.isClean ? .info : .warning
        case .failure: .error
        case .storeAlert: .warning
        }
    }

    /// A one-line message for a log.
    public var message: String {
        switch event {
        case .fulfillment(let transaction, let playerID, let outcome):
            "fulfill \(transaction) for \(playerID): \(outcome.name)" + (outcome.rejection.map { ": \($0)" } ?? "")
        case .finishAttempt(let transaction, let finished, let error, let elsewhere):
            "finish \(transaction): "
                + (finished ? "finished" : elsewhere ? "in progress in another call" : "failed: \(error ?? "unknown")")
        case .revocation(let eventID, let transaction, let outcome):
            "revocation \(eventID) of \(transaction): " + Self.summary(of: outcome)
        case .recovery(let report):
            "recover: \(report.finishesSucceeded.count) finished, \(report.finishesFailed.count) failed, "
                + "\(report.resubmitted.count) resubmitted, \(report.resubmitErrors.count) errors"
                + (report.sourceError.map { ", source: \($0)" } ?? "")
        case .failure(let operation, let error): "\(operation) failed: \(error)"
        case .storeAlert(let store, let name, let transaction, let detail):
            "\(store.rawValue) alert \(name)" + (transaction.map { " for \($0)" } ?? "") + ": \(detail)"
        }
    }

    private static func summary(of outcome: RevocationOutcome) -> String {
        switch outcome {
        case .recorded(let record): "recorded (\(record.disposition))"
        case .alreadyRecorded: "alreadyRecorded"
        case .rejected(let rejection): "rejected: \(rejection)"
        }
    }

    /// Key-value pairs for structured logging (swift-log's metadata): the code, the transaction,
    /// the player and the duration where they apply.
    public var metadata: [String: String] {
        var values = ["code": code, "durationMicroseconds": String(durationMicroseconds)]
        switch event {
        case .fulfillment(let transaction, let playerID, _):
            values["transaction"] = transaction.description
            values["playerID"] = playerID
        case .finishAttempt(let transaction, _, _, _): values["transaction"] = transaction.description
        case .revocation(let eventID, let transaction, _):
            values["transaction"] = transaction.description
            values["eventID"] = eventID
        case .recovery: break
        case .failure(_, let error): values["errorCode"] = String(error.code)
        case .storeAlert(_, _, let transaction, _): values["transaction"] = transaction?.description
        }
        return values
    }
}
