import XCTest

final class LibraryTestsPlaceholder: XCTestCase {}
