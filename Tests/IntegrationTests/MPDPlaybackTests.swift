import Foundation
import XCTest
@testable import TestSupport

/// Playback commands of MPD clients do what mpd's do, where Aubade's own player (MPRIS's
/// semantics) would do otherwise — found side by side with mpd 0.23 (MPDSideBySideTests).
final class MPDPlaybackTests: AubadeTestCase {
    /// mpd plays the song `next` goes to even from a pause (MPRIS's Next keeps the pause), and
    /// deleting the paused current song stops, the song after it current.
    func testSkippingAndDeletingWhilePausedDoAsMPDDoes() throws {
        try startPlaying([fixtures.long, fixtures.long2, fixtures.alpha])
        let socket = (ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? "/tmp") + "/aubade/mpd.socket"
        let mpd = try MPDConnection(.unix(path: socket), connectTimeout: Sanitizer.scaled(10))
        XCTAssertTrue(try mpd.command("pause 1").isOK)
        XCTAssertTrue(try mpd.command("next").isOK)
        let afterNext = try mpd.command("status")
        XCTAssertEqual(afterNext.value("state"), "play", "\(afterNext)")
        XCTAssertEqual(afterNext.value("song"), "1", "\(afterNext)")

        XCTAssertTrue(try mpd.command("pause 1").isOK)
        XCTAssertTrue(try mpd.command("delete 1").isOK)
        let afterDelete = try mpd.command("status")
        XCTAssertEqual(afterDelete.value("state"), "stop", "\(afterDelete)")
        XCTAssertEqual(afterDelete.value("song"), "1", "the song after the deleted one is current: \(afterDelete)")
        XCTAssertEqual(try mpd.command("currentsong").value("Title"), "Alpha")
    }
}
