import Testing
import TimelineKit

@Test func libraryReportsAVersion() {
    #expect(!TimelineKit.version.isEmpty)
}
