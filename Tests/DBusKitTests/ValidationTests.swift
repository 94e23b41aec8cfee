import XCTest
@testable import DBusKit

/// Input libdbus would abort on must come back as a thrown `invalidArgs` instead.
final class ValidationTests: XCTestCase {
    private func assertInvalid(_ values: [DBusValue], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try Message.signal(path: "/a", interface: "org.aubade.I", member: "S", arguments: values),
                             file: file, line: line) { error in
            XCTAssertEqual((error as? DBusError)?.name, DBusError.invalidArgsName, file: file, line: line)
        }
    }

    func testInvalidObjectPaths() {
        for path in ["", "a", "/a/", "//", "/a//b", "/a-b", "/ä"] {
            XCTAssertFalse(DBusValidation.isValidObjectPath(path), path)
            assertInvalid([.objectPath(path)])
            XCTAssertThrowsError(try Message.methodCall(destination: nil, path: path, interface: nil, member: "M"))
            XCTAssertThrowsError(try Message.signal(path: path, interface: "org.aubade.I", member: "S"))
        }
        XCTAssertTrue(DBusValidation.isValidObjectPath("/org/mpris/MediaPlayer2"))
        XCTAssertTrue(DBusValidation.isValidObjectPath("/a_1/B2"))
    }

    func testStringsLibdbusRefuses() {
        assertInvalid([.string("nul\0inside")])
        assertInvalid([.variant(.vardict([("k", .string("\0"))]))])
        XCTAssertFalse(DBusValidation.isValidString("a\0"))
        XCTAssertTrue(DBusValidation.isValidString("ünïcödé ✓ 𝄞"))
        // Swift strings are always valid UTF-8; what libdbus' own validator refuses still throws.
        if !DBusValidation.isValidString("\u{FFFF}") {
            assertInvalid([.string("\u{FFFF}")])
        }
    }

    func testBadNames() {
        XCTAssertThrowsError(try Message.methodCall(destination: "no dots", path: "/a", interface: nil, member: "M"))
        XCTAssertThrowsError(try Message.methodCall(destination: nil, path: "/a", interface: "noDot", member: "M"))
        XCTAssertThrowsError(try Message.methodCall(destination: nil, path: "/a", interface: nil, member: "1Bad"))
        XCTAssertThrowsError(try Message.methodCall(destination: nil, path: "/a", interface: nil, member: "Bad.Member"))
        XCTAssertTrue(DBusValidation.isValidBusName(":1.42"))
        XCTAssertTrue(DBusValidation.isValidBusName("org.mpris.MediaPlayer2.aubade"))
        XCTAssertFalse(DBusValidation.isValidBusName("org"))
        XCTAssertTrue(DBusValidation.isValidMemberName("PlayPause"))
        XCTAssertFalse(DBusValidation.isValidMemberName(""))
        XCTAssertTrue(DBusValidation.isValidErrorName("org.mpris.Error.X"))
        XCTAssertFalse(DBusValidation.isValidInterfaceName("org..x"))
    }

    func testMistypedContainers() {
        assertInvalid([.array(elementSignature: "s", [.int32(1)])])                 // wrong element
        assertInvalid([.array(elementSignature: "s", [.string("a"), .objectPath("/")])])
        assertInvalid([.array(elementSignature: "", [])])                           // no element type
        assertInvalid([.array(elementSignature: "ss", [])])                         // two types
        assertInvalid([.array(elementSignature: "a", [])])                          // incomplete
        assertInvalid([.structure([])])                                              // empty struct
        assertInvalid([.dictionary(keySignature: "v", valueSignature: "s", [])])    // key not basic
        assertInvalid([.dictionary(keySignature: "as", valueSignature: "s", [])])
        assertInvalid([.dictionary(keySignature: "s", valueSignature: "v", [(key: .string("k"), value: .string("not a variant"))])])
        assertInvalid([.signature("a{")])
        var deep = DBusValue.int32(0)
        for _ in 0..<40 { deep = .variant(deep) }
        assertInvalid([deep])
        var deepArray = DBusValue.array(elementSignature: "i", [])
        for _ in 0..<40 { deepArray = .array(elementSignature: deepArray.signature, [deepArray]) }
        assertInvalid([deepArray])
    }

    func testReplyArgumentsValidatedToo() throws {
        let call = try Message.methodCall(destination: nil, path: "/a", interface: nil, member: "M")
        XCTAssertThrowsError(try call.makeReturn([.objectPath("bad")]))
    }
}
