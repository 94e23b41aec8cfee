import Foundation
import XCTest
import DBusKit
@testable import TestSupport

/// Two connections on a bus: names, objects, calls, errors, signals, latency, teardown.
final class ConnectionTests: XCTestCase {
    private var bus: PrivateBus!
    private let serverQueue = DispatchQueue(label: "test.server")
    private let clientQueue = DispatchQueue(label: "test.client")
    private var server: Connection!
    private var client: Connection!
    private var serviceName = ""
    static let path = "/org/aubade/Test"
    static let interface = "org.aubade.Test"

    override func setUpWithError() throws {
        bus = try PrivateBus()
        server = try Connection(bus: .address(bus.address), queue: serverQueue)
        client = try Connection(bus: .address(bus.address), queue: clientQueue)
        serviceName = uniqueBusName(name.filter { $0.isLetter })
    }

    override func tearDown() {
        if let server { serverQueue.sync { server.close() } }
        if let client { clientQueue.sync { client.close() } }
        server = nil
        client = nil
        bus?.stop()
        bus = nil
    }

    /// Serves `Echo` (returns its arguments), `Fail` (InvalidArgs "nope") and nothing else.
    private func startEchoService(subtree: Bool = false) throws {
        let server = self.server!
        try serverQueue.sync {
            XCTAssertEqual(try server.requestName(serviceName), .primaryOwner)
            try server.registerObject(path: Self.path, subtree: subtree) { call in
                guard call.expectsReply else { return }
                let answer: Message
                switch call.member {
                case "Echo": answer = (try? call.makeReturn(call.arguments())) ?? call.makeError(.failed("echo"))
                case "Path": answer = (try? call.makeReturn([.objectPath(call.path ?? "/")])) ?? call.makeError(.failed("path"))
                case "Fail": answer = call.makeError(.invalidArgs("nope"))
                default: answer = call.makeError(.unknownMethod("no \(call.member ?? "")"))
                }
                try? server.send(answer)
            }
        }
    }

    private func echoCall(_ arguments: [DBusValue] = [], member: String = "Echo", path: String = path) throws -> Message {
        try Message.methodCall(destination: serviceName, path: path, interface: Self.interface,
                               member: member, arguments: arguments)
    }

    func testUniqueNames() {
        XCTAssertTrue(server.uniqueName.hasPrefix(":"))
        XCTAssertNotEqual(server.uniqueName, client.uniqueName)
    }

    func testRequestName() throws {
        let (server, client) = (self.server!, self.client!)
        let name = serviceName
        try serverQueue.sync {
            XCTAssertEqual(try server.requestName(name), .primaryOwner)
            XCTAssertEqual(try server.requestName(name), .alreadyOwner)
        }
        try clientQueue.sync {
            XCTAssertEqual(try client.requestName(name, doNotQueue: true), .exists)
            XCTAssertEqual(try client.requestName(name, doNotQueue: false), .inQueue)
            XCTAssertThrowsError(try client.requestName("not a name")) { error in
                XCTAssertEqual((error as? DBusError)?.name, DBusError.invalidArgsName)
            }
        }
        try serverQueue.sync { try server.releaseName(name) }
        // The queued client now owns it.
        try clientQueue.sync { XCTAssertEqual(try client.requestName(name), .alreadyOwner) }
    }

    func testBlockingCallRoundTrip() throws {
        try startEchoService()
        let arguments: [DBusValue] = [
            .string("hi"), .vardict([("a", .stringArray(["x"])), ("b", .variant(.int64(5)))]),
            .array(elementSignature: "a{sv}", []), .structure([.objectPath("/x"), .string("s"), .string("")]),
            .boolean(true), .double(2.5),
        ]
        let client = self.client!
        let call = try echoCall(arguments)
        let reply = try clientQueue.sync { try client.callBlocking(call) }
        XCTAssertEqual(reply.kind, .methodReturn)
        XCTAssertEqual(reply.signature, "sa{sv}aa{sv}(oss)bd")
        XCTAssertEqual(try reply.arguments(), arguments)
        XCTAssertEqual(reply.replySerial, call.serial)
        XCTAssertFalse(reply.sender?.isEmpty ?? true)
    }

    func testAsyncCallRoundTrip() throws {
        try startEchoService()
        let client = self.client!
        let result = Box<Result<Message, DBusError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let call = try echoCall([.uint32(42)])
        try clientQueue.sync {
            try client.call(call) { reply in
                dispatchPrecondition(condition: .onQueue(self.clientQueue))
                result.value = reply
                done.signal()
            }
        }
        done.waitOrFail("reply")
        let reply = try XCTUnwrap(result.value).get()
        XCTAssertEqual(try reply.arguments(), [.uint32(42)])
    }

