import FulfillmentLedger

/// The CLI's machine output (Docs/Output.md): every JSON document a command writes to stdout is
/// one object on one line that carries `formatVersion` at its top level, beside the fields
/// Docs/openapi.json describes for that command (`x-ledger-cli-output`).
///
/// A document is always an object: a command that has a list or a single value to print names
/// it with a field (`{"reset": "p1"}`), so the version is added in one place, `CommandIO.printJSON`.
package enum LedgerOutputFormat {
    /// The version of the output format. Raise it, with a CHANGELOG entry, when a change can break
    /// a reader: a field removed, renamed, moved or given another type.
    package static let version = 1

    /// The top-level key that carries `version` in every document.
    package static let versionKey = "formatVersion"

    /// `value` with `formatVersion` added to its top-level object.
    ///
    /// `value` must encode as an object (a keyed container): the version joins its keys, and
    /// the ledger's encoder sorts them with the rest.
    struct Document<Value: Encodable>: Encodable {
        /// The command's output.
        var value: Value

        func encode(to encoder: any Encoder) throws {
            try value.encode(to: encoder)
            var container = encoder.container(keyedBy: LedgerJSONKey.self)
            try container.encode(LedgerOutputFormat.version, forKey: LedgerJSONKey(LedgerOutputFormat.versionKey))
        }
    }
}
