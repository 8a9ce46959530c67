import Foundation
import LedgerCommandLine

// The executable only forwards to the library, so every command is testable in-process.
let code = await LedgerCommandLine.run(Array(CommandLine.arguments.dropFirst()), io: .standard)
exit(code)
