import Dispatch
import Foundation
import HTTPKit
import XCTest

/// Starting on a port already taken, stopping with streams open, more connections than allowed.
final class ServerLifecycleTests: XCTestCase {
    func testAPortAlreadyTakenIsItsOwnError() throws {
        let first = HTTPServer(settings: HTTPServerSettings(port: 0)) { _, responder in responder.respond(.json("1")) }
        try first.start()
        defer { first.stop() }
        let port = try XCTUnwrap(first.port)
        let second = HTTPServer(settings: HTTPServerSettings(port: port)) { _, responder in responder.respond(.json("2")) }
        XCTAssertThrowsError(try second.start()) { error in
            XCTAssertEqual(error as? HTTPServerError, .addressInUse(address: "127.0.0.1", port: port))
        }
        XCTAssertNil(second.port)
        XCTAssertEqual(try get(port: port, "/").body, "1")
    }

    func testBadAddressesAreRefused() {
        for address in ["localhost", "300.1.1.1", "::g"] {
            let server = HTTPServer(settings: HTTPServerSettings(address: address, port: 0)) { _, _ in }
            XCTAssertThrowsError(try server.start()) { XCTAssertEqual($0 as? HTTPServerError, .invalidAddress(address)) }
        }
    }

    func testIPv6LoopbackAndAnyListen() throws {
        for address in ["::1", "[::1]", "any"] {
            let server = HTTPServer(settings: HTTPServerSettings(address: address, port: 0)) { request, responder in
                responder.respond(.json("\"\(request.peer) \(request.peerIsLoopback)\""))
            }
            do throws(HTTPServerError) {
                try server.start()
            } catch {
                if case .cannotListen(_, _, EAFNOSUPPORT) = error { continue }  // no IPv6 here
                throw error
            }
            defer { server.stop() }
            if address == "any" {
                XCTAssertEqual(try get(port: try XCTUnwrap(server.port), "/").body, "\"127.0.0.1 true\"")
            }
        }
    }

    func testStopWithOpenStreamsReturnsPromptly() throws {
        let collector = Collector()
        let server = HTTPServer(settings: HTTPServerSettings(port: 0)) { _, responder in
            if collector.streams.count < 3 {
                collector.keep(responder.openEventStream { collector.streamClosed() })
            } else {
                collector.hold(responder)  // an answer that never comes
            }
        }
        try server.start()
        let port = try XCTUnwrap(server.port)
        let clients = try (0..<4).map { _ in try TestConnection(port: port) }
        for client in clients { client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n") }
        XCTAssertTrue(eventually { collector.streams.count == 3 && collector.heldCount == 1 })
        // One stream has a byte waiting, the others are suspended, one request waits.
        collector.streams.first?.send(data: "x")
        let started = TestConnection.now()
        server.stop()
        XCTAssertLessThan(TestConnection.now() - started, 2)
        XCTAssertEqual(collector.closedStreams, 3)
        XCTAssertEqual(server.openEventStreams, 0)
        for client in clients { XCTAssertTrue(client.isClosed(within: 2)) }
        // An answer after the stop goes nowhere, harmlessly; the server starts again.
        collector.releaseHeld(with: .json("{}"))
        try server.start()
        defer { server.stop() }
        XCTAssertNotNil(server.port)
    }

    func testConnectionsBeyondTheLimitAreRefusedAndTheServerGoesOn() throws {
        let collector = Collector()
        let settings = HTTPServerSettings(port: 0, maximumConnections: 16, connectionsPerAddress: 0)
        let server = HTTPServer(settings: settings) { request, responder in
            if request.path == "/hold" { collector.hold(responder) } else { responder.respond(.json("\"served\"")) }
        }
        try server.start()
        defer { server.stop() }
        let port = try XCTUnwrap(server.port)
        // libmicrohttpd stops accepting at the limit: the rest wait in the listen queue (their
        // requests are served later) or, past it, do not connect at all.
        var clients = TestConnection.openMany(port: port, count: 200, timeout: 0.5)
        for client in clients { client.send("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n") }
        XCTAssertLessThan(clients.count, 200, "some connections are refused")
        XCTAssertTrue(eventually { collector.heldCount == 16 })
        usleep(300_000)
        XCTAssertEqual(collector.heldCount, 16, "no more requests than connections allowed")
        collector.releaseHeld(with: .json("\"released\""))
        clients.removeAll()
        XCTAssertTrue(eventually(timeout: 10) {
            collector.releaseHeld(with: .json("\"released\""))
            return (try? get(port: port, "/after").body) == "\"served\""
        })
    }

    func testPerAddressLimit() throws {
        let collector = Collector()
        let server = HTTPServer(settings: HTTPServerSettings(port: 0, connectionsPerAddress: 2)) { _, responder in
            collector.hold(responder)
        }
        try server.start()
        defer { server.stop() }
        let port = try XCTUnwrap(server.port)
        let clients = try (0..<3).map { _ in try TestConnection(port: port) }
        for client in clients { client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n") }
        XCTAssertTrue(clients[2].isClosed(within: 5))
        XCTAssertTrue(eventually { collector.heldCount == 2 })
        collector.releaseHeld(with: .json("{}"))
    }
}
