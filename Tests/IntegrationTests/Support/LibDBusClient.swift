import Foundation

/// A tiny session-bus client over the system's libdbus, loaded with dlopen: the test target
/// depends only on the executable, so it cannot link libdbus itself. Used where a spawned
/// dbus-send or dbus-monitor would add their own start-up time to a measurement.
/// Single-threaded: use it from one thread.
final class LibDBusClient {
    struct Message {
        /// 1 method call, 2 method return, 3 error, 4 signal (DBUS_MESSAGE_TYPE_*).
        var type: Int32
        var interface: String?
        var member: String?
        var replySerial: UInt32
        var errorName: String?
        /// For PropertiesChanged: the interface (first argument) and the changed properties,
        /// each with its value when that value is a string (else nil).
        var changedInterface: String?
        var changed: [String: String?]
        var receivedAt: DispatchTime

        static let signal: Int32 = 4
    }

    private typealias Connection = OpaquePointer
    private typealias MessagePointer = OpaquePointer

    private let library: UnsafeMutableRawPointer
    private let connection: Connection
    private let errorStorage = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)

    private let errorInit: @convention(c) (UnsafeMutableRawPointer?) -> Void
    private let errorFree: @convention(c) (UnsafeMutableRawPointer?) -> Void
    private let errorIsSet: @convention(c) (UnsafeMutableRawPointer?) -> UInt32
    private let addMatchFunction: @convention(c) (Connection?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void
    private let newMethodCall: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
                                              UnsafePointer<CChar>?) -> MessagePointer?
    private let sendFunction: @convention(c) (Connection?, MessagePointer?, UnsafeMutablePointer<UInt32>?) -> UInt32
    private let flush: @convention(c) (Connection?) -> Void
    private let readWrite: @convention(c) (Connection?, Int32) -> UInt32
    private let popMessage: @convention(c) (Connection?) -> MessagePointer?
    private let messageUnref: @convention(c) (MessagePointer?) -> Void
    private let messageType: @convention(c) (MessagePointer?) -> Int32
    private let messageInterface: @convention(c) (MessagePointer?) -> UnsafePointer<CChar>?
    private let messageMember: @convention(c) (MessagePointer?) -> UnsafePointer<CChar>?
    private let messageErrorName: @convention(c) (MessagePointer?) -> UnsafePointer<CChar>?
    private let messageReplySerial: @convention(c) (MessagePointer?) -> UInt32
    private let iterInit: @convention(c) (MessagePointer?, UnsafeMutableRawPointer?) -> UInt32
    private let iterArgType: @convention(c) (UnsafeMutableRawPointer?) -> Int32
    private let iterNext: @convention(c) (UnsafeMutableRawPointer?) -> UInt32
    private let iterRecurse: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
    private let iterGetBasic: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
    private let connectionClose: @convention(c) (Connection?) -> Void
    private let connectionUnref: @convention(c) (Connection?) -> Void

    private static let typeString = Int32(UInt8(ascii: "s"))
    private static let typeArray = Int32(UInt8(ascii: "a"))
    private static let typeDictEntry = Int32(UInt8(ascii: "e"))
    private static let typeVariant = Int32(UInt8(ascii: "v"))

    init() throws {
        guard let library = dlopen("libdbus-1.so.3", RTLD_NOW) else {
            throw BusError("dlopen libdbus-1.so.3: \(String(cString: dlerror()))")
        }
        self.library = library
        func symbol<T>(_ name: String, _: T.Type = T.self) throws -> T {
            guard let pointer = dlsym(library, name) else { throw BusError("libdbus has no \(name)") }
            return unsafeBitCast(pointer, to: T.self)
        }
        errorInit = try symbol("dbus_error_init")
        errorFree = try symbol("dbus_error_free")
        errorIsSet = try symbol("dbus_error_is_set")
        addMatchFunction = try symbol("dbus_bus_add_match")
        newMethodCall = try symbol("dbus_message_new_method_call")
        sendFunction = try symbol("dbus_connection_send")
        flush = try symbol("dbus_connection_flush")
        readWrite = try symbol("dbus_connection_read_write")
        popMessage = try symbol("dbus_connection_pop_message")
        messageUnref = try symbol("dbus_message_unref")
        messageType = try symbol("dbus_message_get_type")
        messageInterface = try symbol("dbus_message_get_interface")
        messageMember = try symbol("dbus_message_get_member")
        messageErrorName = try symbol("dbus_message_get_error_name")
        messageReplySerial = try symbol("dbus_message_get_reply_serial")
        iterInit = try symbol("dbus_message_iter_init")
        iterArgType = try symbol("dbus_message_iter_get_arg_type")
        iterNext = try symbol("dbus_message_iter_next")
        iterRecurse = try symbol("dbus_message_iter_recurse")
        iterGetBasic = try symbol("dbus_message_iter_get_basic")
        connectionClose = try symbol("dbus_connection_close")
        connectionUnref = try symbol("dbus_connection_unref")
        let getPrivate: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Connection? = try symbol("dbus_bus_get_private")
        let setExitOnDisconnect: @convention(c) (Connection?, UInt32) -> Void = try symbol("dbus_connection_set_exit_on_disconnect")

        errorInit(errorStorage)
        // DBUS_BUS_SESSION = 0; a private connection, so closing it is ours to do.
        guard let connection = getPrivate(0, errorStorage) else {
            let message = LibDBusClient.errorMessage(errorStorage)
            errorFree(errorStorage)
            throw BusError("cannot connect to the session bus: \(message)")
        }
        self.connection = connection
        // libdbus would call exit(1) when the bus goes away: that must not end the test run.
        setExitOnDisconnect(connection, 0)
    }

    deinit {
        connectionClose(connection)
        connectionUnref(connection)
        errorStorage.deallocate()
        // The library stays loaded: libdbus does not support being unloaded.
    }

    /// DBusError is { const char *name; const char *message; … }.
    private static func errorMessage(_ storage: UnsafeMutableRawPointer) -> String {
        let name = storage.load(as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? "?"
        let message = storage.load(fromByteOffset: MemoryLayout<UnsafeRawPointer>.size,
                                   as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? ""
        return "\(name): \(message)"
    }

    /// org.freedesktop.DBus.AddMatch, waiting for the bus to accept the rule.
    func addMatch(_ rule: String) throws {
        errorInit(errorStorage)
        addMatchFunction(connection, rule, errorStorage)
        if errorIsSet(errorStorage) != 0 {
            let message = LibDBusClient.errorMessage(errorStorage)
            errorFree(errorStorage)
            throw BusError("AddMatch \(rule): \(message)")
        }
    }

    /// Sends a method call without arguments; returns its serial (the reply's reply_serial).
    @discardableResult
    func send(destination: String, path: String, interface: String, member: String) throws -> UInt32 {
        guard let message = newMethodCall(destination, path, interface, member) else {
            throw BusError("cannot build the call \(interface).\(member)")
        }
        defer { messageUnref(message) }
        var serial: UInt32 = 0
        guard sendFunction(connection, message, &serial) != 0 else { throw BusError("out of memory sending \(member)") }
        flush(connection)
        return serial
    }

    /// The next message received, waiting up to `timeout`; nil on timeout.
    func nextMessage(timeout: TimeInterval) -> Message? {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        while true {
            if let raw = popMessage(connection) {
                defer { messageUnref(raw) }
                return describe(raw)
            }
            let now = DispatchTime.now().uptimeNanoseconds
            if now >= deadline { return nil }
            let remainingMilliseconds = Int32(min(100, max(1, (deadline - now) / 1_000_000)))
            if readWrite(connection, remainingMilliseconds) == 0 { return nil }  // disconnected
        }
    }

    private func describe(_ raw: MessagePointer) -> Message {
        let receivedAt = DispatchTime.now()
        var message = Message(type: messageType(raw),
                              interface: messageInterface(raw).map { String(cString: $0) },
                              member: messageMember(raw).map { String(cString: $0) },
                              replySerial: messageReplySerial(raw),
                              errorName: messageErrorName(raw).map { String(cString: $0) },
                              changedInterface: nil, changed: [:], receivedAt: receivedAt)
        if message.type == Message.signal, message.interface == Bus.propertiesInterface,
           message.member == "PropertiesChanged" {
            readPropertiesChanged(raw, into: &message)
        }
        return message
    }

    /// PropertiesChanged(s interface, a{sv} changed, as invalidated).
    private func readPropertiesChanged(_ raw: MessagePointer, into message: inout Message) {
        // DBusMessageIter is 72–80 bytes depending on the libdbus version; room to spare.
        let iterators = (0..<4).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 16) }
        defer { iterators.forEach { $0.deallocate() } }
        let (top, array, entry, variant) = (iterators[0], iterators[1], iterators[2], iterators[3])
        guard iterInit(raw, top) != 0, iterArgType(top) == LibDBusClient.typeString else { return }
        message.changedInterface = basicString(top)
        guard iterNext(top) != 0, iterArgType(top) == LibDBusClient.typeArray else { return }
        iterRecurse(top, array)
        while iterArgType(array) == LibDBusClient.typeDictEntry {
            iterRecurse(array, entry)
            if iterArgType(entry) == LibDBusClient.typeString, let key = basicString(entry) {
                var value: String?
                if iterNext(entry) != 0, iterArgType(entry) == LibDBusClient.typeVariant {
                    iterRecurse(entry, variant)
                    if iterArgType(variant) == LibDBusClient.typeString { value = basicString(variant) }
                }
                message.changed[key] = .some(value)
            }
            if iterNext(array) == 0 { break }
        }
    }

    private func basicString(_ iterator: UnsafeMutableRawPointer) -> String? {
        var pointer: UnsafePointer<CChar>?
        withUnsafeMutablePointer(to: &pointer) { iterGetBasic(iterator, UnsafeMutableRawPointer($0)) }
        return pointer.map { String(cString: $0) }
    }
}
