import Foundation
import FulfillmentLedger
import Synchronization

/// Where a command reads and writes; the executable uses the process's streams, tests capture them.
public struct CommandIO: Sendable {
    /// Writes to standard output.
    public var writeOutput: @Sendable (String) -> Void
    /// Writes to standard error.
    public var writeError: @Sendable (String) -> Void
    /// Reads standard input to its end, at most `byteCountMax` bytes; nil if it is larger.
    public var readInput: @Sendable (_ byteCountMax: Int) -> Data?
    /// Reads an environment variable (the process's, unless a test supplies its own).
    public var environmentValue: @Sendable (_ name: String) -> String?

    /// Creates an IO.
    public init(
        writeOutput: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void,
        readInput: @escaping @Sendable (Int) -> Data?,
        environmentValue: @escaping @Sendable (String) -> String? = { ProcessInfo.processInfo.environment[$0] }
    ) {
        self.writeOutput = writeOutput
        self.writeError = writeError
        self.readInput = readInput
        self.environmentValue = environmentValue
    }

    /// The process's standard streams.
    public static var standard: CommandIO {
        CommandIO(
            writeOutput: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
            writeError: { text in FileHandle.standardError.write(Data(text.utf8)) },
            readInput: { byteCountMax in
                let data = FileHandle.standardInput.readData(ofLength: byteCountMax + 1)
                return data.count > byteCountMax ? nil : data
            })
    }

    /// Writes a line to standard output.
    package func print(_ line: String) { writeOutput(line + "\n") }

    /// Writes a line to standard error.
    package func printError(_ line: String) { writeError(line + "\n") }

    /// Writes a value as one line of the ledger's JSON form (`LedgerJSON`: sorted keys, ISO 8601
    /// dates), with the output format's version added to its top-level object (`LedgerOutputFormat`).
    /// `value` encodes as an object.
    package func printJSON<T: Encodable>(_ value: T) {
        do {
            let document = LedgerOutputFormat.Document(value: value)
            print(String(decoding: try LedgerJSON.encoder().encode(document), as: UTF8.self))
        } catch {
            preconditionFailure("output types always encode: \(error)")
        }
    }
}

/// Captured output of an in-process run, for tests.
public final class CapturedIO: Sendable {
    private let state = Mutex<(output: String, error: String)>(("", ""))
    private let input: Data
    private let environment: [String: String]

    /// Creates a capture that serves `input` as standard input and `environment` as the
    /// environment variables (none by default, so the process's never leak into a test).
    public init(input: String = "", environment: [String: String] = [:]) {
        self.input = Data(input.utf8)
        self.environment = environment
    }

    /// Everything written to standard output.
    public var output: String { state.withLock { $0.output } }
    /// Everything written to standard error.
    public var error: String { state.withLock { $0.error } }

    /// The IO that writes into this capture.
    public var io: CommandIO {
        CommandIO(
            writeOutput: { text in self.state.withLock { $0.output += text } },
            writeError: { text in self.state.withLock { $0.error += text } },
            readInput: { byteCountMax in self.input.count > byteCountMax ? nil : self.input },
            environmentValue: { name in self.environment[name] })
    }
}
