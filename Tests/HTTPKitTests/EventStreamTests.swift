import Dispatch
import Foundation
import HTTPKit
import XCTest

/// Server-sent events: delivery from any thread, the end told by `onClose`, the buffer's bound
/// for a client that does not read, pings, and no CPU while idle.
final class EventStreamTests: XCTestCase {
    private var server: HTTPServer?

    override func tearDown() {
        server?.stop()
        server = nil
    }

    /// A server whose every request opens a stream, kept in `collector`.
    private func startStreaming(_ settings: HTTPServerSettings = HTTPServerSettings(port: 0),
                                into collector: Collector) throws -> Int {
        let server = HTTPServer(settings: settings) { _, responder in
            let stream = responder.openEventStream { collector.streamClosed() }
            collector.keep(stream)
        }
        try server.start()
        self.server = server
        return try XCTUnwrap(server.port)
    }

    private func openStream(port: Int, receiveBuffer: Int32? = nil) throws -> TestConnection {
        let connection = try TestConnection(port: port, receiveBuffer: receiveBuffer)
        connection.send("GET /api/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
        return connection
    }

    func testThreeEventsThenTheClientLeaves() throws {
        let collector = Collector()
        let port = try startStreaming(HTTPServerSettings(port: 0, eventStreamPingInterval: 0.2), into: collector)
        let client = try openStream(port: port)
        XCTAssertTrue(eventually { collector.streams.count == 1 })
        let stream = try XCTUnwrap(collector.streams.first)
        let senders = DispatchGroup()
        for index in 1...3 {
            DispatchQueue.global().async(group: senders) {
                XCTAssertTrue(stream.send(event: "state", data: "{\"n\": \(index)}\nsecond line"))
            }
        }
        senders.wait()
        let received = try XCTUnwrap(client.read(until: "\n\n", count: 3))
        XCTAssertTrue(received.hasPrefix("HTTP/1.1 200"))
        XCTAssertTrue(received.lowercased().contains("content-type: text/event-stream"))
        XCTAssertTrue(received.lowercased().contains("cache-control: no-cache"))
        for index in 1...3 { XCTAssertTrue(received.contains("event: state\ndata: {\"n\": \(index)}\ndata: second line\n\n")) }
        XCTAssertEqual(collector.closedStreams, 0)

        withExtendedLifetime(client) {}
        shutdown(client.descriptor, Int32(SHUT_RDWR))
        // Noticed at the next write that fails: the pings' (every 0.2 s here).
        XCTAssertTrue(eventually { collector.closedStreams == 1 })
        XCTAssertFalse(stream.isOpen)
        XCTAssertFalse(stream.send(data: "too late"))
        XCTAssertTrue(eventually { self.server?.openEventStreams == 0 })
    }

    func testPingsKeepTheStreamTalking() throws {
        let collector = Collector()
        let port = try startStreaming(HTTPServerSettings(port: 0, eventStreamPingInterval: 0.1), into: collector)
        let client = try openStream(port: port)
        XCTAssertNotNil(client.read(until: ": ping\n\n", count: 2, timeout: 3))
    }

    func testCloseEndsTheStreamAfterWhatIsQueued() throws {
        let collector = Collector()
        let port = try startStreaming(into: collector)
        let client = try openStream(port: port)
        XCTAssertTrue(eventually { collector.streams.count == 1 })
        let stream = try XCTUnwrap(collector.streams.first)
        stream.send(event: "bye", data: "last")
        stream.close()
        // The chunked body ends properly; the connection stays for the next request.
        let received = try XCTUnwrap(client.read(until: "\r\n0\r\n\r\n"))
        XCTAssertTrue(received.contains("event: bye\ndata: last\n\n"))
        XCTAssertTrue(eventually { collector.closedStreams == 1 })
    }

    func testAClientThatNeverReadsIsClosedAtTheBufferLimit() throws {
        let collector = Collector()
        let limit = 256 * 1024
        let port = try startStreaming(HTTPServerSettings(port: 0, eventStreamBufferLimit: limit), into: collector)
        let client = try openStream(port: port, receiveBuffer: 4096)
        XCTAssertTrue(eventually { collector.streams.count == 1 })
        let stream = try XCTUnwrap(collector.streams.first)
        let residentBefore = residentBytes()
        let event = String(repeating: "x", count: 8 * 1024)
        var sent = 0
        while stream.send(event: "big", data: event) {
            sent += 1
            XCTAssertLessThanOrEqual(stream.pendingBytes, limit)
            if sent > 20_000 { break }  // 160 MB: the bound did not hold
        }
        XCTAssertLessThan(sent, 20_000, "the stream was never closed")
        XCTAssertTrue(eventually { collector.closedStreams == 1 })
        XCTAssertEqual(stream.pendingBytes, 0)
        XCTAssertLessThan(residentBytes() - residentBefore, 32 * 1024 * 1024)
        XCTAssertTrue(client.isClosed(within: 5))
    }

    func testAnIdleStreamCostsNoCPU() throws {
        let collector = Collector()
        let port = try startStreaming(into: collector)
        let client = try openStream(port: port)
        XCTAssertTrue(eventually { collector.streams.count == 1 })
        collector.streams.first?.send(data: "hello")
        XCTAssertNotNil(client.read(until: "data: hello\n\n"))
        let before = processCPUSeconds()
        sleep(3)
        let used = processCPUSeconds() - before
        XCTAssertLessThan(used, 0.1, "CPU time used in 3 s with one idle stream")
        XCTAssertEqual(collector.closedStreams, 0)
    }

    func testAStreamOpenedLaterFromAnotherThread() throws {
        let collector = Collector()
        let server = HTTPServer(settings: HTTPServerSettings(port: 0)) { _, responder in
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) {
                let stream = responder.openEventStream { collector.streamClosed() }
                stream.send(event: "snapshot", data: "{}")
                collector.keep(stream)
            }
        }
        try server.start()
        self.server = server
        let client = try openStream(port: try XCTUnwrap(server.port))
        XCTAssertNotNil(client.read(until: "event: snapshot\ndata: {}\n\n"))
    }

    /// VmRSS of this process.
    private func residentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// utime + stime of this process, from /proc/self/stat.
    private func processCPUSeconds() -> Double {
        let stat = (try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8)) ?? ""
        // Fields after the command name (which may hold spaces), from the closing parenthesis.
        let fields = stat[(stat.lastIndex(of: ")") ?? stat.startIndex)...].split(separator: " ")
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard fields.count > 13, let user = Double(fields[12]), let system = Double(fields[13]) else { return 0 }
        return (user + system) / ticks
    }
}
