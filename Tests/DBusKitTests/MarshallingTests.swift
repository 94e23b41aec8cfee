import Foundation
import XCTest
@testable import DBusKit

/// Building messages and reading them back, without a bus.
final class MarshallingTests: XCTestCase {
    private func roundTrip(_ values: [DBusValue], file: StaticString = #filePath, line: UInt = #line) throws -> Message {
        let message = try Message.methodCall(destination: "org.aubade.Test", path: "/org/aubade/Test",
                                             interface: "org.aubade.Test", member: "Echo", arguments: values)
        XCTAssertEqual(message.signature, DBusValue.signature(of: values), file: file, line: line)
        XCTAssertEqual(try message.arguments(), values, file: file, line: line)
        return message
    }

    func testEveryBasicType() throws {
        let values: [DBusValue] = [
            .byte(0xFF), .boolean(true), .boolean(false), .int16(-32768), .uint16(65535),
            .int32(-1), .uint32(UInt32.max), .int64(Int64.min), .uint64(UInt64.max), .double(-0.5),
            .string("héllo ✓"), .string(""), .objectPath("/"), .objectPath("/org/mpris/MediaPlayer2"),
            .signature("a{sv}"), .signature(""),
        ]
        let message = try roundTrip(values)
        XCTAssertEqual(message.signature, "ybbnqiuxtdssoogg")
    }

    /// A descriptor travels as a duplicate the reader takes and owns (logind's Inhibit returns one).
    func testFileDescriptorTravelsAsADuplicate() throws {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        defer { close(ends[0]); close(ends[1]) }
        let message = try Message.methodCall(destination: nil, path: "/t", interface: "org.aubade.Test",
                                             member: "Fd", arguments: [.string("x"), .unixFD(ends[1])])
        XCTAssertEqual(message.signature, "sh")
        let copy = try message.takeUnixFD(at: 1)
        XCTAssertNotEqual(copy, ends[1])
        var byte: UInt8 = 42
        XCTAssertEqual(write(copy, &byte, 1), 1)
        close(copy)
        byte = 0
        XCTAssertEqual(read(ends[0], &byte, 1), 1)
        XCTAssertEqual(byte, 42)
        XCTAssertThrowsError(try message.takeUnixFD(at: 0), "a string is not a descriptor")
        XCTAssertThrowsError(try message.takeUnixFD(at: 2), "there is no third argument")
        XCTAssertThrowsError(try message.takeUnixFD(at: -1))
    }

    /// Issue 10, finding 2: reading a body never opens a descriptor (libdbus dup()s each `h`
    /// read with dbus_message_iter_get_basic; the daemon read them and never closed them).
    /// Descriptors at the top level, in arrays, structs, variants and dictionaries read as -1.
    func testReadingArgumentsOpensNoDescriptor() throws {
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(null, 0)
        defer { close(null) }
        let fd = DBusValue.unixFD(null)
        let message = try Message.methodCall(
            destination: nil, path: "/t", interface: "org.aubade.Test", member: "Fds",
            arguments: [fd, .array(elementSignature: "h", [fd, fd, fd]), .structure([.int32(1), fd]), .variant(fd),
                        .dictionary(keySignature: "s", valueSignature: "h", [(key: .string("k"), value: fd)])])
        XCTAssertEqual(message.signature, "hah(ih)va{sh}")
        let before = try openDescriptorCount()
        var read: [DBusValue] = []
        for _ in 0..<200 { read = try message.arguments() }
        XCTAssertEqual(try openDescriptorCount(), before, "200 reads of a body with 7 descriptors")
        let placeholder = DBusValue.unixFD(-1)
        XCTAssertEqual(read, [placeholder, .array(elementSignature: "h", [placeholder, placeholder, placeholder]),
                              .structure([.int32(1), placeholder]), .variant(placeholder),
                              .dictionary(keySignature: "s", valueSignature: "h", [(key: .string("k"), value: placeholder)])])
        // An error message's text is read through arguments() too.
        XCTAssertNil(message.carriedError)
        // A placeholder cannot be sent back by mistake: it is refused before libdbus sees it.
        XCTAssertThrowsError(try Message.methodCall(destination: nil, path: "/t", interface: "org.aubade.Test",
                                                    member: "Echo", arguments: read))
    }

