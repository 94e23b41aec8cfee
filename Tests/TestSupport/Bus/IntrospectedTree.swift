import DBusKit
import Foundation

/// The object tree a bus peer describes with org.freedesktop.DBus.Introspectable, walked from
/// `/`: every object's interfaces, their methods (with the signature of their `in` arguments)
/// and properties (type, access). What the fuzz test calls is read from here, so a method
/// added to the daemon is fuzzed without anyone touching the test.
struct IntrospectedTree {
    struct Method {
        var name: String
        /// One single complete type per `in` argument, e.g. ["o", "x"].
        var inArguments: [String]
        var inSignature: String { inArguments.joined() }
    }

    struct Property {
        var name: String
        var type: String
        /// "read", "write" or "readwrite".
        var access: String
        var isWritable: Bool { access.contains("write") }
    }

    struct Interface {
        var name: String
        var methods: [Method] = []
        var properties: [Property] = []
    }

    struct Object {
        var path: String
        var interfaces: [Interface]
    }

    var objects: [Object]

    /// The objects that have interfaces besides the standard ones every node answers.
    var servingObjects: [Object] {
        objects.filter { object in object.interfaces.contains { !$0.name.hasPrefix("org.freedesktop.DBus.") } }
    }

    /// Introspects `/` and every child node, breadth first (at most `limit` nodes).
    static func walk(_ client: BusClient, limit: Int = 64) throws -> IntrospectedTree {
        var objects: [Object] = []
        var pending = ["/"]
        while let path = pending.first, objects.count < limit {
            pending.removeFirst()
            let (outcome, _) = try client.call(path: path, interface: "org.freedesktop.DBus.Introspectable",
                                               member: "Introspect")
            guard case .returned(let values) = outcome, let xml = values.first?.asString else {
                throw DaemonError("Introspect \(path): \(outcome)")
            }
            let (interfaces, children) = parse(xml)
            objects.append(Object(path: path, interfaces: interfaces))
            pending += children.map { path == "/" ? "/" + $0 : path + "/" + $0 }
        }
        return IntrospectedTree(objects: objects)
    }

    /// The interfaces and child node names in one introspection document. A small scanner of
    /// tags, enough for what libdbus-style introspection looks like (no entities in names).
    static func parse(_ xml: String) -> (interfaces: [Interface], children: [String]) {
        var interfaces: [Interface] = []
        var children: [String] = []
        var current: Interface?
        var method: Method?
        var depth = 0  // of <node>; children are the nodes at depth 2
        for tag in tags(in: xml) {
            switch (tag.name, tag.isClosing) {
            case ("node", false):
                depth += 1
                if depth == 2, let name = tag.attributes["name"] { children.append(name) }
                if tag.isSelfClosing { depth -= 1 }
            case ("node", true):
                depth -= 1
            case ("interface", false):
                current = Interface(name: tag.attributes["name"] ?? "")
            case ("interface", true):
                if let done = current { interfaces.append(done) }
                current = nil
            case ("method", false):
                method = Method(name: tag.attributes["name"] ?? "", inArguments: [])
                if tag.isSelfClosing, let done = method { current?.methods.append(done); method = nil }
            case ("method", true):
                if let done = method { current?.methods.append(done) }
                method = nil
            case ("arg", false):
                // In a method, arguments are `in` unless they say otherwise; signals' args are skipped.
                if method != nil, (tag.attributes["direction"] ?? "in") == "in", let type = tag.attributes["type"] {
                    method?.inArguments.append(type)
                }
            case ("property", false):
                if let name = tag.attributes["name"], let type = tag.attributes["type"] {
                    current?.properties.append(Property(name: name, type: type, access: tag.attributes["access"] ?? "read"))
                }
            default:
                break
            }
        }
        return (interfaces, children)
    }

    private struct Tag {
        var name: String
        var isClosing: Bool
        var isSelfClosing: Bool
        var attributes: [String: String]
    }

    /// Every `<…>` element tag, skipping comments, `<!DOCTYPE>` and `<?…?>`.
    private static func tags(in xml: String) -> [Tag] {
        var result: [Tag] = []
        var rest = Substring(xml)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[open...]
            if rest.hasPrefix("<!--") {
                guard let end = rest.range(of: "-->") else { break }
                rest = rest[end.upperBound...]
                continue
            }
            guard let close = rest.firstIndex(of: ">") else { break }
            let body = rest[rest.index(after: rest.startIndex)..<close]
            rest = rest[rest.index(after: close)...]
            if body.hasPrefix("!") || body.hasPrefix("?") { continue }
            let isClosing = body.hasPrefix("/")
            let isSelfClosing = body.hasSuffix("/")
            let inner = body.dropFirst(isClosing ? 1 : 0).dropLast(isSelfClosing ? 1 : 0)
            let name = String(inner.prefix { !$0.isWhitespace })
            result.append(Tag(name: name, isClosing: isClosing, isSelfClosing: isSelfClosing,
                              attributes: attributes(in: inner.dropFirst(name.count))))
        }
        return result
    }

    /// `name="value"` pairs.
    private static func attributes(in text: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var rest = text
        while let equals = rest.firstIndex(of: "=") {
            let key = rest[..<equals].trimmingCharacters(in: .whitespacesAndNewlines)
            rest = rest[rest.index(after: equals)...].drop { $0.isWhitespace }
            guard let quote = rest.first, quote == "\"" || quote == "'" else { break }
            rest = rest.dropFirst()
            guard let end = rest.firstIndex(of: quote) else { break }
            result[key] = String(rest[..<end])
            rest = rest[rest.index(after: end)...]
        }
        return result
    }
}
