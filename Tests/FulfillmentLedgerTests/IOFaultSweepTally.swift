import FulfillmentLedger
import SQLiteFaultVFS
import SQLiteLedgerStore

/// One sweep run: the workload's result, the checks' findings, and the calls it made.
struct IOFaultSweepRun {
    var run: IOFaultRun
    var findings: IOFaultVerifier.Findings
    var callCounts: [SQLiteFaultVFS.Operation: Int]
}

/// What a sweep case saw across its faulty runs.
struct IOFaultSweepTally {
    var faultyRunCount = 0
    var injectedCount = 0
    /// Runs where the fault surfaced as a thrown `LedgerError`.
    var thrownCount = 0
    /// Runs where it surfaced only as a finish error in a receipt or recovery report.
    var finishErrorOnlyCount = 0
    /// Runs where it fired only while the store closed (close errors are not reported).
    var closeOnlyCount = 0
    /// Runs where it fired while the ledger was in use yet nothing was reported.
    var silentCallNumbers: [Int] = []
    /// Runs where a `fulfill` threw but its grant was committed after all.
    var committedDespiteErrorCallNumbers: [Int] = []
    /// Thrown errors by `codeName/extendedCode`.
    var errorKinds: [String: Int] = [:]
    var unexpectedErrors: [String] = []
    /// Runs where an injected I/O error while opening came back as `notALedger`.
    var reportedAsNotALedger: [Int] = []
    var problemRuns: [String] = []
    var problemRunCount = 0
    var unfiredWithinCount: [Int] = []

    mutating func record(
        _ result: IOFaultSweepRun, callNumber: Int, resultCode: Int32
    ) {
        let run = result.run
        faultyRunCount += 1
        injectedCount += run.firedTotal
        if !run.thrown.isEmpty {
            thrownCount += 1
        } else if !run.finishErrors.isEmpty {
            finishErrorOnlyCount += 1
        } else if run.firedBeforeRelease == 0 {
            closeOnlyCount += 1
        } else {
            silentCallNumbers.append(callNumber)
        }
        if !result.findings.committedDespiteError.isEmpty { committedDespiteErrorCallNumbers.append(callNumber) }
        for error in run.thrown {
            guard case .storage(let failure) = error else {
                errorKinds[error.codeName, default: 0] += 1
                if case .notALedger = error {
                    reportedAsNotALedger.append(callNumber)
                } else {
                    unexpectedErrors.append("#\(callNumber): \(error)")
                }
                continue
            }
            errorKinds["\(error.codeName)/\(failure.code)", default: 0] += 1
            if failure.sqliteExtendedResultCode != resultCode {
                unexpectedErrors.append("#\(callNumber): \(failure)")
            }
        }
        if !result.findings.problems.isEmpty {
            problemRunCount += 1
            if problemRuns.count < IOFaultTests.reportedProblemRunCountMax {
                problemRuns.append("#\(callNumber): \(result.findings.problems)")
            }
        }
    }

    var summary: String {
        "\(faultyRunCount) faulty runs, \(injectedCount) failures injected; thrown \(thrownCount), "
            + "finish-error only \(finishErrorOnlyCount), close only \(closeOnlyCount), "
            + "silent \(silentCallNumbers), committed despite error at \(committedDespiteErrorCallNumbers); "
            + "errors \(errorKinds.sorted { $0.key < $1.key })"
    }
}