    /// The descriptors of this process open on /dev/null: what a dup() of the test's one would
    /// add. (All descriptors would count the runtime's own too, which its threads open when
    /// they please: a run of this test in a fresh process once saw one more.)
    private func openDescriptorCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == "/dev/null"
        }.count
    }

    func testNestedContainers() throws {
        let metadata = DBusValue.vardict([
            ("mpris:trackid", .objectPath("/org/aubade/Track/1")),
            ("mpris:length", .int64(180_000_000)),
            ("xesam:artist", .stringArray(["A", "B"])),
            ("xesam:title", .string("Song")),
            ("nested", .vardict([("x", .double(1.5))])),
            ("emptyList", .stringArray([])),
        ])
        XCTAssertEqual(metadata.signature, "a{sv}")
        let listOfDicts = DBusValue.array(elementSignature: "a{sv}", [metadata, .vardict([])])
        XCTAssertEqual(listOfDicts.signature, "aa{sv}")
        let playlist = DBusValue.structure([.objectPath("/p/1"), .string("Name"), .string("")])
        XCTAssertEqual(playlist.signature, "(oss)")
        let maybe = DBusValue.structure([.boolean(true), playlist])
        XCTAssertEqual(maybe.signature, "(b(oss))")
        let values: [DBusValue] = [
            metadata, listOfDicts, playlist, maybe,
            .array(elementSignature: "(oss)", []),
            .array(elementSignature: "(oss)", [playlist, playlist]),
            .array(elementSignature: "ay", [.array(elementSignature: "y", [.byte(1), .byte(2)]), .array(elementSignature: "y", [])]),
            .dictionary(keySignature: "u", valueSignature: "as", [(key: .uint32(7), value: .stringArray(["x"]))]),
            .dictionary(keySignature: "s", valueSignature: "v", []),
            .variant(.stringArray(["a", "b"])),
            .variant(.variant(.int32(3))),
            .variant(.vardict([("k", .boolean(false))])),
            .variant(.array(elementSignature: "v", [])),
        ]
        let message = try roundTrip(values)
        XCTAssertEqual(message.signature, "a{sv}aa{sv}(oss)(b(oss))a(oss)a(oss)aaya{uas}a{sv}vvvv")
    }

    func testDictionaryKeepsOrder() throws {
        let keys = (0..<20).map { "key\(19 - $0)" }
        let dict = DBusValue.vardict(keys.map { ($0, .string($0)) })
        let message = try roundTrip([dict])
        let read = try XCTUnwrap(try message.arguments().first?.asDictionaryEntries)
        XCTAssertEqual(read.map { $0.key.asString }, keys)
    }

    func testAccessors() {
        let v = DBusValue.variant(.variant(.string("x")))
        XCTAssertEqual(v.asString, "x")
        XCTAssertEqual(v.unwrapped, .string("x"))
        XCTAssertEqual(v.asVariant, .variant(.string("x")))
        XCTAssertNil(DBusValue.int32(1).asString)
        XCTAssertEqual(DBusValue.uint32(5).asInt64, 5)
        XCTAssertEqual(DBusValue.byte(5).asInt64, 5)
        XCTAssertNil(DBusValue.uint64(UInt64.max).asInt64)
        XCTAssertEqual(DBusValue.variant(.int64(-3)).asInt64, -3)
        XCTAssertEqual(DBusValue.int32(2).asDouble, 2)
        XCTAssertEqual(DBusValue.double(0.25).asDouble, 0.25)
        XCTAssertEqual(DBusValue.boolean(true).asBool, true)
        XCTAssertEqual(DBusValue.objectPath("/a").asObjectPath, "/a")
        XCTAssertNil(DBusValue.objectPath("/a").asString)
        XCTAssertEqual(DBusValue.stringArray(["a", "b"]).asStringArray, ["a", "b"])
        XCTAssertEqual(DBusValue.objectPathArray(["/a"]).asObjectPathArray, ["/a"])
        let dict = DBusValue.vardict([("a", .int32(1)), ("b", .string("s"))]).asVardict
        XCTAssertEqual(dict?["a"], .int32(1))
        XCTAssertEqual(dict?["b"], .string("s"))
    }

    func testEquality() {
        XCTAssertNotEqual(DBusValue.stringArray([]), .objectPathArray([]))
        XCTAssertNotEqual(DBusValue.int32(1), .uint32(1))
        XCTAssertNotEqual(DBusValue.vardict([("a", .int32(1))]), .vardict([("a", .int32(2))]))
        XCTAssertNotEqual(DBusValue.vardict([("a", .int32(1)), ("b", .int32(1))]),
                          .vardict([("b", .int32(1)), ("a", .int32(1))]))
        XCTAssertEqual(DBusValue.vardict([("a", .int32(1))]), .vardict([("a", .int32(1))]))
    }

    func testHeaderFieldsAndReplies() throws {
        let call = try Message.methodCall(destination: nil, path: "/a", interface: nil, member: "M")
        XCTAssertEqual(call.kind, .methodCall)
        XCTAssertEqual(call.path, "/a")
        XCTAssertNil(call.interface)
        XCTAssertNil(call.destination)
        XCTAssertEqual(call.member, "M")
        XCTAssertEqual(call.signature, "")
        XCTAssertEqual(try call.arguments(), [])
        XCTAssertTrue(call.expectsReply)

        // Never sent (serial 0): libdbus would abort on a reply, so makeReturn throws and
        // makeError makes an error message that answers nothing.
        XCTAssertEqual(call.serial, 0)
        XCTAssertThrowsError(try call.makeReturn([.string("ok")]))

        let error = call.makeError(.unknownProperty("no such property"))
        XCTAssertEqual(error.kind, .error)
        XCTAssertEqual(error.errorName, "org.freedesktop.DBus.Error.UnknownProperty")
        XCTAssertEqual(error.carriedError, .unknownProperty("no such property"))

        // A bad error name or a NUL in the text must not stop a handler from answering.
        let fallback = call.makeError(DBusError(name: "not an error name", message: "a\0b"))
        XCTAssertEqual(fallback.errorName, DBusError.failedName)
        XCTAssertEqual(fallback.carriedError?.message, "ab")

        let signal = try Message.signal(path: "/a", interface: "org.aubade.I", member: "Changed", arguments: [.uint32(1)])
        XCTAssertEqual(signal.kind, .signal)
        XCTAssertEqual(signal.interface, "org.aubade.I")
        XCTAssertEqual(try signal.arguments(), [.uint32(1)])
    }

    func testErrorDescription() {
        XCTAssertEqual(DBusError.failed("x").description, "org.freedesktop.DBus.Error.Failed: x")
        XCTAssertEqual(DBusError.invalidArgs("x").name, "org.freedesktop.DBus.Error.InvalidArgs")
        XCTAssertEqual(DBusError.unknownMethod("x").name, "org.freedesktop.DBus.Error.UnknownMethod")
        XCTAssertEqual(DBusError.propertyReadOnly("x").name, "org.freedesktop.DBus.Error.PropertyReadOnly")
        XCTAssertEqual(DBusError.unknownInterface("x").name, "org.freedesktop.DBus.Error.UnknownInterface")
        XCTAssertEqual(DBusError.unknownObject("x").name, "org.freedesktop.DBus.Error.UnknownObject")
    }
}
