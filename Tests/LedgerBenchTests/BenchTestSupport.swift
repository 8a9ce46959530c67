import Foundation
import LedgerCommandLine
import Testing

@testable import LedgerBench

/// A new folder for one test's files, removed with everything in it when released.
final class ScratchDirectory {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-bench-tests-\(UUID().uuidString)")

    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the folder.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// What the folder holds, sorted.
    func fileNames() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() }
}

/// What an in-process run of `ledger-bench` printed and returned.
struct BenchRun {
    var code: Int32
    var output: String
    var error: String

    /// Standard output as the one JSON object `--json` prints.
    func json() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "not one JSON object: \(output)")
    }
}

/// Runs `ledger-bench` in-process with `arguments`.
func bench(_ arguments: [String]) async -> BenchRun {
    let captured = CapturedIO()
    let code = await BenchCommand.main(arguments, io: captured.io)
    return BenchRun(code: code, output: captured.output, error: captured.error)
}
