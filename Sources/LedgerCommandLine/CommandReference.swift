/// The CLI reference in Markdown (`ledger help --markdown`), made from the same declarations as
/// every command's `--help`: per command its usage line, summary and options table, then each
/// shared group of options once. Docs/CLI.md holds it between two marker comments.
package enum CommandReference {
    /// The line before the generated part of Docs/CLI.md.
    package static let beginMarker = "<!-- BEGIN generated: ledger help --markdown -->"
    /// The line after it.
    package static let endMarker = "<!-- END generated -->"

    /// The reference of `commands`, then of `developmentCommands` in a section of their own.
    package static func markdown(commands: [Command], developmentCommands: [Command]) -> String {
        var lines = [
            "## Commands", "",
            "Per command: its usage line, what it does, and its options. `ledger <command> --help` prints the same "
                + "with the rest: input and output fields, exit codes, details.",
        ]
        for command in commands { lines += section(command) }
        if !developmentCommands.isEmpty {
            lines += [
                "", "## Development commands", "",
                "Built on the testing products (test stores, simulators, faults) for sandbox ledgers; not for operating a ledger.",
            ]
            for command in developmentCommands { lines += section(command) }
        }
        var groups: [OptionGroup] = []
        for option in (commands + developmentCommands).flatMap(CommandHelp.shown) {
            if let group = option.group, !groups.contains(group) { groups.append(group) }
        }
        lines += ["", "## Shared options", "", "Options several commands take the same way."]
        for group in groups {
            let options = uniqueOptions((commands + developmentCommands).flatMap(CommandHelp.shown).filter { $0.group == group })
                .map(\.optional)
            lines += ["", "### \(group.title)", "", group.summary] + list(options)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One command: heading, summary, usage line, its own options, and the groups it shares.
    static func section(_ command: Command) -> [String] {
        let options = CommandHelp.shown(command)
        var lines = [
            "", "### `\(command.words.joined(separator: " "))`", "",
            sentence(command.summary) + " `\(CommandHelp.usage(command))`",
        ]
        lines += list(options.filter { $0.group == nil })
        var groups: [OptionGroup] = []
        for group in options.compactMap(\.group) where group.isLinked && !groups.contains(group) {
            groups.append(group)
        }
        if !groups.isEmpty {
            let links = groups.map { "[\($0.title.lowercased())](#\(anchor($0.title)))" }
            lines += ["", "Also: " + links.joined(separator: ", ") + "."]
        }
        return lines
    }

    /// The options, one line each with its default and range, or nothing for no options.
    static func list(_ options: [CommandOption]) -> [String] {
        guard !options.isEmpty else { return [] }
        return [""] + options.map { option in
            let extra = option.defaultAndRange
            return "- `\(option.synopsis)`: \(option.help)" + (extra.isEmpty ? "" : " (\(extra))")
        }
    }

    /// Each option once, the first declaration of a name winning.
    static func uniqueOptions(_ options: [CommandOption]) -> [CommandOption] {
        var seen: Set<String> = []
        return options.filter { seen.insert($0.name).inserted }
    }

    /// A summary as a sentence: capital first, full stop last.
    static func sentence(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst() + (text.hasSuffix(".") ? "" : ".")
    }

    /// The anchor GitHub makes of a heading of plain words.
    static func anchor(_ title: String) -> String {
        String(title.lowercased().compactMap { $0 == " " ? "-" : ($0.isLetter || $0.isNumber || $0 == "-" ? $0 : nil) })
    }
}
