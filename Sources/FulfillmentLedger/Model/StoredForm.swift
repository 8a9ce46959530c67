import Foundation

/// The text forms in which every store adapter keeps grant lines and per-currency amounts, so a
/// ledger moved from one engine to another holds byte-identical values, and an operator reads
/// them in any SQL shell.
package enum StoredForm {
    /// Grant lines (a ledger row's grants, a revocation's effect) as a small JSON array:
    /// `[{"kind":"currency","id":"gems","quantity":100}]`.
    ///
    /// Written by hand rather than with `JSONEncoder`, which cost more than the rest of the
    /// insert. Tests check that `JSONDecoder` reads back every line, including IDs that need
    /// escaping.
    package static func grantsText(_ grants: [GrantLine]) -> String {
        var text = "["
        for (index, line) in grants.enumerated() {
            if index > 0 { text += "," }
            text += "{\"kind\":"
            appendJSONString(line.kind.rawValue, to: &text)
            text += ",\"id\":"
            appendJSONString(line.id, to: &text)
            text += ",\"quantity\":\(line.quantity)"
            if let repaid = line.debtRepaid { text += ",\"debtRepaid\":\(repaid)" }
            text += "}"
        }
        return text + "]"
    }

    /// Grant lines read back from `grantsText`; nil when the text is not such a list.
    package static func grants(_ text: String) -> [GrantLine]? {
        try? JSONDecoder().decode([GrantLine].self, from: Data(text.utf8))
    }

    /// Amounts by currency (debt created, absorbed debt) as a JSON object with sorted keys, so
    /// the same amounts are always stored as the same text.
    package static func amountsText(_ amounts: [String: Int64]) -> String {
        var text = "{"
        for (index, currencyID) in amounts.keys.sorted().enumerated() {
            if index > 0 { text += "," }
            appendJSONString(currencyID, to: &text)
            text += ":\(amounts[currencyID] ?? 0)"
        }
        return text + "}"
    }

    /// Amounts read back from `amountsText`; nil when the text is not such an object.
    package static func amounts(_ text: String) -> [String: Int64]? {
        try? JSONDecoder().decode([String: Int64].self, from: Data(text.utf8))
    }

    /// IDs (a subscription's entitlements) as a JSON array of strings: `["vip","battle_pass"]`.
    package static func identifiersText(_ identifiers: [String]) -> String {
        var text = "["
        for (index, identifier) in identifiers.enumerated() {
            if index > 0 { text += "," }
            appendJSONString(identifier, to: &text)
        }
        return text + "]"
    }

    /// IDs read back from `identifiersText`; nil when the text is not such a list.
    package static func identifiers(_ text: String) -> [String]? {
        try? JSONDecoder().decode([String].self, from: Data(text.utf8))
    }

    /// An economy operation row's record: the stored columns in table order, nil when the
    /// direction or asset kind is not one the ledger writes.
    package static func operationRecord(
        _ row: (String, String, String, String, String, Int64, Int64, Int64)
    ) -> OperationRecord? {
        guard let direction = EconomyOperation.Direction(rawValue: row.2), let asset = AssetKind(rawValue: row.3) else {
            return nil
        }
        let operation = EconomyOperation(
            operationID: row.0, playerID: row.1, direction: direction, asset: asset, assetID: row.4, amount: row.5)
        return OperationRecord(operation: operation, balanceAfter: row.6, appliedAt: Date(ledgerMilliseconds: row.7))
    }

    /// Appends `value` as a JSON string literal (RFC 8259 escapes).
    package static func appendJSONString(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
