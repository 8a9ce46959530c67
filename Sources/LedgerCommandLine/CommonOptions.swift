/// Options many commands take with the same meaning, each declared once. Their help may differ
/// per command (`CommandOption.helping`); their name and kind never do.
package enum CommonOptions {
    /// The group of the options below that keep their shared help.
    static let group = OptionGroup(
        title: "Common",
        summary: "Options many commands take with the same meaning; a command that gives one another meaning lists it itself.",
        isLinked: false)
    /// `--catalog FILE`.
    package static let catalog = CommandOption("catalog", "FILE", help: "the product catalog", group: group)
    /// `--json`.
    package static let json = CommandOption.flag("json", help: "print one JSON object instead of text", group: group)
    /// `--player P`.
    package static let player = CommandOption("player", "P", help: "the player ID", group: group)
    /// `--transaction-id ID`.
    package static let transactionID = CommandOption("transaction-id", "ID", help: "the store's transaction ID")

    /// `--limit N`: a page size from 1 to `max`, `max` when not given.
    package static func limit(max: Int, of things: String) -> CommandOption {
        .integer("limit", default: max, range: 1...max, help: "print at most N \(things)")
    }
}