    func testErrorRepliesKeepTheirName() throws {
        try startEchoService()
        let client = self.client!
        let failing = try echoCall(member: "Fail")
        XCTAssertThrowsError(try clientQueue.sync { try client.callBlocking(failing) }) { error in
            XCTAssertEqual(error as? DBusError, .invalidArgs("nope"))
        }
        let unknown = try echoCall(member: "Nothing")
        XCTAssertThrowsError(try clientQueue.sync { try client.callBlocking(unknown) }) { error in
            XCTAssertEqual((error as? DBusError)?.name, DBusError.unknownMethodName)
        }
        // Asynchronous: the error arrives as .failure with the peer's name and text.
        let result = Box<Result<Message, DBusError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let again = try echoCall(member: "Fail")
        let nobody = try Message.methodCall(destination: uniqueBusName("Nobody"), path: "/", interface: nil, member: "M")
        let nobodyResult = Box<Result<Message, DBusError>?>(nil)
        try clientQueue.sync {
            try client.call(again) { result.value = $0; done.signal() }
            try client.call(nobody) { nobodyResult.value = $0; done.signal() }
        }
        done.waitOrFail("error reply")
        done.waitOrFail("error reply from the bus")
        guard case .failure(let error)? = result.value else { return XCTFail("expected failure") }
        XCTAssertEqual(error, .invalidArgs("nope"))
        guard case .failure(let busError)? = nobodyResult.value else { return XCTFail("expected failure") }
        XCTAssertEqual(busError.name, "org.freedesktop.DBus.Error.ServiceUnknown")
    }

    func testCallTimeout() throws {
        // An object that never answers.
        let server = self.server!
        let name = serviceName
        try serverQueue.sync {
            _ = try server.requestName(name)
            try server.registerObject(path: Self.path) { _ in }
        }
        let client = self.client!
        let result = Box<Result<Message, DBusError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let call = try echoCall()
        try clientQueue.sync {
            try client.call(call, timeoutMilliseconds: 50) { result.value = $0; done.signal() }
        }
        done.waitOrFail("timeout")
        guard case .failure(let error)? = result.value else { return XCTFail("expected a timeout") }
        XCTAssertEqual(error.name, DBusError.noReplyName)
    }

    func testSubtreeRegistration() throws {
        try startEchoService(subtree: true)
        let client = self.client!
        let call = try echoCall(member: "Path", path: Self.path + "/Track/7")
        let reply = try clientQueue.sync { try client.callBlocking(call) }
        XCTAssertEqual(try reply.arguments(), [.objectPath(Self.path + "/Track/7")])
    }

    func testSignalsReachMatchingConnection() throws {
        let (server, client) = (self.server!, self.client!)
        let received = Box<[Message]>([])
        let arrived = DispatchSemaphore(value: 0)
        client.onSignal = { message in
            guard message.interface == Self.interface else { return }  // e.g. NameAcquired
            received.value.append(message)
            arrived.signal()
        }
        try clientQueue.sync { try client.addMatch("type='signal',interface='\(Self.interface)'") }
        let signal = try Message.signal(path: Self.path, interface: Self.interface, member: "Changed",
                                        arguments: [.vardict([("Volume", .double(0.5))]), .stringArray([])])
        try serverQueue.sync { try server.send(signal) }
        arrived.waitOrFail("signal")
        let message = try XCTUnwrap(received.value.first)
        XCTAssertEqual(message.kind, .signal)
        XCTAssertEqual(message.member, "Changed")
        XCTAssertEqual(message.path, Self.path)
        XCTAssertEqual(message.sender, server.uniqueName)
        XCTAssertEqual(try message.arguments(), [.vardict([("Volume", .double(0.5))]), .stringArray([])])
        XCTAssertThrowsError(try clientQueue.sync { try client.addMatch("type='nonsense'") })
    }

    func testCloseStopsEverything() throws {
        try startEchoService()
        let client = self.client!
        let call = try echoCall()
        clientQueue.sync { client.close() }
        XCTAssertThrowsError(try clientQueue.sync { try client.send(call) }) { error in
            XCTAssertEqual((error as? DBusError)?.name, DBusError.disconnectedName)
        }
        clientQueue.sync { client.close() }  // twice is harmless
        // The server stops answering once closed.
        let server = self.server!
        serverQueue.sync { server.close() }
        let other = try Connection(bus: .address(bus.address), queue: clientQueue)
        XCTAssertThrowsError(try clientQueue.sync { try other.callBlocking(call, timeoutMilliseconds: 1000) })
        clientQueue.sync { other.close() }
    }

