import Configuration
import CQRencode
import Glibc
import Persistence
import WebFrontEnd

/// `aubade web`: the page's address, with its token when the page is served beyond loopback,
/// as a line to copy and a QR code to scan with the phone.
enum WebVerb {
    static func run(_ arguments: [String]) -> Int32 {
        let settings: Settings
        do throws(ConfigurationError) {
            settings = try Settings.load(commandLine: arguments).settings
        } catch {
            CommandLineInterface.printError("aubade web: \(error.description)")
            return error.isUsageError ? 64 : 1
        }
        guard let address = settings.httpAddress else {
            CommandLineInterface.printError("aubade web: the page is off (http-address = none in aubade.conf)")
            return 1
        }
        let port = settings.httpPort
        guard !WebAddress.isLoopback(address) else {
            print("http://\(WebAddress.hostText(address)):\(port)/")
            print("The page is served to this machine only (http-address = \(address)). For a phone, set")
            print("http-address = any in aubade.conf, restart Aubade, and run aubade web again.")
            return 0
        }
        let token: String
        switch WebToken.loadOrCreate(XDGDirectories.current().webTokenFile) {
        case .success(let value): token = value
        case .failure(let error):
            CommandLineInterface.printError("aubade web: \(error)")
            return 1
        }
        let host = address == "any" ? (WebAddress.lanAddress() ?? "127.0.0.1") : address
        let url = "http://\(WebAddress.hostText(host)):\(port)/?token=\(token)"
        print(url)
        if let code = QRCodeText.render(url) { print(code, terminator: "") }
        print("Open it on the phone (same network). Anyone with this address can control Aubade:")
        print("keep it to yourself. Let TCP port \(port) through the firewall, if there is one.")
        return 0
    }
}

/// Addresses as the page's URL shows them.
enum WebAddress {
    static func isLoopback(_ address: String) -> Bool {
        address == "::1" || address.hasPrefix("127.") || address == "localhost"
    }

    static func hostText(_ address: String) -> String { address.contains(":") ? "[\(address)]" : address }

    /// The first IPv4 address of an interface that is up and not loopback: where a phone on
    /// the same network finds this machine.
    static func lanAddress() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return nil }
        defer { freeifaddrs(list) }
        var cursor = list
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            let flags = Int32(entry.pointee.ifa_flags)
            guard let socketAddress = entry.pointee.ifa_addr, socketAddress.pointee.sa_family == sa_family_t(AF_INET),
                  flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0 else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            let found = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address -> Bool in
                var raw = address.pointee.sin_addr
                return inet_ntop(AF_INET, &raw, &text, socklen_t(text.count)) != nil
            }
            if found { return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        }
        return nil
    }
}

/// A QR code as text: two rows of modules a line, in half blocks, light modules drawn (a
/// terminal's text is light on dark, as `qrencode -t UTF8` assumes), with a quiet zone.
enum QRCodeText {
    static func render(_ text: String) -> String? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = code.pointee.data!
        let quiet = 2
        func dark(_ x: Int, _ y: Int) -> Bool {
            guard (0..<width).contains(x), (0..<width).contains(y) else { return false }
            return data[y * width + x] & 1 != 0
        }
        var out = ""
        var y = -quiet
        while y < width + quiet {
            for x in -quiet..<(width + quiet) {
                switch (dark(x, y), dark(x, y + 1)) {
                case (false, false): out += "█"
                case (false, true): out += "▀"
                case (true, false): out += "▄"
                case (true, true): out += " "
                }
            }
            out += "\n"
            y += 2
        }
        return out
    }
}
