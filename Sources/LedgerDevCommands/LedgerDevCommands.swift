import LedgerCommandLine

/// The development commands of the `ledger` tool: `demo`, `simulate` and `workload`. They are
/// built on the testing products (the test store's fakes, the simulated App Store and Google
/// Play, the fault simulation), so they live apart from the operator commands of
/// `LedgerCommandLine`; the `ledger` executable registers both, and `ledger --help` lists
/// these in a section of their own.
package enum LedgerDevCommands {
    /// The commands, in the order the help lists them.
    package static let commands = [DemoCommand.command, SimulateCommand.command, WorkloadCommand.command]
}
