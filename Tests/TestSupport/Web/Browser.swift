import Foundation
import XCTest

/// A real browser for the page's tests: Debian's chromium, headless, driven by chromedriver
/// through python3-selenium (`Scripts/web_browser.py`, one JSON request and answer a line).
/// Its window is a phone's (390×844 CSS pixels at 3 device pixels each, touch), by chromedriver's
/// mobile emulation: headless Chrome's own window cannot be narrower than about 500 pixels.
///
/// One per test (a `swift test --parallel` test is a process of its own: no browser outlives
/// it), started when the test first needs it and stopped by PID at its end. Every request waits
/// at most `Sanitizer.scaled(60)` s for its answer; waits for the page are `waitFor`, which
/// polls inside the browser (no fixed sleeps).
final class Browser {
    let width: Int
    let height: Int
    let pixelRatio: Double
    /// Chromium's version, as chromedriver reported it.
    private(set) var version = ""
    private let process: Subprocess
    private let input: Pipe
    private var nextLine = 0

    init(width: Int = 390, height: Int = 844, pixelRatio: Double = 3) throws {
        self.width = width
        self.height = height
        self.pixelRatio = pixelRatio
        input = Pipe()
        // Off the test's private bus: the page plays no media, and Chromium has no business
        // there (an MPRIS player of its own would be one more for playerctl to find).
        process = try Subprocess(PythonScript.interpreter,
                                 try PythonScript.arguments("web_browser", [String(width), String(height), String(pixelRatio)]),
                                 environment: ["DBUS_SESSION_BUS_ADDRESS": "disabled:", "LC_ALL": "C.UTF-8"], stdin: input)
        let first = try answer(timeout: Sanitizer.scaled(60), for: "start")
        version = first as? String ?? ""
    }

    deinit { quit() }

