import DBusKit
import Foundation

/// One call a hostile client makes, with what the daemon must answer.
struct HostileCall: CustomStringConvertible {
    enum Expectation {
        /// A reply of either kind: the daemon may accept or refuse it, but must answer.
        case anyReply
        /// An error reply: a wrong signature on Aubade's own interfaces, a read-only or unknown
        /// property, an unknown interface, member or path.
        case error
    }

    var kind: String
    var path: String
    var interface: String?
    var member: String
    var arguments: [DBusKit.DBusValue]
    var expectation: Expectation

    var signature: String { DBusKit.DBusValue.signature(of: arguments) }
    var description: String {
        let shown = arguments.map { Self.summary($0) }.joined(separator: ", ")
        return "\(kind): \(path) \(interface ?? "(no interface)").\(member)(\(signature.prefix(60))) [\(shown.prefix(200))]"
    }

    private static func summary(_ value: DBusKit.DBusValue) -> String {
        switch value {
        case .string(let text), .objectPath(let text):
            return text.utf8.count > 40 ? "\"\(text.prefix(30))…\" (\(text.utf8.count) bytes)" : "\"\(text)\""
        case .array(let element, let items): return "a\(element) × \(items.count)"
        case .dictionary(let key, let value, let items): return "a{\(key)\(value)} × \(items.count)"
        case .variant(let inner): return "v(\(summary(inner)))"
        case .double(let number): return "\(number)"
        case .int64(let number): return "\(number)"
        case .uint64(let number): return "\(number)"
        default: return value.signature
        }
    }
}

/// Makes hostile calls from an introspected tree: every method with right-typed bad values,
/// wrong signatures, missing and extra arguments, no interface; Get, GetAll and Set of every
/// property (read-only ones too, and wrong types); unknown interfaces, members and paths;
/// hostile URIs for OpenUri and AddTrack. Never a plain Quit: it would end the run early.
struct HostileCallMaker {
    private let tree: IntrospectedTree
    private let served: [(path: String, interface: IntrospectedTree.Interface)]
    var values: HostileValues

    static let propertiesInterface = "org.freedesktop.DBus.Properties"
    static let unknownPaths = ["/org/elsewhere", "/org/mpris/MediaPlayer2/Player", "/org/mpris/MediaPlayer2/TrackList/NoTrack",
                               "/org/aubade/Track/1", "/a/b/c/d/e/f/g", "/org/mpris/MediaPlayer2/x/y"]

    init(tree: IntrospectedTree, values: HostileValues) {
        self.tree = tree
        self.values = values
        served = tree.objects.flatMap { object in object.interfaces.map { (object.path, $0) } }
        self.values.names = Array(Set(served.flatMap { [$0.interface.name] + $0.interface.properties.map(\.name) }
                                      + served.flatMap { $0.interface.methods.map(\.name) })).sorted()
    }

    /// Aubade's own interfaces: what it implements itself (Peer is libdbus', which ignores arguments).
    static func isOwn(_ interface: String) -> Bool {
        interface.hasPrefix("org.mpris.") || interface.hasPrefix("org.aubade.")
            || interface == propertiesInterface || interface == "org.freedesktop.DBus.Introspectable"
    }

    private static func isQuit(_ interface: String?, _ member: String, _ arguments: [DBusKit.DBusValue]) -> Bool {
        member == "Quit" && arguments.isEmpty && (interface == nil || interface == "org.mpris.MediaPlayer2")
    }

    mutating func next() -> HostileCall {
        while true {
            values.startMessage()
            let call = make()
            if !Self.isQuit(call.interface, call.member, call.arguments) { return call }
        }
    }

    private mutating func make() -> HostileCall {
        let roll = Int.random(in: 0..<100, using: &values.random)
        switch roll {
        case 0..<22: return rightSignature()
        case 22..<36: return wrongSignature()
        case 36..<41: return missingArguments()
        case 41..<46: return extraArguments()
        case 46..<50: return withoutInterface()
        case 50..<58: return get()
        case 58..<62: return getAll()
        case 62..<72: return set()
        case 72..<76: return unknownInterface()
        case 76..<80: return unknownMember()
        case 80..<84: return unknownPath()
        case 84..<94: return hostileURI()
        case 94..<97: return ping()
        default: return introspectWithArguments()
        }
    }

    typealias MethodSite = (path: String, interface: String, method: IntrospectedTree.Method)
    typealias PropertySite = (path: String, interface: String, property: IntrospectedTree.Property)

