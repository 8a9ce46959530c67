/// The help of a command and the CLI reference, both made from the commands' declarations: the
/// usage line from the words, the options and the positionals; the options section from each
/// option's placeholder, help, default and range.
package enum CommandHelp {
    /// Width the text help wraps at.
    static let lineWidth = 80
    /// Width of the options' left column.
    static let optionColumnWidth = 28

    /// The options the help shows: every declared one but the hidden.
    static func shown(_ command: Command) -> [CommandOption] { command.options.filter { !$0.isHidden } }

    /// The usage line's words after `usage: `: the program, the words, the required options,
    /// `[options]` when there are others, and the positionals.
    package static func usage(_ command: Command) -> String {
        let options = shown(command)
        var parts = [command.name] + options.filter(\.isRequired).map(\.synopsis)
        if options.contains(where: { !$0.isRequired }) { parts.append("[options]") }
        if !command.positionals.isEmpty { parts.append(command.positionals) }
        return parts.joined(separator: " ")
    }

    /// The `--help` text.
    static func text(_ command: Command) -> String {
        var lines = wrap(usage(command), width: lineWidth, first: "usage: ", rest: "         ")
        if !command.description.isEmpty { lines += ["", command.description] }
        let options = shown(command)
        let own = options.filter { $0.group == nil }
        if !own.isEmpty {
            lines += ["", "options:"]
            for option in own { lines += optionLines(option) }
        }
        var groups: [OptionGroup] = []
        for group in options.compactMap(\.group) where !groups.contains(group) { groups.append(group) }
        for group in groups {
            lines += ["", "\(group.title) options:"]
            for option in options where option.group == group { lines += optionLines(option) }
        }
        return lines.joined(separator: "\n")
    }

    /// One option in the text help: its synopsis, then its help with its default and range,
    /// beside it or on the next lines when the synopsis is wider than the column.
    static func optionLines(_ option: CommandOption) -> [String] {
        let left = "  " + option.synopsis
        let indent = String(repeating: " ", count: optionColumnWidth)
        let extra = option.defaultAndRange
        let text = extra.isEmpty ? option.help : "\(option.help) (\(extra))"
        guard left.count < optionColumnWidth - 1 else {
            return [left] + wrap(text, width: lineWidth, first: indent, rest: indent)
        }
        let first = left.padding(toLength: optionColumnWidth, withPad: " ", startingAt: 0)
        return wrap(text, width: lineWidth, first: first, rest: indent)
    }

    /// `text` broken at spaces into lines of at most `width` (a longer word stands alone),
    /// the first prefixed with `first`, the others with `rest`.
    static func wrap(_ text: String, width: Int, first: String, rest: String) -> [String] {
        var lines: [String] = []
        var line = first
        var lineIsEmpty = true
        for word in text.split(separator: " ") {
            if !lineIsEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = rest
                lineIsEmpty = true
            }
            line += (lineIsEmpty ? "" : " ") + word
            lineIsEmpty = false
        }
        lines.append(line)
        return lines
    }
}
