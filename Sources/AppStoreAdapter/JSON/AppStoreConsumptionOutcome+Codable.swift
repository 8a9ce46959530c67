import Foundation
import FulfillmentLedger

/// An `AppStoreConsumptionOutcome` in JSON, one flat object whose `outcome` names the case:
///
/// - `sent` / `alreadySent`: `answer` (`transactionID`, `notificationUUID`?, `sentAt`, `body`:
///   the V2 `ConsumptionRequest` sent);
/// - `pastDeadline`: `transactionID`, `deadline`;
/// - `notConsented`: `transactionID`;
/// - `refused`: `transactionID`, `code` (7201–7209), `detail`;
/// - `caseClosed`: `closure` (`transactionID`, `notificationType`, `notificationUUID`?, `closedAt`).
extension AppStoreConsumptionOutcome: Codable {
    /// Encodes the flat form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LedgerJSONKey.self)
        try container.encode(name, forKey: "outcome")
        switch self {
        case .sent(let answer), .alreadySent(let answer): try container.encode(answer, forKey: "answer")
        case .pastDeadline(let transactionID, let deadline):
            try container.encode(transactionID, forKey: "transactionID")
            try container.encode(deadline, forKey: "deadline")
        case .notConsented(let transactionID): try container.encode(transactionID, forKey: "transactionID")
        case .refused(let transactionID, let code, let detail):
            try container.encode(transactionID, forKey: "transactionID")
            try container.encode(code, forKey: "code")
            try container.encode(detail, forKey: "detail")
        case .caseClosed(let closure): try container.encode(closure, forKey: "closure")
        }
    }

    /// Decodes the flat form; an unknown `outcome` is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LedgerJSONKey.self)
        let outcome = try container.decode(String.self, forKey: "outcome")
        func transactionID() throws -> String { try container.decode(String.self, forKey: "transactionID") }
        switch outcome {
        case "sent": self = .sent(try container.decode(Answer.self, forKey: "answer"))
        case "alreadySent": self = .alreadySent(try container.decode(Answer.self, forKey: "answer"))
        case "pastDeadline":
            self = .pastDeadline(
                transactionID: try transactionID(), deadline: try container.decode(Date.self, forKey: "deadline"))
        case "notConsented": self = .notConsented(transactionID: try transactionID())
        case "refused":
            self = .refused(
                transactionID: try transactionID(), code: try container.decode(Int.self, forKey: "code"),
                detail: try container.decode(String.self, forKey: "detail"))
        case "caseClosed": self = .caseClosed(try container.decode(Closure.self, forKey: "closure"))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: "outcome", in: container, debugDescription: "unknown consumption outcome \(outcome)")
        }
    }
}
