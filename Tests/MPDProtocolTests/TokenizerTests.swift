import Testing
@testable import MPDProtocol
