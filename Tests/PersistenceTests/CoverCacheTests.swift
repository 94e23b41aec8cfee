import Foundation
import PlayerCore
import Testing
import Persistence
@testable import TestSupport

@Suite struct CoverCacheTests {
    /// Bytes lame takes for a JPEG (it looks at the first two) and our cache names `.jpg`.
    private func jpeg(_ size: Int = 600) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE0] + (0..<size).map { _ in UInt8.random(in: 0...255) } + [0xFF, 0xD9]
    }

    private func mp3(_ path: String, picture: [UInt8]?) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        var options: [String] = []
        if let picture {
            try Fixtures.write(picture, to: path + ".jpg")
            options = ["--ti", path + ".jpg"]
        }
        try Fixtures.makeMP3(at: path, seconds: 0.2, lameOptions: options)
        if picture != nil { try FileManager.default.removeItem(atPath: path + ".jpg") }
    }

    private func setModified(_ path: String, secondsAgo: Double) throws {
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-secondsAgo)], ofItemAtPath: path)
    }

    private func modified(_ path: String) throws -> Date {
        try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as! Date
    }

    @Test func embeddedPictureIsCachedOnceAndReused() throws {
        let dir = try Fixtures.makeDirectory()
        let picture = jpeg()
        try mp3(dir + "/album/01.mp3", picture: picture)
        try mp3(dir + "/album/02.mp3", picture: picture)
        // A folder cover exists too, but the embedded picture wins.
        try Fixtures.write(jpeg(), to: dir + "/album/cover.jpg")
        let covers = dir + "/cache/aubade/covers"
        let cache = CoverCache(directory: covers)

        let url = try #require(cache.artURL(for: dir + "/album/01.mp3"))
        let names = files(in: covers)
        #expect(names.count == 1)
        let name = try #require(names.first)
        #expect(name.hasSuffix(".jpg") && name.count == 32 + 4)
        #expect(url == FileURI.uri(forPath: covers + "/" + name))
        #expect(try Fixtures.contents(of: covers + "/" + name) == picture)
        // Same picture in another track: the same file.
        #expect(cache.artURL(for: dir + "/album/02.mp3") == url)
        #expect(cache.artURL(for: dir + "/album/01.mp3") == url)
        #expect(files(in: covers) == [name])

        // Another cache (a restarted daemon) reuses the file and marks it as used.
        let inode = try FileManager.default.attributesOfItem(atPath: covers + "/" + name)[.systemFileNumber] as? Int
        try setModified(covers + "/" + name, secondsAgo: 3600)
        #expect(CoverCache(directory: covers).artURL(for: dir + "/album/01.mp3") == url)
        #expect(try FileManager.default.attributesOfItem(atPath: covers + "/" + name)[.systemFileNumber] as? Int == inode)
        #expect(try modified(covers + "/" + name).timeIntervalSinceNow > -60)
    }

    /// The cached copy a URL names.
    private func picture(at url: String?) throws -> [UInt8] {
        try Fixtures.contents(of: String(try #require(url).dropFirst("file://".count)))
    }

    @Test func folderCovers() throws {
        let dir = try Fixtures.makeDirectory()
        let covers = dir + "/covers"
        let cache = CoverCache(directory: covers)
        try mp3(dir + "/a/song.mp3", picture: nil)
        let chosen = jpeg()
        try Fixtures.write(jpeg(), to: dir + "/a/Folder.PNG")
        try Fixtures.write(chosen, to: dir + "/a/COVER.JPG")
        let a = cache.artURL(for: dir + "/a/song.mp3")
        #expect(try picture(at: a) == chosen, "cover.jpg (any case) before folder.png")
        #expect(a?.hasPrefix(FileURI.uri(forPath: covers + "/")) == true, "a copy named by its content: \(a ?? "nil")")

        try mp3(dir + "/b é/song.mp3", picture: nil)
        let png = jpeg()
        try Fixtures.write(png, to: dir + "/b é/folder.png")
        #expect(try picture(at: cache.artURL(for: dir + "/b é/song.mp3")) == png)

        // Nothing: nil. Not even an MP3: still the folder's cover (or nil).
        try mp3(dir + "/c/song.mp3", picture: nil)
        #expect(cache.artURL(for: dir + "/c/song.mp3") == nil)
        try Fixtures.write(Array("not audio".utf8), to: dir + "/a/junk.mp3")
        #expect(cache.artURL(for: dir + "/a/junk.mp3") == a)
        #expect(cache.artURL(for: dir + "/missing/x.mp3") == nil)
        #expect(files(in: covers).count == 2)
    }

    /// Phone remotes cache art by URL: a replaced picture must get a new one, or the phone
    /// keeps showing the old cover.
    @Test func theURLChangesWhenTheFolderCoverDoes() throws {
        let dir = try Fixtures.makeDirectory()
        let cache = CoverCache(directory: dir + "/covers")
        try mp3(dir + "/album/song.mp3", picture: nil)
        let first = jpeg(), second = jpeg(800)
        try Fixtures.write(first, to: dir + "/album/cover.jpg")
        let before = cache.artURL(for: dir + "/album/song.mp3")
        #expect(try picture(at: before) == first)
        #expect(cache.artURL(for: dir + "/album/song.mp3") == before, "unchanged: the same URL")

        try Fixtures.write(second, to: dir + "/album/cover.jpg")
        let after = cache.artURL(for: dir + "/album/song.mp3")
        #expect(after != before)
        #expect(try picture(at: after) == second)
    }

    @Test func theURLChangesWhenTheEmbeddedPictureDoes() throws {
        let dir = try Fixtures.makeDirectory()
        let cache = CoverCache(directory: dir + "/covers")
        let first = jpeg(), second = jpeg(900)
        try mp3(dir + "/song.mp3", picture: first)
        let before = cache.artURL(for: dir + "/song.mp3")
        #expect(try picture(at: before) == first)

        // Retagged in place (the same path), with another picture.
        try mp3(dir + "/song.mp3", picture: second)
        let after = cache.artURL(for: dir + "/song.mp3")
        #expect(after != before)
        #expect(try picture(at: after) == second)
    }

    @Test func leastRecentlyUsedPicturesAreEvicted() throws {
        let dir = try Fixtures.makeDirectory()
        let covers = dir + "/covers"
        let cache = CoverCache(directory: covers, limitBytes: 3000)
        for name in ["a", "b", "c"] { try mp3(dir + "/\(name).mp3", picture: jpeg(1200)) }

        let a = try #require(cache.artURL(for: dir + "/a.mp3")).dropFirst("file://".count)
        let b = try #require(cache.artURL(for: dir + "/b.mp3")).dropFirst("file://".count)
        try setModified(String(a), secondsAgo: 300)
        try setModified(String(b), secondsAgo: 200)
        // Using "a" again makes "b" the least recently used.
        #expect(cache.artURL(for: dir + "/a.mp3") == FileURI.uri(forPath: String(a)))
        let c = try #require(cache.artURL(for: dir + "/c.mp3")).dropFirst("file://".count)
        #expect(fileExists(String(a)) && fileExists(String(c)))
        #expect(!fileExists(String(b)))
        #expect(files(in: covers).count == 2)

        // An evicted picture is written again when asked for.
        #expect(cache.artURL(for: dir + "/b.mp3") == FileURI.uri(forPath: String(b)))
        #expect(fileExists(String(b)))
        #expect(files(in: covers).count == 2)
    }
}
