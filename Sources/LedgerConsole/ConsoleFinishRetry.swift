import FulfillmentLedger

/// The console's one action: "retry finish" on a pending finish, through
/// `Ledger.retryFinish(_:)`. It only tells the store to finish a purchase already granted; it
/// never changes a balance.
struct ConsoleFinishRetry {
    let ledger: Ledger

    /// Retries the finish of the purchase `keyText` names (`store:transactionID`), if it is
    /// `playerID`'s; returns the message the player page shows next.
    func run(_ keyText: String?, playerID: String) async -> String {
        guard let keyText, let key = Self.key(keyText) else { return "refused: the form named no purchase" }
        do throws(LedgerError) {
            switch try await ledger.retryFinish(key, ifOwnedBy: playerID) {
            case .finished(let record): return "finished \(record.key): the store was told and the ledger marked it finished"
            case .alreadyFinished(let record): return "already finished \(record.key): nothing was sent"
            case .failed(let record, let error): return "failed \(record.key): the store refused again (\(error)); it stays pending"
            case .inFlightElsewhere(let record): return "in progress \(record.key): another finish of it is running"
            case .notFound: return "not found: \(playerID) has no purchase \(key)"
            }
        } catch {
            return "error: \(LedgerErrorBody(error).error.name): \(LedgerErrorBody(error).error.message)"
        }
    }

    /// The key of `text`: a known store's name, `:`, and a transaction ID.
    static func key(_ text: String) -> TransactionKey? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let store = PlatformStore(rawValue: String(text[..<colon]))
        let transactionID = String(text[text.index(after: colon)...])
        guard PlatformStore.known.contains(store), !transactionID.isEmpty else { return nil }
        return TransactionKey(store: store, transactionID: transactionID)
    }

    /// The form value naming `key`.
    static func text(_ key: TransactionKey) -> String { "\(key.store.rawValue):\(key.transactionID)" }
}
