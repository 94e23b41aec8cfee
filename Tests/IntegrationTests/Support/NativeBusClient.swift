import DBusKit
import Dispatch
import Foundation

/// A session-bus client in this process (DBusKit), for calls whose timing matters: no
/// dbus-send start-up in the figures, and calls that overlap (an AddTrack still loading while
/// other calls go on). Each client has its own connection and queue; use one per concurrent
/// caller. The test's own `DBusValue` (dbus-send's printout) is a different type from
/// `DBusKit.DBusValue`, which is spelt out here.
final class NativeBusClient: @unchecked Sendable {
    let queue: DispatchQueue
    private let connection: Connection

    init(label: String = "aubade.tests.client") throws {
        let queue = DispatchQueue(label: label)
        self.queue = queue
        let result = queue.sync { () -> Result<Connection, DBusError> in
            do throws(DBusError) { return .success(try Connection(bus: .session, queue: queue)) } catch { return .failure(error) }
        }
        connection = try result.get()
    }

    deinit {
        let connection = self.connection
        queue.sync { connection.close() }
    }

    private func message(_ interface: String, _ member: String,
                         _ arguments: [DBusKit.DBusValue]) throws -> Message {
        // Aubade's own interfaces are on their own object; Properties calls go where the
        // interface they name lives.
        var named = interface
        if interface == "org.freedesktop.DBus.Properties", case .string(let target)? = arguments.first { named = target }
        return try Message.methodCall(destination: "org.mpris.MediaPlayer2.aubade",
                                      path: named.hasPrefix("org.aubade.") ? "/org/aubade/Player" : "/org/mpris/MediaPlayer2",
                                      interface: interface, member: member, arguments: arguments)
    }

    /// Calls and waits; returns the reply's arguments and the round trip in seconds.
    /// An error reply is thrown (as DBusKit's `DBusError`, with its D-Bus name).
    func call(_ interface: String, _ member: String, _ arguments: [DBusKit.DBusValue] = [],
              timeoutMilliseconds: Int32 = 120_000) throws -> (values: [DBusKit.DBusValue], seconds: Double) {
        let connection = self.connection
        let call = try message(interface, member, arguments)
        let result = queue.sync { () -> Result<([DBusKit.DBusValue], Double), DBusError> in
            do throws(DBusError) {
                let start = DispatchTime.now().uptimeNanoseconds
                let reply = try connection.callBlocking(call, timeoutMilliseconds: timeoutMilliseconds)
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                if let error = reply.carriedError { throw error }
                return .success((try reply.arguments(), seconds))
            } catch {
                return .failure(error)
            }
        }
        let (values, seconds) = try result.get()
        return (values, seconds)
    }

    /// Sends a call and returns at once; `completion` runs (on this client's queue) with the
    /// outcome and the round trip in seconds.
    func callAsync(_ interface: String, _ member: String, _ arguments: [DBusKit.DBusValue] = [],
                   timeoutMilliseconds: Int32 = 300_000,
                   completion: @escaping @Sendable (Result<[DBusKit.DBusValue], DBusError>, Double) -> Void) throws {
        let connection = self.connection
        let call = try message(interface, member, arguments)
        let sent = queue.sync { () -> DBusError? in
            let start = DispatchTime.now().uptimeNanoseconds
            do throws(DBusError) {
                try connection.call(call, timeoutMilliseconds: timeoutMilliseconds) { result in
                    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                    completion(result.flatMap { reply -> Result<[DBusKit.DBusValue], DBusError> in
                        if let error = reply.carriedError { return .failure(error) }
                        do throws(DBusError) { return .success(try reply.arguments()) } catch { return .failure(error) }
                    }, seconds)
                }
                connection.flush()
                return nil
            } catch {
                return error
            }
        }
        if let sent { throw sent }
    }

    /// Properties.Get, timed.
    func get(_ interface: String, _ property: String) throws -> (value: DBusKit.DBusValue?, seconds: Double) {
        let (values, seconds) = try call("org.freedesktop.DBus.Properties", "Get", [.string(interface), .string(property)])
        return (values.first?.unwrapped, seconds)
    }
}

/// Medians and percentiles of timings.
struct Timings: CustomStringConvertible {
    var seconds: [Double]

    var sorted: [Double] { seconds.sorted() }
    func percentile(_ fraction: Double) -> Double {
        let ordered = sorted
        guard !ordered.isEmpty else { return .nan }
        return ordered[min(ordered.count - 1, Int((Double(ordered.count - 1) * fraction).rounded()))]
    }
    var median: Double { percentile(0.5) }
    var max: Double { seconds.max() ?? .nan }
    var description: String {
        String(format: "median %.2f ms, p99 %.2f ms, max %.2f ms over %d", median * 1000, percentile(0.99) * 1000,
               max * 1000, seconds.count)
    }
}