    private var methodSites: [MethodSite] {
        served.flatMap { site in site.interface.methods.map { (site.path, site.interface.name, $0) } }
    }
    private var propertySites: [PropertySite] {
        served.flatMap { site in site.interface.properties.map { (site.path, site.interface.name, $0) } }
    }

    private mutating func someMethod() -> MethodSite? {
        let sites = methodSites
        return sites.isEmpty ? nil : values.pick(sites)
    }

    private mutating func someProperty() -> PropertySite? {
        let sites = propertySites
        return sites.isEmpty ? nil : values.pick(sites)
    }

    /// Every method and property of the tree once in each way: right signature, wrong one,
    /// missing and extra arguments; Get, Set with its own type and with another, GetAll of
    /// every interface. The random calls come after, so nothing depends on luck to be called.
    mutating func sweep() -> [HostileCall] {
        var calls: [HostileCall] = []
        for site in methodSites {
            calls.append(rightSignature(site))
            calls.append(wrongSignature(site))
            if !site.method.inArguments.isEmpty { calls.append(missingArguments(site)) }
            calls.append(extraArguments(site))
        }
        for site in propertySites {
            calls.append(get(site, hostileNames: false))
            calls.append(set(site, anyType: false))
            calls.append(set(site, anyType: true))
        }
        for interface in Set(served.map(\.interface.name)).sorted() {
            calls.append(HostileCall(kind: "GetAll", path: "/org/mpris/MediaPlayer2", interface: Self.propertiesInterface,
                                     member: "GetAll", arguments: [.string(interface)], expectation: .anyReply))
        }
        return calls.filter { !Self.isQuit($0.interface, $0.member, $0.arguments) }
    }

    private mutating func rightSignature(_ site: MethodSite? = nil) -> HostileCall {
        guard let (path, interface, method) = site ?? someMethod() else { return ping() }
        values.startMessage()
        return HostileCall(kind: "right signature", path: path, interface: interface, member: method.name,
                           arguments: method.inArguments.map { values.value($0) }, expectation: .anyReply)
    }

    private mutating func wrongSignature(_ site: MethodSite? = nil) -> HostileCall {
        guard let (path, interface, method) = site ?? someMethod() else { return ping() }
        values.startMessage()
        let arguments = values.wrongArguments(not: method.inSignature)
        return HostileCall(kind: "wrong signature", path: path, interface: interface, member: method.name,
                           arguments: arguments, expectation: Self.isOwn(interface) ? .error : .anyReply)
    }

    private mutating func missingArguments(_ site: MethodSite? = nil) -> HostileCall {
        guard let (path, interface, method) = site ?? someMethod(), !method.inArguments.isEmpty else { return wrongSignature() }
        values.startMessage()
        let kept = Int.random(in: 0..<method.inArguments.count, using: &values.random)
        return HostileCall(kind: "missing arguments", path: path, interface: interface, member: method.name,
                           arguments: method.inArguments.prefix(kept).map { values.value($0) },
                           expectation: Self.isOwn(interface) ? .error : .anyReply)
    }

    private mutating func extraArguments(_ site: MethodSite? = nil) -> HostileCall {
        guard let (path, interface, method) = site ?? someMethod() else { return ping() }
        values.startMessage()
        let extra = (0...values.count(upTo: 2)).map { _ in values.value(values.randomType(depth: 1)) }
        return HostileCall(kind: "extra arguments", path: path, interface: interface, member: method.name,
                           arguments: method.inArguments.map { values.value($0) } + extra,
                           expectation: Self.isOwn(interface) ? .error : .anyReply)
    }

    private mutating func withoutInterface() -> HostileCall {
        guard let (path, _, method) = someMethod() else { return ping() }
        let arguments = values.chance(50) ? method.inArguments.map { values.value($0) } : values.wrongArguments(not: nil)
        return HostileCall(kind: "no interface", path: path, interface: nil, member: method.name,
                           arguments: arguments, expectation: .anyReply)
    }

    private mutating func get(_ site: PropertySite? = nil, hostileNames: Bool? = nil) -> HostileCall {
        guard let (path, interface, property) = site ?? someProperty() else { return ping() }
        guard hostileNames ?? values.chance(30) else {
            return HostileCall(kind: "Get", path: path, interface: Self.propertiesInterface, member: "Get",
                               arguments: [.string(interface), .string(property.name)], expectation: .anyReply)
        }
        let names: [DBusKit.DBusValue] = [.string(values.string(big: true)), .string(values.string(big: true))]
        return HostileCall(kind: "Get (hostile names)", path: path, interface: Self.propertiesInterface, member: "Get",
                           arguments: names, expectation: .anyReply)
    }

