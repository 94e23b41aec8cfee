import XCTest

final class DBusKitTestsPlaceholder: XCTestCase {}