    func testCloseFromInsideAHandlerAndDeinitWithoutClose() throws {
        try startEchoService()
        let queue = DispatchQueue(label: "test.third")
        var third: Connection? = try Connection(bus: .address(bus.address), queue: queue)
        let done = DispatchSemaphore(value: 0)
        let call = try echoCall()
        try queue.sync {
            let connection = third!
            try connection.call(call) { _ in
                connection.close()  // inside a dispatch
                done.signal()
            }
        }
        done.waitOrFail("reply")
        queue.sync {}
        third = nil
        // Dropped without close(), from the test thread.
        var fourth: Connection? = try Connection(bus: .address(bus.address), queue: queue)
        XCTAssertNotNil(fourth)
        fourth = nil
        queue.sync {}
    }

    /// libdispatch's rule for a read or write source: its descriptor stays open until the
    /// source's cancel handler has run. libdbus closes its socket as soon as it has removed the
    /// watch, while the cancelled sources leave libdispatch's epoll set later, on its manager
    /// thread; a test runner that closed bus connections while it started processes crashed
    /// there (`_dispatch_event_loop_drain`, CI). So each source watches a descriptor of its own,
    /// closed by its cancel handler: the socket shows up twice while the connection is open,
    /// and not at all once it is closed.
    func testTheWatchesHoldTheirOwnDescriptorsAndCloseThemWithTheConnection() throws {
        try startEchoService()
        let before = Self.socketDescriptors()
        let queue = DispatchQueue(label: "test.descriptors")
        let connection = try Connection(bus: .address(bus.address), queue: queue)
        let answered = DispatchSemaphore(value: 0)
        let call = try echoCall()
        try queue.sync { try connection.call(call) { _ in answered.signal() } }
        answered.waitOrFail("reply")
        let opened = Self.socketDescriptors().filter { before[$0.key] != $0.value }
        let sockets = Dictionary(grouping: opened.keys, by: { opened[$0]! })
        XCTAssertEqual(sockets.count, 1, "one socket for the connection: \(opened)")
        XCTAssertGreaterThanOrEqual(sockets.values.first?.count ?? 0, 2,
                                    "the watch's source has a descriptor of its own: \(opened)")
        queue.sync { connection.close() }
        XCTAssertTrue(eventually(timeout: 5) {
            let now = Self.socketDescriptors()
            return !opened.contains { now[$0.key] == $0.value }
        }, "a descriptor of the closed connection's socket is still open: \(Self.socketDescriptors())")
    }

    /// This process's socket descriptors: number → `socket:[inode]`.
    private static func socketDescriptors() -> [String: String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.reduce(into: [:]) { found, name in
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name),
               target.hasPrefix("socket:") { found[name] = target }
        }
    }

    func testLosingTheBusCallsOnDisconnect() throws {
        let disconnected = DispatchSemaphore(value: 0)
        client.onDisconnect = { disconnected.signal() }
        bus.stop()
        disconnected.waitOrFail("onDisconnect")
    }

    /// Prints the median round trip of 200 sequential asynchronous calls (no assertion: it is
    /// a measurement, not a timed test).
    func testRoundTripLatency() throws {
        try startEchoService()
        let client = self.client!
        let durations = Box<[UInt64]>([])
        let done = DispatchSemaphore(value: 0)
        let count = 200
        let name = serviceName
        let call = { @Sendable () throws -> Message in
            try Message.methodCall(destination: name, path: Self.path, interface: Self.interface,
                                   member: "Echo", arguments: [.string("ping")])
        }
        @Sendable func next() {
            do {
                let message = try call()
                let start = DispatchTime.now().uptimeNanoseconds
                try client.call(message) { result in
                    durations.value.append(DispatchTime.now().uptimeNanoseconds - start)
                    if case .failure(let error) = result { XCTFail("\(error)") }
                    if durations.value.count == count { done.signal() } else { next() }
                }
            } catch {
                XCTFail("\(error)")
                done.signal()
            }
        }
        clientQueue.async { next() }
        done.waitOrFail("\(count) calls", seconds: 30)
        let sorted = durations.value.sorted()
        guard !sorted.isEmpty else { return }
        let median = Double(sorted[sorted.count / 2]) / 1000
        let p90 = Double(sorted[sorted.count * 9 / 10]) / 1000
        print("DBusKit round trip over \(sorted.count) calls: median \(median) µs, p90 \(p90) µs")
    }
}
