import Foundation
import SoundAnalysis

/// Where icecast put an ICY title in an AAC station's stream, against the audio it names: a
/// raw listener (`curl` with `Icy-MetaData: 1`) records the mount; the ADTS before the metadata
/// block with the title, and the whole recording, are decoded with ffmpeg; the title's sample
/// minus the sample where the new tone starts is icecast's (and the feed's) own offset. A
/// player's title offset minus this one is the player's part.
final class ICYPlacementProbe {
    private let process: Subprocess
    private let raw: URL
    private let headers: URL
    private let marker: String

    init(url: String, marker: String, seconds: Int, work: URL) throws {
        raw = work.appendingPathComponent("icy-\(UUID().uuidString).raw")
        headers = work.appendingPathComponent("icy-\(UUID().uuidString).head")
        self.marker = marker
        process = try Subprocess("curl", ["-s", "-H", "Icy-MetaData: 1", "-D", headers.path, "-o", raw.path, "--max-time", "\(seconds)", url])
    }

    /// Seconds from the new tone to the title in the stream (positive: the title comes after),
    /// once the recording is done; nil with the reason when it cannot tell.
    func placement(toneFrom from: Double, to: Double) -> Result<Double, DaemonError> {
        _ = process.waitForExit(timeout: 60)
        defer {
            try? FileManager.default.removeItem(at: raw)
            try? FileManager.default.removeItem(at: headers)
        }
        guard let head = try? String(contentsOf: headers, encoding: .utf8),
              let line = head.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("icy-metaint:") }),
              let metaint = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)), metaint > 0,
              let bytes = try? Data(contentsOf: raw) else { return .failure(DaemonError("no ICY recording")) }
        var audio = Data()
        var audioBeforeTitle: Int?
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let take = min(metaint, bytes.endIndex - index)
            audio += bytes[index..<(index + take)]
            index += take
            guard index < bytes.endIndex else { break }
            let length = Int(bytes[index]) * 16
            index += 1
            let block = bytes[index..<min(bytes.endIndex, index + length)]
            index += length
            if audioBeforeTitle == nil, String(decoding: block, as: UTF8.self).contains(marker) { audioBeforeTitle = audio.count }
        }
        guard let cut = audioBeforeTitle else { return .failure(DaemonError("the title never came in the recording")) }
        let before: Int, whole: Data
        switch (decoded(audio.prefix(cut)), decoded(audio)) {
        case (.success(let part), .success(let all)): (before, whole) = (part.count / 4, all)
        case (.failure(let why), _):
            return .failure(DaemonError("ffmpeg could not decode the \(cut) bytes before the title of \(audio.count): \(why)"))
        case (_, .failure(let why)):
            return .failure(DaemonError("ffmpeg could not decode the recording's \(audio.count) bytes: \(why)"))
        }
        let analysis = ToneAnalysis(whole)
        let rate = 44_100.0
        guard let change = analysis.pitchChange(in: 0..<analysis.samples.count, fromHalfPeriod: rate / from / 2,
                                                toHalfPeriod: rate / to / 2) else {
            return .failure(DaemonError("no tone change in the recording"))
        }
        return .success((Double(before) - change) / rate)
    }

    /// `adts` decoded to 16-bit stereo at 44.1 kHz, or why not (a CI run once failed here
    /// without saying why: the reason names ffmpeg's exit and its messages).
    private func decoded(_ adts: Data) -> Result<Data, DaemonError> {
        let input = raw.deletingPathExtension().appendingPathExtension("part.aac")
        let output = raw.deletingPathExtension().appendingPathExtension("part.s16")
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: output)
        }
        guard (try? adts.write(to: input)) != nil else { return .failure(DaemonError("cannot write \(input.path)")) }
        let run: CommandResult
        do {
            run = try Shell.run("ffmpeg", ["-v", "error", "-y", "-f", "aac", "-i", input.path, "-ac", "2", "-ar", "44100",
                                           "-f", "s16le", output.path], timeout: 60)
        } catch {
            return .failure(DaemonError("ffmpeg did not start: \(error)"))
        }
        guard run.succeeded, let data = try? Data(contentsOf: output) else {
            return .failure(DaemonError("ffmpeg \(run.description.prefix(600))"))
        }
        return .success(data)
    }
}
