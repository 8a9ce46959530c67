/// A named place in the pipeline where a fault injector may fail or crash the process.
///
/// Points inside the grant transaction roll everything back; points after the commit
/// leave the grant durable and the finish pending.
public enum FaultPoint: String, Hashable, Sendable, Codable, CaseIterable {
    /// After the verifier returned, before the product is mapped.
    case afterVerify
    /// Inside the grant transaction, before the first reward.
    case beforeGrant
    /// Inside the grant transaction, between two reward lines of one grant.
    case betweenRewards
    /// Inside the grant transaction, after the rewards and before the ledger record.
    case beforeRecord
    /// Inside the grant transaction, after everything was written and before COMMIT.
    case beforeCommit
    /// After the commit, before the platform finish is called.
    case afterCommit
    /// In place of a failing platform finish call.
    case insideFinish
    /// After the platform finish succeeded, before the ledger marks it finished.
    case afterFinish

    /// Whether a fault here happens inside the grant transaction, and so rolls back the grant.
    public var isInsideGrantTransaction: Bool {
        switch self {
        case .beforeGrant, .betweenRewards, .beforeRecord, .beforeCommit: true
        case .afterVerify, .afterCommit, .insideFinish, .afterFinish: false
        }
    }
}
