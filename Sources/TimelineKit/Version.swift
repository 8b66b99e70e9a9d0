/// TimelineKit's version, which is also the `timeline` tool's (`timeline --version`).
///
/// A free constant rather than a member of a type named `TimelineKit`: such a type would shadow
/// the module's name and break qualified names like `TimelineKit.Attachment`.
public let timelineKitVersion = "0.1.0"
