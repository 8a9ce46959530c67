import Foundation
import LedgerCommandLine
import LedgerDevCommands

// The executable only forwards to the libraries, so every command is testable in-process:
// the operator commands, and apart from them the development commands (demo, simulate,
// workload), which are built on the testing products.
let code = await LedgerCommandLine.run(
    Array(CommandLine.arguments.dropFirst()), io: .standard, developmentCommands: LedgerDevCommands.commands)
exit(code)
