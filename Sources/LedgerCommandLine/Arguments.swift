import FulfillmentLedger

/// A small command-line parser: positionals, `--name value` options (repeatable) and flags. A
/// lone `--` ends the options: every argument after it is a positional, even one that starts
/// with `--` (a player ID such as `--weird`).
package struct Arguments {
    /// A command-line mistake, reported with exit code 64.
    package struct UsageError: Error {
        package var message: String

        /// Creates a usage error.
        package init(message: String) { self.message = message }
    }

    /// Most arguments accepted; a command line longer than this is a mistake.
    static let countMax = 256

    package private(set) var positionals: [String] = []
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments` given which option names take a value and which are flags.
    package init(_ arguments: [String], valueOptions: Set<String>, flagOptions: Set<String>) throws(UsageError) {
        guard arguments.count <= Self.countMax else { throw UsageError(message: "too many arguments") }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                positionals += arguments[index...]
                break
            }
            guard argument.hasPrefix("--"), argument.count > 2 else {
                positionals.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if flagOptions.contains(name) {
                guard inlineValue == nil else { throw UsageError(message: "--\(name) takes no value") }
                flags.insert(name)
            } else if valueOptions.contains(name) {
                if let inlineValue {
                    options[name, default: []].append(inlineValue)
                } else {
                    guard index < arguments.count else { throw UsageError(message: "--\(name) needs a value") }
                    options[name, default: []].append(arguments[index])
                    index += 1
                }
            } else {
                let hint = EditDistance.nearest(to: name, in: valueOptions.union(flagOptions)).map { "; did you mean --\($0)?" }
                throw UsageError(message: "unknown option --\(name)\(hint ?? "")")
            }
        }
    }

    /// The last value of an option, if given.
    package func value(_ name: String) -> String? { options[name]?.last }

    /// Every value of a repeatable option.
    package func values(_ name: String) -> [String] { options[name] ?? [] }

    /// Whether a flag was given.
    package func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value of a required option.
    package func required(_ name: String) throws(UsageError) -> String {
        guard let value = value(name) else { throw UsageError(message: "--\(name) is required") }
        return value
    }

    /// `--limit N`: a page size from 1 to `max`, `max` when not given.
    func limit(max: Int) throws(UsageError) -> Int {
        guard let text = value("limit") else { return max }
        guard let limit = Int(text), (1...max).contains(limit) else {
            throw UsageError(message: "--limit needs a whole number from 1 to \(max)")
        }
        return limit
    }

    /// Fails when more positionals were given than the command takes.
    package func expectPositionals(max: Int) throws(UsageError) {
        guard positionals.count <= max else {
            throw UsageError(message: "unexpected argument \(positionals[max])")
        }
    }
}
