import Foundation

/// An executable product of this package, built next to the running test bundle.
public enum BuiltExecutable {
    /// Directory levels walked up from the test binary: the bundle may be a directory
    /// (`…/Foo.xctest/Contents/MacOS/Foo`).
    static let levelCountMax = 4

    /// The executable named `name` (`ledger`, `whole-server-example`) if it was built.
    public static func find(_ name: String) -> URL? {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<levelCountMax {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }
}
