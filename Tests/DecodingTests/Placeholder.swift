import XCTest

final class DecodingTestsPlaceholder: XCTestCase {}
