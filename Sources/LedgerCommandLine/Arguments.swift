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
    /// The options the command declares, by name.
    private let declared: [String: CommandOption]
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments` against the options a command declares.
    package init(_ arguments: [String], options declarations: [CommandOption]) throws(UsageError) {
        guard arguments.count <= Self.countMax else { throw UsageError(message: "too many arguments") }
        declared = Dictionary(declarations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
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
            guard let option = declared[name] else {
                let shown = Set(declared.values.filter { !$0.isHidden }.map(\.name))
                let hint = EditDistance.nearest(to: name, in: shown).map { "; did you mean --\($0)?" }
                throw UsageError(message: "unknown option --\(name)\(hint ?? "")")
            }
            if option.kind == .flag {
                guard inlineValue == nil else { throw UsageError(message: "--\(name) takes no value") }
                flags.insert(name)
            } else if let inlineValue {
                self.options[name, default: []].append(inlineValue)
            } else {
                guard index < arguments.count else { throw UsageError(message: "--\(name) needs a value") }
                self.options[name, default: []].append(arguments[index])
                index += 1
            }
        }
    }

    /// The declaration of `option` this parse knows; a look-up of an undeclared option is a
    /// programming error (the option would never be accepted), caught in debug builds.
    private func checked(_ option: CommandOption) -> String {
        assert(declared[option.name] != nil, "--\(option.name) is looked up but not declared")
        return option.name
    }

    /// Whether the command declares `option`.
    package func declares(_ option: CommandOption) -> Bool { declared[option.name] != nil }

    /// The last value of an option, if given.
    package func value(_ option: CommandOption) -> String? { options[checked(option)]?.last }

    /// Every value of a repeatable option.
    package func values(_ option: CommandOption) -> [String] { options[checked(option)] ?? [] }

    /// Whether a flag was given.
    package func flag(_ option: CommandOption) -> Bool { flags.contains(checked(option)) }

    /// Whether an option was given at all, flag or value.
    package func isGiven(_ option: CommandOption) -> Bool { flag(option) || value(option) != nil }

    /// The value of a required option.
    package func required(_ option: CommandOption) throws(UsageError) -> String {
        guard let value = value(option) else { throw UsageError(message: "--\(option.name) is required") }
        return value
    }

    /// A whole-number option checked against its declared range (digits may be grouped with
    /// `_`); its declared default when not given.
    package func integer(_ option: CommandOption) throws(UsageError) -> Int {
        guard let value = try integerIfGiven(option) else {
            guard let text = option.defaultValue, let value = Int(text) else { preconditionFailure("--\(option.name) has no default") }
            return value
        }
        return value
    }

    /// A whole-number option checked against its declared range; nil when not given.
    package func integerIfGiven(_ option: CommandOption) throws(UsageError) -> Int? {
        guard let text = value(option) else { return nil }
        guard case .integers(let range) = option.constraint else { preconditionFailure("--\(option.name) is not a number") }
        guard let value = Int(text.filter { $0 != "_" }), range.contains(value) else {
            throw UsageError(message: "--\(option.name) needs a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// Fails when more positionals were given than the command takes.
    package func expectPositionals(max: Int) throws(UsageError) {
        guard positionals.count <= max else {
            throw UsageError(message: "unexpected argument \(positionals[max])")
        }
    }
}
