import Foundation
import Testing
@testable import Library
@testable import TestSupport

@Suite struct DirectoryLoadingTests {
    let loader = QueueLoader(reader: fakeReader)

    @Test func filesInNaturalOrder() throws {
        let dir = try Fixtures.makeDirectory()
        try touch(dir, ["10 x.mp3", "2 x.mp3", "1 x.mp3", "B.mp3", "a.mp3"])
        let (tracks, problems) = loader.load([dir])
        #expect(problems.isEmpty)
        #expect(names(tracks, relativeTo: dir) == ["1 x.mp3", "2 x.mp3", "10 x.mp3", "a.mp3", "B.mp3"])
    }

    @Test func discThenTrackThenName() throws {
        let dir = try Fixtures.makeDirectory()
        try touch(dir, ["a d2 t1.mp3", "b d1 t2.mp3", "c d1 t1.mp3", "untagged.mp3", "z d1 t10.mp3"])
        let (tracks, _) = loader.load([dir])
        #expect(names(tracks, relativeTo: dir) == ["c d1 t1.mp3", "b d1 t2.mp3", "z d1 t10.mp3", "untagged.mp3", "a d2 t1.mp3"])
    }

    @Test func recursiveOnlyMP3NoHiddenFolderByFolder() throws {
        let dir = try Fixtures.makeDirectory()
        try touch(dir, ["top.mp3", "cover.jpg", "notes.txt", "LOUD.MP3", ".hidden.mp3",
                        ".git/inside.mp3", "CD10/one.mp3", "CD2/one.mp3", "CD2/two.mp3", "CD2/deeper/x.mp3",
                        "empty/", "list.m3u"])
        let (tracks, problems) = loader.load([dir])
        #expect(problems.isEmpty)
        #expect(names(tracks, relativeTo: dir) == ["LOUD.MP3", "top.mp3", "CD2/one.mp3", "CD2/two.mp3",
                                                   "CD2/deeper/x.mp3", "CD10/one.mp3"])
    }

    @Test func symlinkLoopsTerminate() throws {
        let dir = try Fixtures.makeDirectory()
        try touch(dir, ["a.mp3", "sub/b.mp3"])
        try FileManager.default.createSymbolicLink(atPath: dir + "/sub/loop", withDestinationPath: dir)
        try FileManager.default.createSymbolicLink(atPath: dir + "/again", withDestinationPath: dir + "/sub")
        let (tracks, problems) = loader.load([dir])
        #expect(problems.isEmpty)
        #expect(tracks.count == 2)
    }

    @Test func directoryWithoutMP3IsAProblem() throws {
        let dir = try Fixtures.makeDirectory()
        try touch(dir, ["readme.txt", "art/cover.jpg"])
        let (tracks, problems) = loader.load([dir])
        #expect(tracks.isEmpty)
        #expect(problems == [LoadProblem(path: dir, reason: "no playable music files in directory")])
    }

    @Test func missingPathAndBadFilesAreReportedOthersKept() throws {
        let dir = try Fixtures.makeDirectory()
        try touch(dir, ["good 1.mp3", "bad 2.mp3", "good 3.mp3"])
        let (tracks, problems) = loader.load([dir + "/nope.mp3", dir, dir + "/good 1.mp3"])
        #expect(names(tracks, relativeTo: dir) == ["good 1.mp3", "good 3.mp3", "good 1.mp3"])
        #expect(problems == [
            LoadProblem(path: dir + "/nope.mp3", reason: "file not found"),
            LoadProblem(path: dir + "/bad 2.mp3", reason: "not an MP3 file"),
        ])
        #expect(problems[0].description == dir + "/nope.mp3: file not found")
    }

    @Test func relativeArgumentsBecomeAbsolute() {
        #expect(FileSystem.absolute("a/./b/../c.mp3", relativeTo: "/music") == "/music/a/c.mp3")
        #expect(FileSystem.absolute("//x//y/") == "/x/y")
        #expect(FileSystem.absolute("song.mp3").isAbsolute)
    }

    @Test(arguments: [
        ("2 x", "10 x"), ("a", "B"), ("track9", "track10"), ("x 02", "x 3"),
        ("1", "1a"), ("01", "1"), ("ab", "abc"), ("Z 99999999999999999999998", "Z 99999999999999999999999"),
    ])
    func naturalOrder(_ smaller: String, _ larger: String) {
        #expect(NaturalOrder.areInIncreasingOrder(smaller, larger))
        #expect(!NaturalOrder.areInIncreasingOrder(larger, smaller))
    }
}
