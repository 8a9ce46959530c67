import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import SQLiteFaultVFS
import SQLiteLedgerStore

/// Checks a database after a faulty workload run, with the fault disarmed, and lists every
/// broken promise as text (so a sweep of hundreds of runs reports a few lines, not a flood).
struct IOFaultVerifier {
    let workload: IOFaultWorkload
    let path: String
    let vfs: SQLiteFaultVFS

    /// What the checks found.
    struct Findings {
        var problems: [String] = []
        /// Transactions whose `fulfill` threw and that no later call granted, yet are in the
        /// ledger after reopening: the failed commit's frames were in the WAL, and the WAL
        /// recovery of the next open took them as committed.
        var committedDespiteError: Set<String> = []
    }

    /// Reopens (full integrity check on open), checks nothing is partial, re-submits every
    /// purchase and recovers, checks exactly one grant each, releases and runs the doctor.
    func verify(after run: IOFaultRun) async -> Findings {
        var findings = Findings()
        await reopenAndRetry(after: run, into: &findings)
        do {
            let report = try LedgerDoctor.examine(path: path)
            if report.integrity != ["ok"] { findings.problems.append("doctor integrity: \(report.integrity)") }
            if report.transactionCount != Int64(IOFaultWorkload.purchases.count) {
                findings.problems.append("doctor counts \(report.transactionCount) transactions")
            }
            if !report.pendingFinishes.isEmpty {
                findings.problems.append("doctor sees \(report.pendingFinishes.count) pending finishes")
            }
        } catch {
            findings.problems.append("doctor failed: \(error)")
        }
        return findings
    }

    private func reopenAndRetry(after run: IOFaultRun, into findings: inout Findings) async {
        let ledger: Ledger
        do {
            let options = IOFaultWorkload.options(vfs: vfs, openCheck: .full)
            ledger = try workload.ledger(SQLiteLedgerStore(path: path, options: options))
        } catch {
            findings.problems.append("reopen without the fault failed: \(error)")
            return
        }
        await check(ledger, after: run, into: &findings)
        await ledger.store.close()
    }

    /// Checks the reopened ledger holds nothing partial, then retries every submission.
    private func check(_ ledger: Ledger, after run: IOFaultRun, into findings: inout Findings) async {
        // Nothing partial: every player holds exactly what their recorded transactions granted.
        do {
            for player in IOFaultWorkload.players {
                let snapshot = try await ledger.player(player)
                let held = IOFaultHoldings(holding: snapshot)
                let granted = IOFaultHoldings(grantedBy: snapshot)
                if held != granted { findings.problems.append("\(player) holds \(held) but was granted \(granted)") }
                for record in snapshot.history {
                    let id = record.key.transactionID
                    if run.failedTransactionIDs.contains(id), !run.grantedTransactionIDs.contains(id) {
                        findings.committedDespiteError.insert(id)
                    }
                }
            }
        } catch {
            findings.problems.append("reading players after the fault failed: \(error)")
            return
        }
        // Retry the client's submissions and recover, with a healthy platform.
        workload.testStore.failNext(.finish, count: 0)
        do {
            for submission in workload.submissions {
                let outcome = try await ledger.fulfill(submission)
                if outcome.rejection != nil { findings.problems.append("retry rejected: \(outcome)") }
            }
            let report = try await ledger.recover()
            if !report.isClean { findings.problems.append("recover after retry is not clean: \(report)") }
            for player in IOFaultWorkload.players {
                let snapshot = try await ledger.player(player)
                let held = IOFaultHoldings(holding: snapshot)
                let expected = IOFaultWorkload.expected[player]
                if held != expected {
                    findings.problems.append(
                        "\(player) holds \(held) after retry, expected \(expected.map(\.description) ?? "nothing")")
                }
                let bought = IOFaultWorkload.purchases.filter { $0.playerID == player }.count
                if snapshot.history.count != bought {
                    findings.problems.append("\(player) has \(snapshot.history.count) ledger records, bought \(bought)")
                }
            }
            let unfinished = workload.testStore.unfinishedTransactionIDs()
            if !unfinished.isEmpty { findings.problems.append("platform still holds unfinished \(unfinished)") }
        } catch {
            findings.problems.append("retry failed: \(error)")
        }
    }
}
