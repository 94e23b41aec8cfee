import AudioFixtures
import Foundation
import PlayerCore
import Testing
import Persistence

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

    @Test func folderCovers() throws {
        let dir = try Fixtures.makeDirectory()
        let cache = CoverCache(directory: dir + "/covers")
        try mp3(dir + "/a/song.mp3", picture: nil)
        try Fixtures.write(jpeg(), to: dir + "/a/Folder.PNG")
        try Fixtures.write(jpeg(), to: dir + "/a/COVER.JPG")
        #expect(cache.artURL(for: dir + "/a/song.mp3") == FileURI.uri(forPath: dir + "/a/COVER.JPG"))

        try mp3(dir + "/b é/song.mp3", picture: nil)
        try Fixtures.write(jpeg(), to: dir + "/b é/folder.png")
        #expect(cache.artURL(for: dir + "/b é/song.mp3") == FileURI.uri(forPath: dir + "/b é/folder.png"))

        // Nothing: nil. Not even an MP3: still the folder's cover (or nil).
        try mp3(dir + "/c/song.mp3", picture: nil)
        #expect(cache.artURL(for: dir + "/c/song.mp3") == nil)
        try Fixtures.write(Array("not audio".utf8), to: dir + "/a/junk.mp3")
        #expect(cache.artURL(for: dir + "/a/junk.mp3") == FileURI.uri(forPath: dir + "/a/COVER.JPG"))
        #expect(cache.artURL(for: dir + "/missing/x.mp3") == nil)
        #expect(files(in: dir + "/covers").isEmpty)
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
