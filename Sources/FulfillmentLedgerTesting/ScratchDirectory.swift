import Foundation

/// A fresh directory under the system temporary directory, removed with everything in it when
/// released: where a test keeps its ledger files, keys and child processes' output.
public final class ScratchDirectory {
    /// The directory.
    public let url: URL

    /// Creates `ledger-tests-<UUID>` under the temporary directory.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the directory; the directory's own path for "".
    public func path(_ name: String) -> String { name.isEmpty ? url.path : url.appendingPathComponent(name).path }

    /// Writes `text` to `name` and returns its path.
    public func write(_ text: String, to name: String) throws -> String {
        let path = self.path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The names of the files in the directory, sorted.
    public func fileNames() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() }
}
