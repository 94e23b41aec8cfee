import XCTest

final class PlayerCoreTestsPlaceholder: XCTestCase {}
