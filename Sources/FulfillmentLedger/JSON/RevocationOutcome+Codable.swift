/// A `RevocationOutcome` in JSON, one flat object whose `outcome` names the case:
///
/// - `recorded` / `alreadyRecorded`: `record` (the stored `RevocationRecord`: the event, the
///   purchase it applies to, its `disposition`, `effect` and `debtCreated`);
/// - `rejected`: `reason`, `reasonCode` and `message`.
extension RevocationOutcome: Codable {
    /// `recorded`, `alreadyRecorded` or `rejected`.
    public var name: String {
        switch self {
        case .recorded: "recorded"
        case .alreadyRecorded: "alreadyRecorded"
        case .rejected: "rejected"
        }
    }

    /// Encodes the flat form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LedgerJSONKey.self)
        try container.encode(name, forKey: "outcome")
        switch self {
        case .recorded(let record), .alreadyRecorded(let record): try container.encode(record, forKey: "record")
        case .rejected(let rejection): try rejection.encodeFlat(into: &container)
        }
    }

    /// Decodes the flat form; an unknown `outcome` is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LedgerJSONKey.self)
        let outcome = try container.decode(String.self, forKey: "outcome")
        switch outcome {
        case "recorded": self = .recorded(try container.decode(RevocationRecord.self, forKey: "record"))
        case "alreadyRecorded": self = .alreadyRecorded(try container.decode(RevocationRecord.self, forKey: "record"))
        case "rejected": self = .rejected(try Rejection(flatFrom: container))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: "outcome", in: container, debugDescription: "unknown revocation outcome \(outcome)")
        }
    }
}