    /// Ends the browser: `quit` (chromedriver stops Chromium, the script removes its folder),
    /// then SIGTERM and SIGKILL by PID if it is still there.
    func quit() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.write(contentsOf: Data("{\"op\": \"quit\"}\n".utf8))
        try? input.fileHandleForWriting.close()
        if process.waitForExit(timeout: 15) == nil { process.stop(grace: 5) }
    }

    // MARK: Requests

    @discardableResult
    private func send(_ request: [String: Any], timeout: TimeInterval = Sanitizer.scaled(60)) throws -> Any? {
        var line = try JSONSerialization.data(withJSONObject: request)
        line.append(0x0A)
        guard process.isRunning else { throw BrowserError("the browser is gone:\n\(process.stderr.text.suffix(4000))") }
        try input.fileHandleForWriting.write(contentsOf: line)
        return try answer(timeout: timeout, for: request["op"] as? String ?? "?")
    }

    private func answer(timeout: TimeInterval, for op: String) throws -> Any? {
        guard let (index, line) = process.stdout.waitForLine(from: nextLine, timeout: timeout, where: { _ in true }) else {
            throw BrowserError("no answer to \(op) within \(timeout) s; the browser's stderr:\n\(process.stderr.text.suffix(4000))")
        }
        nextLine = index + 1
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed]) as? [String: Any] else {
            throw BrowserError("not an answer: \(line)")
        }
        guard object["ok"] as? Bool == true else {
            throw BrowserError("\(op): \(object["error"] as? String ?? line)")
        }
        let value = object["value"]
        return value is NSNull ? nil : value
    }

    /// Opens `url` and waits until its document has loaded.
    func open(_ url: String) throws {
        try send(["op": "get", "url": url])
    }

    /// Runs `js` in the page as a function body (`return …` gives a value); `args` are its
    /// `arguments`.
    @discardableResult
    func script(_ js: String, _ args: [Any] = []) throws -> Any? {
        try send(["op": "script", "js": js, "args": args])
    }

    /// How long `click`, `type` and `drag` wait for their element (the page draws what it
    /// fetched a moment after).
    private var elementWait: Double { Sanitizer.scaled(10) }

    /// WebDriver's click on the first element matching `css`, scrolled into view, once there is
    /// one that is shown and enabled: it fails when the element stays hidden or covered, as a
    /// finger would.
    func click(_ css: String) throws {
        try send(["op": "click", "css": css, "wait": elementWait])
    }

    /// Clears the field matching `css`, then types `text` key by key.
    func type(_ css: String, _ text: String) throws {
        try send(["op": "type", "css": css, "text": text, "wait": elementWait])
    }

    /// Presses on the element matching `css`, moves `dy` CSS pixels down (up when negative) in
    /// steps and lets go.
    func drag(_ css: String, dy: Int) throws {
        try send(["op": "drag", "css": css, "dy": dy, "wait": elementWait])
    }

    /// The viewport as a PNG at `path` (device pixels: 1170×2532 for the phone).
    func screenshot(to path: URL) throws {
        try send(["op": "screenshot", "path": path.path])
    }

    /// The text of an open `alert()`, or nil.
    func alertText() throws -> String? {
        try send(["op": "alert"]) as? String
    }

    // MARK: The page

    /// `expression` (JavaScript) evaluated until it is truthy, every 20 ms up to `timeout`
    /// seconds (scaled under a sanitizer); its value. On timeout the test fails, naming `what`,
    /// the last value and `shows` (an expression describing the page) at that moment.
    @discardableResult
    func waitFor(_ what: String, _ expression: String, timeout: TimeInterval = 10, shows: String? = nil,
                 file: StaticString = #filePath, line: UInt = #line) throws -> Any? {
        let timeout = Sanitizer.scaled(timeout)
        var last: Any?
        let deadline = Date(timeIntervalSinceNow: timeout)
        repeat {
            last = try script("return (\(expression))")
            if Browser.truthy(last) { return last }
            Thread.sleep(forTimeInterval: 0.02)
        } while Date() < deadline
        last = try script("return (\(expression))")
        if Browser.truthy(last) { return last }
        let page = (try? script("return JSON.stringify(\(shows ?? Browser.pageSummary))")) as? String ?? "?"
        let message = "timed out after \(timeout) s waiting for \(what) (\(expression): \(String(describing: last ?? "null"))); the page: \(page)"
        XCTFail(message, file: file, line: line)
        throw BrowserError(message)
    }

    /// What the page shows, for failure messages: the now-playing texts, the banner, the toast,
    /// the hash and the first rows' texts.
    static let pageSummary = """
        {hash: location.hash, title: document.querySelector('[data-test=now-title]')?.textContent,
         status: document.querySelector('[data-test=now-status]')?.textContent,
         reconnecting: !document.querySelector('[data-test=reconnecting]')?.hidden,
         toast: document.querySelector('[data-test=toast]')?.hidden ? null : document.querySelector('[data-test=toast]')?.textContent,
         version: document.body.dataset.stateVersion,
         view: document.getElementById('view')?.innerText.slice(0, 600)}
        """

    private static func truthy(_ value: Any?) -> Bool {
        switch value {
        case nil: false
        case let bool as Bool: bool
        case let number as NSNumber: number.doubleValue != 0
        case let text as String: !text.isEmpty
        default: true
        }
    }

    /// The text of the first element matching `css` (nil if none).
    func text(_ css: String) throws -> String? {
        try script("const e = document.querySelector(arguments[0]); return e ? e.textContent : null", [css]) as? String
    }

    /// How many elements match `css`.
    func count(_ css: String) throws -> Int {
        (try script("return document.querySelectorAll(arguments[0]).length", [css]) as? NSNumber)?.intValue ?? -1
    }

    /// The attribute `name` of every element matching `css`, in document order.
    func attributes(_ name: String, of css: String) throws -> [String] {
        (try script("return [...document.querySelectorAll(arguments[0])].map((e) => e.getAttribute(arguments[1]))",
                    [css, name]) as? [Any])?.compactMap { $0 as? String } ?? []
    }

    /// A string for a CSS attribute selector's value: `[data-album=\(Browser.quoted(x))]`.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

struct BrowserError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
