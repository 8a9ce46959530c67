import FulfillmentLedger
import Foundation
import LedgerCommandLine
import LedgerHTTP

/// The description of the CLI's JSON output in Docs/openapi.json (`x-ledger-cli-output`): the
/// schema of each command's documents, the error body, and the fingerprint that CHANGELOG.md names.
struct OutputContract: Sendable {
    /// The document's vendor extension that describes the CLI's output.
    static let extensionKey = "x-ledger-cli-output"
    /// Hex digits of SHA-256 that make the fingerprint.
    static let fingerprintDigitCount = 12

    /// The whole OpenAPI document.
    let document: JSONObject
    /// `x-ledger-cli-output`.
    let description: JSONObject
    /// Checks documents against the document's components.
    let validator: OutputSchemaValidator

    /// The description built into the server (byte-identical to Docs/openapi.json, which
    /// OpenAPIDocumentTests checks).
    static let builtIn: OutputContract = {
        let limits = JSONParser.Limits(byteCountMax: 4 * 1024 * 1024, memberCountMax: 1_000_000)
        guard case .object(let document, _)? = try? JSONParser(limits: limits).parse(LedgerOpenAPIDocument.text),
            case .object(let description, _)? = document[extensionKey],
            case .object(let components, _)? = document["components"], case .object(let schemas, _)? = components["schemas"]
        else { preconditionFailure("Docs/openapi.json has no \(extensionKey) or no components") }
        return OutputContract(document: document, description: description, validator: OutputSchemaValidator(components: schemas))
    }()

    /// The commands mapped to their schemas, by name (`ledger fulfill`).
    var commandSchemas: [String: JSONValue] {
        guard case .object(let commands, _)? = description["commands"] else { return [:] }
        return Dictionary(uniqueKeysWithValues: commands.members.map { ($0.key, $0.value) })
    }

    /// The commands that print no JSON document but the error body.
    var textOnlyCommands: [String] {
        guard case .array(let names, _)? = description["textOnly"] else { return [] }
        return names.compactMap { if case .string(let name, _) = $0 { name } else { nil } }
    }

    /// Every problem of the JSON documents that `command` wrote to stdout: each line that opens
    /// a JSON value must be an object that carries the format version and conforms to the
    /// command's schema, or to the error body when `error` is its only other field.
    func problems(command: String, output: String) -> [String] {
        var found: [String] = []
        for line in output.split(separator: "\n") where line.hasPrefix("{") || line.hasPrefix("[") {
            guard case .object(var object, let position)? = try? JSONParser().parse(String(line)) else {
                found.append("\(command): a line that is no JSON object: \(line)")
                continue
            }
            guard case .integer(Int64(LedgerOutputFormat.version), _)? = object[LedgerOutputFormat.versionKey] else {
                found.append("\(command): no \"\(LedgerOutputFormat.versionKey)\": \(LedgerOutputFormat.version): \(line)")
                continue
            }
            object.members.removeAll { $0.key == LedgerOutputFormat.versionKey }
            let isError = object.keys == ["error"]
            guard let schema = isError ? description["errors"] : commandSchemas[command] else {
                found.append("\(command): prints JSON that x-ledger-cli-output does not describe: \(line)")
                continue
            }
            found += validator.problems(.object(object, position), schema).map { "\(command): \($0) in \(line)" }
        }
        return found
    }

    /// The fingerprint of the description: the first hex digits of SHA-256 over the canonical
    /// JSON (sorted keys, no spaces, prose `description`s left out) of `x-ledger-cli-output`
    /// without its fingerprint, and of every component schema it reaches. Scripts/openapi-build
    /// computes the same and writes it into the document.
    var fingerprint: String {
        var mapping = description
        mapping.members.removeAll { $0.key == "fingerprint" }
        var reached = JSONObject()
        var pending = Self.references(in: .object(mapping, Self.origin))
        while let name = pending.popLast() {
            guard reached[name] == nil, let schema = validator.components[name] else { continue }
            reached.members.append(.init(key: name, keyPosition: Self.origin, value: schema))
            pending += Self.references(in: schema)
        }
        let whole = JSONObject(members: [
            .init(key: "mapping", keyPosition: Self.origin, value: .object(mapping, Self.origin)),
            .init(key: "schemas", keyPosition: Self.origin, value: .object(reached, Self.origin)),
        ])
        let text = Self.canonical(.object(whole, Self.origin))
        return String(SHA256.hexDigest(Array(text.utf8)).prefix(Self.fingerprintDigitCount))
    }

    /// A position for the values built here, which come from no source text.
    static let origin = JSONPosition(line: 1, column: 1, offset: 0)

    /// The component names that `value` refers to by `$ref`.
    static func references(in value: JSONValue) -> [String] {
        switch value {
        case .object(let object, _):
            return object.members.flatMap { member -> [String] in
                if member.key == "$ref", case .string(let target, _) = member.value {
                    return [String(target.split(separator: "/").last ?? "")]
                }
                return references(in: member.value)
            }
        case .array(let elements, _): return elements.flatMap(references(in:))
        default: return []
        }
    }

    /// `value` as canonical JSON: keys sorted, no whitespace, a string `description` (prose,
    /// not a property of that name) left out.
    static func canonical(_ value: JSONValue) -> String {
        switch value {
        case .object(let object, _):
            let members = object.members.filter { member in
                if member.key == "description", case .string = member.value { return false }
                return true
            }
            let fields = members.sorted { $0.key < $1.key }.map { JSONValue.encodeString($0.key) + ":" + canonical($0.value) }
            return "{" + fields.joined(separator: ",") + "}"
        case .array(let elements, _): return "[" + elements.map(canonical).joined(separator: ",") + "]"
        case .string(let text, _): return JSONValue.encodeString(text)
        default: return OutputSchemaValidator.text(value)
        }
    }
}
