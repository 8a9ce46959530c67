import Foundation
import FulfillmentLedger

/// A verifier that vouches for every submission at once, so the bench measures the
/// ledger and its store, not a store's proof check (R5 measures that separately).
///
/// Each transaction names its buyer's account (`storeAccountID`), as an App Store transaction
/// does with its `appTransactionId`, so a grant reads the account's withdrawal of consent as it
/// does in production.
struct BenchVerifier: TransactionVerifier {
    var supportedEnvironments: Set<StoreEnvironment> { [.sandbox] }

    func verify(_ submission: TransactionSubmission) async throws(LedgerError) -> VerificationResult {
        .verified(
            VerifiedTransaction(
                store: submission.store, transactionID: submission.transactionID, storeProductID: submission.storeProductID,
                accountBinding: nil, quantity: submission.quantity, state: .purchased, environment: .sandbox,
                purchaseDate: Date(), storeAccountID: "account-" + submission.playerID))
    }
}
