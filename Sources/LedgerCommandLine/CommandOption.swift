/// One option a command takes, declared once: its name, the placeholder of its value, whether it
/// is a flag, a value or a repeatable value, whether the command needs it, its default, its range
/// or allowed values, and one line of help. `Arguments` parses against the declarations, the
/// command's `--help` and the CLI reference (`ledger help --markdown`) are generated from them,
/// and look-ups go through them, so a renamed option cannot drift.
package struct CommandOption: Sendable, Hashable {
    /// How an option appears on the command line.
    package enum Kind: Sendable, Hashable {
        /// `--name`, no value.
        case flag
        /// `--name VALUE`; given twice, the last wins.
        case value
        /// `--name VALUE`, as many times as needed.
        case repeatable
    }

    /// The values an option accepts beyond its type.
    package enum Constraint: Sendable, Hashable {
        /// Any text.
        case none
        /// A whole number in this range.
        case integers(ClosedRange<Int>)
        /// One of these words.
        case choices([String])
    }

    /// The name without its dashes: `db` for `--db`.
    package var name: String
    /// What the value stands for in the help (`DB`, `FILE`, `N`); empty for a flag.
    package var placeholder: String
    /// Flag, value or repeatable value.
    package var kind: Kind
    /// Whether the usage line shows it as needed (some are needed only with others: the help says so).
    package var isRequired: Bool
    /// The default, as the help shows it; nil when there is none.
    package var defaultValue: String?
    /// The range or the allowed values.
    package var constraint: Constraint
    /// One line of help.
    package var help: String
    /// The shared group it belongs to, when several commands take it the same way.
    package var group: OptionGroup?
    /// Parsed but never shown: options one process passes to a child of its own.
    package var isHidden: Bool

    /// Declares an option.
    package init(
        _ name: String, _ placeholder: String = "", kind: Kind = .value, required: Bool = false, default defaultValue: String? = nil,
        constraint: Constraint = .none, help: String, group: OptionGroup? = nil, hidden: Bool = false
    ) {
        self.name = name
        self.placeholder = placeholder
        self.kind = kind
        self.isRequired = required
        self.defaultValue = defaultValue
        self.constraint = constraint
        self.help = help
        self.group = group
        self.isHidden = hidden
    }

    /// A flag: `--name`, no value.
    package static func flag(_ name: String, help: String, group: OptionGroup? = nil) -> CommandOption {
        CommandOption(name, kind: .flag, help: help, group: group)
    }

    /// A whole-number option with its range and default, both shown and checked.
    package static func integer(
        _ name: String, _ placeholder: String = "N", default defaultValue: Int? = nil, range: ClosedRange<Int>, help: String,
        group: OptionGroup? = nil, hidden: Bool = false
    ) -> CommandOption {
        CommandOption(
            name, placeholder, default: defaultValue.map(String.init), constraint: .integers(range), help: help, group: group,
            hidden: hidden)
    }

    /// The same option, needed by this command.
    package var required: CommandOption {
        var copy = self
        copy.isRequired = true
        return copy
    }

    /// The same option, not needed by this command.
    package var optional: CommandOption {
        var copy = self
        copy.isRequired = false
        return copy
    }

    /// The same option with another line of help, for a command that uses it its own way: no
    /// longer the shared group's, so the reference lists it with the command.
    package func helping(_ help: String) -> CommandOption {
        var copy = self
        copy.help = help
        copy.group = nil
        return copy
    }

    /// The same option with another default, for a command that defaults otherwise.
    package func defaulting(_ value: String?) -> CommandOption {
        var copy = self
        copy.defaultValue = value
        return copy
    }

    /// `--name PLACEHOLDER`, or `--name` for a flag.
    package var synopsis: String { placeholder.isEmpty ? "--\(name)" : "--\(name) \(placeholder)" }

    /// The default and the range as the help shows them: `default 60; 0 to 86400` (whether it
    /// is needed, the usage line shows).
    package var defaultAndRange: String {
        var parts: [String] = []
        if let defaultValue { parts.append("default \(defaultValue)") }
        switch constraint {
        case .none: break
        case .integers(let range): parts.append("\(range.lowerBound) to \(range.upperBound)")
        case .choices(let words): parts.append(words.joined(separator: " | "))
        }
        if kind == .repeatable { parts.append("repeatable") }
        return parts.joined(separator: "; ")
    }
}

/// Options several commands take the same way (the ledger database, the store ports, the App
/// Store API, Stripe, Steam), declared once; the CLI reference lists each group once.
package struct OptionGroup: Sendable, Hashable {
    /// The heading of the group in the CLI reference.
    package var title: String
    /// One line: what the group configures.
    package var summary: String
    /// Whether each command's reference links to the group; false for options so common
    /// (`--db`, `--catalog`, `--json`) that the reference explains them once.
    package var isLinked: Bool

    /// Declares a group.
    package init(title: String, summary: String, isLinked: Bool = true) {
        self.title = title
        self.summary = summary
        self.isLinked = isLinked
    }
}
