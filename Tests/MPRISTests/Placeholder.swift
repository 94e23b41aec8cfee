import XCTest

final class MPRISTestsPlaceholder: XCTestCase {}