    private mutating func getAll() -> HostileCall {
        let path = values.pick(served.map(\.path) + ["/"])
        let interface = values.chance(60) ? values.pick(served.map(\.interface.name)) : values.string(big: true)
        return HostileCall(kind: "GetAll", path: path, interface: Self.propertiesInterface, member: "GetAll",
                           arguments: [.string(interface)], expectation: .anyReply)
    }

    /// Set with the property's own type (bad values) or any type; a read-only one must be refused either way.
    private mutating func set(_ site: PropertySite? = nil, anyType: Bool? = nil) -> HostileCall {
        guard let (path, interface, property) = site ?? someProperty() else { return ping() }
        values.startMessage()
        if site == nil, values.chance(10) {
            return HostileCall(kind: "Set unknown property", path: path, interface: Self.propertiesInterface, member: "Set",
                               arguments: [.string(interface), .string("NoSuchProperty\(values.count(upTo: 99))"),
                                           .variant(values.value("s"))], expectation: .error)
        }
        let anyType = anyType ?? values.chance(30)
        let value = values.value(anyType ? values.randomType(depth: 2) : property.type)
        return HostileCall(kind: property.isWritable ? (anyType ? "Set (any type)" : "Set") : "Set read-only", path: path,
                           interface: Self.propertiesInterface, member: "Set",
                           arguments: [.string(interface), .string(property.name), .variant(value)],
                           expectation: property.isWritable ? .anyReply : .error)
    }

    private mutating func unknownInterface() -> HostileCall {
        guard let (path, _, method) = someMethod() else { return ping() }
        let interface = values.pick(["org.example.Nothing", "org.mpris.MediaPlayer2.Playerx", "org.mpris.MediaPlayer3",
                                     "org.aubade.Queue2", "a.b"])
        return HostileCall(kind: "unknown interface", path: path, interface: interface, member: method.name,
                           arguments: method.inArguments.map { values.value($0) }, expectation: .error)
    }

    private mutating func unknownMember() -> HostileCall {
        let (path, interface) = values.pick(served.filter { Self.isOwn($0.interface.name) })
        let member = values.pick(["Frobnicate", "Seekx", "play", "Quit2", "GetAll2", "X" + String(repeating: "y", count: 200)])
        return HostileCall(kind: "unknown member", path: path, interface: interface.name, member: member,
                           arguments: values.wrongArguments(not: nil), expectation: .error)
    }

    private mutating func unknownPath() -> HostileCall {
        let path = values.pick(Self.unknownPaths)
        guard let (_, interface, method) = someMethod(), interface != "org.freedesktop.DBus.Peer" else { return ping() }
        return HostileCall(kind: "unknown path", path: path, interface: interface, member: method.name,
                           arguments: method.inArguments.map { values.value($0) }, expectation: .error)
    }

    private mutating func hostileURI() -> HostileCall {
        let uri = values.chance(90) ? values.pick(values.uris) : values.string(big: true)
        let path = "/org/mpris/MediaPlayer2"
        if values.chance(50) {
            return HostileCall(kind: "OpenUri", path: path, interface: "org.mpris.MediaPlayer2.Player", member: "OpenUri",
                               arguments: [.string(uri)], expectation: .anyReply)
        }
        let after = values.chance(60) ? "/org/mpris/MediaPlayer2/TrackList/NoTrack" : values.objectPath()
        return HostileCall(kind: "AddTrack", path: path, interface: "org.mpris.MediaPlayer2.TrackList", member: "AddTrack",
                           arguments: [.string(uri), .objectPath(after), .boolean(values.chance(50))], expectation: .anyReply)
    }

    private mutating func ping() -> HostileCall {
        let path = values.pick(tree.objects.map(\.path) + Self.unknownPaths)
        return HostileCall(kind: "Ping", path: path, interface: "org.freedesktop.DBus.Peer", member: "Ping",
                           arguments: [], expectation: .anyReply)
    }

    private mutating func introspectWithArguments() -> HostileCall {
        let path = values.pick(tree.objects.map(\.path))
        var arguments = values.wrongArguments(not: "")
        if arguments.isEmpty { arguments = [.string("x")] }
        return HostileCall(kind: "Introspect with arguments", path: path, interface: "org.freedesktop.DBus.Introspectable",
                           member: "Introspect", arguments: arguments, expectation: .error)
    }
}
