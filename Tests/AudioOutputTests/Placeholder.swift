import XCTest

final class AudioOutputTestsPlaceholder: XCTestCase {}
