import Foundation
import FulfillmentLedger

/// The attempts journal and order-ID lookups of the in-memory store, kept by the same rules
/// as the SQL stores (`AttemptJournal`).
extension InMemoryLedgerSession {
    func transaction(store: PlatformStore, orderID: String) throws(LedgerError) -> TransactionRecord? {
        state.orders[TransactionKey(store: store, transactionID: orderID)].flatMap { state.transactions[$0] }
    }

    func attempts(playerID: String, limit: Int) throws(LedgerError) -> [AttemptRecord] {
        Array(state.attempts.reversed().lazy.filter { $0.playerID == playerID }.prefix(limit))
    }

    func attempts(matchingID id: String, limit: Int) throws(LedgerError) -> [AttemptRecord] {
        Array(state.attempts.reversed().lazy.filter { $0.matches(id) }.prefix(limit))
    }

    func attemptCount(verified: Bool) throws(LedgerError) -> Int {
        state.attempts.lazy.filter { $0.isVerified == verified }.count
    }

    func appendAttempt(_ record: AttemptRecord, retention: AttemptRetention) throws(LedgerError) -> Int64 {
        if let index = state.attempts.lastIndex(where: { $0.deliveryID == record.deliveryID }),
            state.attempts[index].isRepeated(by: record)
        {
            state.attempts[index].repeatCount += 1
            state.attempts[index].lastAt = record.at
            state.attempts[index].reason = record.reason
            return state.attempts[index].sequence
        }
        state.attemptSequence += 1
        var stored = record
        stored.sequence = state.attemptSequence
        state.attempts.append(stored)
        let budget = record.isVerified
        let count = Int64(try attemptCount(verified: budget))
        var oldest = state.attempts.indices.filter { state.attempts[$0].isVerified == budget }
        let excess = Int(AttemptJournal.excess(count: count, retention: retention, verified: budget))
        var doomed = Set(oldest.prefix(excess))
        oldest = Array(oldest.dropFirst(excess).prefix(AttemptRetention.expiredCountPerWriteMax))
        let cutoff = AttemptJournal.expiryCutoff(record.at, retention: retention)
        doomed.formUnion(oldest.filter { state.attempts[$0].at < cutoff })
        state.attempts = state.attempts.indices.filter { !doomed.contains($0) }.map { state.attempts[$0] }
        return stored.sequence
    }
}
