import Foundation
import LedgerBench
import LedgerCommandLine

// The executable only forwards to the library, so the bench is testable in-process.
let code = await BenchCommand.main(Array(CommandLine.arguments.dropFirst()), io: .standard)
exit(code)
