import Foundation
import LedgerCommandLine
import LedgerDevCommands
import Testing

/// The operator commands stand alone; the development commands join them only where the
/// `ledger` executable registers them, listed in a help section of their own.
@Suite("operator and development commands")
struct CommandBoundaryTests {
    static let developmentWords = [["demo"], ["simulate"], ["workload"]]

    @Test("the operator tool alone knows no development command", arguments: developmentWords + [["bench"]])
    func operatorCommandsAlone(words: [String]) async {
        let captured = CapturedIO()
        let code = await LedgerCommandLine.run(words + ["--help"], io: captured.io)
        #expect(code == 64)
        #expect(captured.error.contains("unknown command \"\(words[0])\""), "\(captured.error)")
    }

    @Test func theHelpListsTheDevelopmentCommandsApart() async throws {
        let run = await ledger(["--help"])
        #expect(run.code == 0)
        let lines = run.outputLines
        let section = try #require(lines.firstIndex { $0.hasPrefix("development commands") }, "\(run.output)")
        for words in Self.developmentWords {
            let line = try #require(lines.firstIndex { $0.hasPrefix("  \(words[0]) ") }, "\(words) missing")
            #expect(line > section)
        }
        let fulfill = try #require(lines.firstIndex { $0.hasPrefix("  fulfill ") })
        #expect(fulfill < section)
        #expect(LedgerDevCommands.commands.map(\.words) == Self.developmentWords)

        let operatorOnly = CapturedIO()
        #expect(await LedgerCommandLine.run(["--help"], io: operatorOnly.io) == 0)
        #expect(!operatorOnly.output.contains("development commands"))
        #expect(!operatorOnly.output.contains("  demo "))
    }
}
