import FulfillmentLedger
import Synchronization

/// The change feed (`LedgerReader.changes`): player changes in sequence order without finish
/// results, and a reader that follows a cursor while many writers commit never misses one and
/// never goes back.
enum ChangeFeedCases {
    static let entries = [
        ConformanceEntry(
            "changesLeaveOutFinishResults",
            "changes come in sequence order, without finish results, up to the limit and after a cursor",
            changesLeaveOutFinishResults),
        ConformanceEntry(
            "changesFollowCommitOrder",
            "a reader following its cursor while writers commit concurrently sees every change once, in order",
            changesFollowCommitOrder),
    ]

    /// Concurrent writers in `changesFollowCommitOrder`.
    static let writerCount = 24
    /// Most reads the follower makes before it gives up on the writers.
    static let followReadCountMax = 60_000

    static func changesLeaveOutFinishResults(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        let kinds: [LedgerEventKind] = [
            .purchaseGranted, .finishSucceeded, .operationApplied, .finishFailed, .refundApplied, .playerReset,
        ]
        let sequences = try await store.write { writer throws(LedgerError) -> [Int64] in
            var sequences: [Int64] = []
            for (index, kind) in kinds.enumerated() {
                let event = LedgerEvent(
                    kind: kind, playerID: "p\(index % 2)", transaction: ContractRows.key("t\(index)"), at: ContractRows.date(0),
                    detail: "e\(index)")
                sequences.append(try writer.appendEvent(event))
            }
            return sequences
        }
        let (all, firstTwo, afterSecond, afterLast) = try await store.read { reader throws(LedgerError) in
            (
                try reader.changes(afterSequence: 0, limit: 100), try reader.changes(afterSequence: 0, limit: 2),
                try reader.changes(afterSequence: sequences[2], limit: 100),
                try reader.changes(afterSequence: sequences[5], limit: 100)
            )
        }
        context.checkEqual(all.map(\.detail), ["e0", "e2", "e4", "e5"], "the changes after 0, without finish results")
        context.checkEqual(all.map(\.sequence), [sequences[0], sequences[2], sequences[4], sequences[5]], "their sequences")
        context.checkEqual(all.map(\.kind), [kinds[0], kinds[2], kinds[4], kinds[5]], "their kinds")
        context.checkEqual(all.map(\.playerID), ["p0", "p0", "p0", "p1"], "their players")
        context.checkEqual(firstTwo.map(\.detail), ["e0", "e2"], "the changes after 0, limit 2")
        context.checkEqual(afterSecond.map(\.detail), ["e4", "e5"], "the changes after the second")
        context.checkEqual(afterLast, [], "the changes after the last")
    }

    static func changesFollowCommitOrder(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        let writersDone = WritersDone()
        // The reader polls with small pages while the writers commit, as a feed consumer does.
        let follower = Task { () async -> Result<[LedgerEvent], LedgerError> in
            do throws(LedgerError) {
                return .success(try await follow(store, until: writersDone))
            } catch {
                return .failure(error)
            }
        }
        let failure = await withTaskGroup(of: LedgerError?.self) { group -> LedgerError? in
            for index in 0..<writerCount {
                group.addTask {
                    do throws(LedgerError) {
                        try await store.write { writer throws(LedgerError) in
                            // A finish result first: it takes a sequence but is not a change.
                            if index % 3 == 0 { try writer.appendEvent(event(.finishSucceeded, index: index)) }
                            try writer.appendEvent(event(.purchaseGranted, index: index))
                        }
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            var first: LedgerError?
            for await failure in group where first == nil { first = failure }
            return first
        }
        writersDone.set()
        let followed = await follower.value
        if let failure { throw failure }
        let seen = try followed.get()
        let sequences = seen.map(\.sequence)
        context.check(zip(sequences, sequences.dropFirst()).allSatisfy { $0 < $1 }, "the feed went back: \(sequences)")
        context.checkEqual(
            seen.map(\.detail).sorted(), (0..<writerCount).map { "w\($0)" }.sorted(), "every writer's change, once")
    }

    /// Follows the feed with pages of 3 until the writers are done and one more read is empty.
    static func follow(_ store: any LedgerStore, until writersDone: WritersDone) async throws(LedgerError) -> [LedgerEvent] {
        var seen: [LedgerEvent] = []
        var cursor: Int64 = 0
        // Bounded: a read at least every millisecond for a minute is far past any writer.
        for _ in 0..<followReadCountMax {
            let done = writersDone.isSet
            let after = cursor
            let page = try await store.read { reader throws(LedgerError) in try reader.changes(afterSequence: after, limit: 3) }
            seen += page
            cursor = page.last?.sequence ?? cursor
            if page.isEmpty {
                if done { return seen }
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
        return seen
    }

    static func event(_ kind: LedgerEventKind, index: Int) -> LedgerEvent {
        LedgerEvent(
            kind: kind, playerID: "p\(index % 4)", transaction: ContractRows.key("t\(index)"), at: ContractRows.date(0),
            detail: kind == .purchaseGranted ? "w\(index)" : "finish \(index)")
    }
}

/// Set once every writer of `changesFollowCommitOrder` has returned.
final class WritersDone: Sendable {
    private let done = Mutex(false)

    /// Whether the writers are done.
    var isSet: Bool { done.withLock { $0 } }

    /// Records that they are.
    func set() { done.withLock { $0 = true } }
}
