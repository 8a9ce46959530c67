import FulfillmentLedger

/// Checks a JSON document against a schema of Docs/openapi.json, for the subset of JSON Schema
/// that the document uses: `$ref` (to `#/components/schemas/…`), `type` (a name or a list),
/// `properties`, `required`, `additionalProperties`, `items`, `enum`, `const`, `oneOf`, `anyOf`
/// and `allOf` (of object schemas, read as one object that has every part's fields).
/// Formats, patterns and bounds are not checked.
///
/// It reads the description as complete: an object schema that lists `properties` and says
/// nothing of `additionalProperties` refuses a field it does not list, so a field renamed or
/// moved fails even where the document leaves the object open for readers (a later version may
/// add fields). An object schema without `properties` takes any fields.
struct OutputSchemaValidator {
    /// The document's `components.schemas`.
    let components: JSONObject

    /// Deepest nesting followed, through `$ref`s and values; the document's own nesting is far smaller.
    static let depthMax = 64

    /// Every place where `value` departs from `schema`, as `path: problem`; empty when it conforms.
    func problems(_ value: JSONValue, _ schema: JSONValue, path: String = "$") -> [String] {
        problems(value, schema, path: path, depth: 0)
    }

    private func problems(_ value: JSONValue, _ schema: JSONValue, path: String, depth: Int) -> [String] {
        guard depth < Self.depthMax else { return ["\(path): nested deeper than \(Self.depthMax)"] }
        guard case .object(let rule, _) = schema else { return ["\(path): the schema is not an object"] }
        if case .string(let reference, _)? = rule["$ref"] {
            guard let target = resolve(reference) else { return ["\(path): unknown $ref \(reference)"] }
            return problems(value, target, path: path, depth: depth + 1)
        }
        if case .array(let parts, _)? = rule["allOf"] {
            guard let whole = merged(parts) else { return ["\(path): allOf of a schema that is no object with properties"] }
            return problems(value, .object(whole, schema.position), path: path, depth: depth + 1)
        }
        if case .array(let alternatives, _)? = rule["oneOf"] {
            let matching = alternatives.filter { problems(value, $0, path: path, depth: depth + 1).isEmpty }.count
            return matching == 1 ? [] : ["\(path): matches \(matching) of oneOf's \(alternatives.count) schemas"]
        }
        if case .array(let alternatives, _)? = rule["anyOf"] {
            let failures = alternatives.map { problems(value, $0, path: path, depth: depth + 1) }
            return failures.contains { $0.isEmpty } ? [] : ["\(path): matches none of anyOf: \(failures.joined())"]
        }
        if let allowed = rule["enum"], case .array(let choices, _) = allowed,
            !choices.contains(where: { Self.same($0, value) })
        {
            return ["\(path): \(Self.text(value)) is none of the enum's values"]
        }
        if let constant = rule["const"], !Self.same(constant, value) {
            return ["\(path): \(Self.text(value)) is not \(Self.text(constant))"]
        }
        if let typeProblem = typeProblem(value, rule["type"], path: path) { return [typeProblem] }
        switch value {
        case .object(let object, _): return objectProblems(object, rule, path: path, depth: depth)
        case .array(let elements, _):
            guard let items = rule["items"] else { return [] }
            return elements.enumerated().flatMap { index, element in
                problems(element, items, path: "\(path)[\(index)]", depth: depth + 1)
            }
        default: return []
        }
    }

    private func objectProblems(_ object: JSONObject, _ rule: JSONObject, path: String, depth: Int) -> [String] {
        var found: [String] = []
        let properties: JSONObject?
        if case .object(let listed, _)? = rule["properties"] { properties = listed } else { properties = nil }
        if case .array(let required, _)? = rule["required"] {
            for case .string(let name, _) in required where object[name] == nil {
                found.append("\(path): the required field \"\(name)\" is missing")
            }
        }
        for member in object.members {
            let memberPath = "\(path).\(member.key)"
            if let property = properties?[member.key] {
                found += problems(member.value, property, path: memberPath, depth: depth + 1)
            } else if let additional = rule["additionalProperties"] {
                if case .bool(false, _) = additional {
                    found.append("\(memberPath): a field the schema refuses")
                } else if case .object = additional {
                    found += problems(member.value, additional, path: memberPath, depth: depth + 1)
                }
            } else if let properties {
                found.append("\(memberPath): a field the description does not name (it names \(properties.keys.sorted()))")
            }
        }
        return found
    }

    private func typeProblem(_ value: JSONValue, _ type: JSONValue?, path: String) -> String? {
        let names: [String]
        switch type {
        case .string(let name, _)?: names = [name]
        case .array(let list, _)?: names = list.compactMap { if case .string(let name, _) = $0 { name } else { nil } }
        default: return nil
        }
        let actual = value.typeName
        let fits = names.contains { $0 == actual || ($0 == "number" && actual == "integer") }
        return fits ? nil : "\(path): \(actual) where the schema says \(names.joined(separator: " or "))"
    }

    /// The object schema that `parts` describe together: every part's `properties` and `required`
    /// fields; nil when a part is not an object schema with properties (after its `$ref`).
    private func merged(_ parts: [JSONValue]) -> JSONObject? {
        var properties = JSONObject()
        var required: [JSONValue] = []
        for part in parts {
            var schema = part
            if case .object(let rule, _) = part, case .string(let reference, _)? = rule["$ref"], let target = resolve(reference) {
                schema = target
            }
            guard case .object(let rule, _) = schema, case .object(let listed, _)? = rule["properties"] else { return nil }
            properties.members += listed.members
            if case .array(let names, _)? = rule["required"] { required += names }
        }
        let origin = JSONPosition(line: 1, column: 1, offset: 0)
        return JSONObject(members: [
            .init(key: "type", keyPosition: origin, value: .string("object", origin)),
            .init(key: "properties", keyPosition: origin, value: .object(properties, origin)),
            .init(key: "required", keyPosition: origin, value: .array(required, origin)),
        ])
    }

    private func resolve(_ reference: String) -> JSONValue? {
        let prefix = "#/components/schemas/"
        guard reference.hasPrefix(prefix) else { return nil }
        return components[String(reference.dropFirst(prefix.count))]
    }

    /// Whether two values are the same JSON, positions aside (enough for `enum` and `const` of scalars).
    static func same(_ left: JSONValue, _ right: JSONValue) -> Bool { text(left) == text(right) }

    /// A short rendering of a scalar for a message; containers by their type.
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag, _): "\(flag)"
        case .integer(let number, _): "\(number)"
        case .integerOverflow(let digits, _): digits
        case .number(let number, _): "\(number)"
        case .string(let string, _): JSONValue.encodeString(string)
        case .array, .object: value.typeName
        }
    }
}
