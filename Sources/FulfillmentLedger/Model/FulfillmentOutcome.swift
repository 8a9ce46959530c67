/// The result of submitting a transaction. Expected outcomes are values; only
/// infrastructure failures throw.
public enum FulfillmentOutcome: Hashable, Sendable {
    /// First receipt: rewards granted, recorded and committed.
    case granted(FulfillmentReceipt)
    /// The ledger already holds this transaction for the same product, player and quantity.
    /// Nothing was granted; only a still-pending finish was retried.
    case alreadyFulfilled(FulfillmentReceipt)
    /// Not granted; nothing changed.
    case rejected(Rejection)

    /// The receipt for `granted` and `alreadyFulfilled`.
    public var receipt: FulfillmentReceipt? {
        switch self {
        case .granted(let receipt), .alreadyFulfilled(let receipt): receipt
        case .rejected: nil
        }
    }

    /// The rejection, if rejected.
    public var rejection: Rejection? {
        if case .rejected(let rejection) = self { return rejection }
        return nil
    }

    /// `granted`, `alreadyFulfilled` or `rejected`, as printed by the CLI.
    public var name: String {
        switch self {
        case .granted: "granted"
        case .alreadyFulfilled: "alreadyFulfilled"
        case .rejected: "rejected"
        }
    }
}

/// What the ledger holds for a fulfilled transaction, and whether the platform finish is done.
public struct FulfillmentReceipt: Hashable, Sendable {
    /// The ledger record (the original one for `alreadyFulfilled`).
    public var record: TransactionRecord
    /// Whether the platform finish has succeeded.
    public var finished: Bool
    /// Why the finish did not succeed during this call, if it was attempted and failed.
    public var finishError: String?
    /// Whether another call in this process was finishing the transaction when this one
    /// arrived (a concurrent duplicate delivery), so this call left the finish to it. Not a
    /// failure: `finished` is false only because the other call had not ended yet, and
    /// `finishError` is nil.
    public var finishInProgressElsewhere: Bool

    /// Creates a receipt.
    public init(
        record: TransactionRecord, finished: Bool, finishError: String? = nil, finishInProgressElsewhere: Bool = false
    ) {
        precondition(!(finishInProgressElsewhere && (finished || finishError != nil)), "a finish left to another call has no result here")
        self.record = record
        self.finished = finished
        self.finishError = finishError
        self.finishInProgressElsewhere = finishInProgressElsewhere
    }
}
