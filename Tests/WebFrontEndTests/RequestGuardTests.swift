import Testing
@testable import WebFrontEnd

/// Who may ask what: the token beyond loopback, this machine's name on loopback, changes from
/// the page's own origin and as JSON only.
@Suite struct RequestGuardTests {
    let loopback = RequestGuard(loopbackOnly: true, token: "t0ken", port: 6680)
    let lan = RequestGuard(loopbackOnly: false, token: "t0ken", port: 6680)

    func request(_ headers: [String: String], method: String = "GET", query: [String: String] = [:]) -> WebRequest {
        WebRequest(method: method, path: "/api/state", query: query, headers: headers)
    }

    @Test func loopbackAsksNoTokenButThisMachinesName() {
        for host in ["127.0.0.1:6680", "localhost:6680", "[::1]:6680", "127.0.0.1", "LOCALHOST:6680"] {
            #expect(loopback.check(request(["host": host])) == nil, "\(host)")
        }
        // DNS rebinding: another site's name resolved to 127.0.0.1.
        for host in ["evil.example:6680", "127.0.0.1.evil.example", "", "[::2]:6680", "127.0.0.256:1"] {
            #expect(loopback.check(request(["host": host])) == .foreignHost, "\(host)")
        }
        #expect(loopback.check(request([:])) == .foreignHost)
    }

    @Test func beyondLoopbackEveryRequestNeedsTheToken() {
        #expect(lan.check(request(["host": "192.168.1.2:6680"])) == .unauthorized)
        #expect(lan.check(request(["host": "192.168.1.2:6680", "cookie": "a=b; aubade_token=wrong"])) == .unauthorized)
        #expect(lan.check(request(["host": "192.168.1.2:6680", "authorization": "Bearer t0ke"])) == .unauthorized)
        #expect(lan.check(request(["host": "h", "cookie": "a=b; aubade_token=t0ken"])) == nil)
        #expect(lan.check(request(["host": "h", "authorization": "Bearer t0ken"])) == nil)
        #expect(lan.check(request(["host": "h"], query: ["token": "t0ken"])) == nil)
    }

    @Test func changesComeAsJSONFromThePagesOwnOrigin() {
        let base = ["host": "127.0.0.1:6680", "content-type": "application/json"]
        #expect(loopback.check(request(base, method: "POST")) == nil)
        #expect(loopback.check(request(base.merging(["origin": "http://127.0.0.1:6680"]) { $1 }, method: "POST")) == nil)
        #expect(loopback.check(request(base.merging(["origin": "http://evil.example"]) { $1 }, method: "POST")) == .foreignOrigin)
        #expect(loopback.check(request(base.merging(["origin": "null"]) { $1 }, method: "POST")) == .foreignOrigin)
        #expect(loopback.check(request(base.merging(["content-type": "text/plain"]) { $1 }, method: "POST")) == .notJSON)
        #expect(loopback.check(request(["host": "127.0.0.1:6680"], method: "POST")) == .notJSON)
        #expect(loopback.check(request(base.merging(["content-type": "application/json; charset=utf-8"]) { $1 }, method: "POST")) == nil)
    }

    @Test func aBurstIsAdmittedThenTheRateHolds() {
        var limiter = RateLimiter(rate: 10, burst: 5)
        let admitted = (0..<8).filter { _ in limiter.admit("10.0.0.9", now: 100) }.count
        #expect(admitted == 5)
        let other = limiter.admit("10.0.0.8", now: 100)
        #expect(other, "another address has its own bucket")
        let tooSoon = limiter.admit("10.0.0.9", now: 100.05)
        #expect(!tooSoon)
        let later = limiter.admit("10.0.0.9", now: 100.2)
        #expect(later, "refilled at 10 a second")
    }

    @Test func theAddressTableIsBounded() {
        var limiter = RateLimiter(rate: 1, burst: 1)
        limiter.maximumAddresses = 4
        for index in 0..<100 { _ = limiter.admit("10.0.0.\(index)", now: Double(index)) }
        // The newest are remembered: a fresh address would be admitted, a known one is not.
        let known = limiter.admit("10.0.0.99", now: 99)
        #expect(!known)
    }
}
