/// The bounds every document is read within, so that a hostile or broken feed costs bounded time
/// and memory: what a server can send is refused past these, with a ``FeedError`` naming which.
///
/// The defaults hold every real feed the tests read with room to spare (the largest, 392 KB, is
/// 4% of `maximumBytes`) while keeping a billion-laughs document or a 10 MB attribute cheap to refuse.
public struct FeedLimits: Sendable, Hashable {
    /// The largest document read, in bytes: what issue 35 lets a fetch bring (10 MB).
    public var maximumBytes: Int
    /// How deeply XML elements may nest. Real feeds nest under 20 levels (an Atom entry's XHTML
    /// content adds its HTML's depth). JSON Feed is held to TimelineKit's JSON reader's own
    /// depth limit, which every import and sync shares.
    public var maximumDepth: Int
    /// The longest attribute value, in bytes of UTF-8.
    public var maximumAttributeBytes: Int
    /// The most text (character data and attribute values, in bytes of UTF-8) a document may
    /// expand to: the bound on what entity references can multiply, beside expat's own.
    public var maximumTextBytes: Int
    /// Expat's billion-laughs protection: the most the expansion of entities may multiply the
    /// document's bytes by, once `entityExpansionThresholdBytes` have been produced.
    public var maximumEntityAmplification: Float
    /// The output below which expat does not yet check the amplification (expat's default is 8 MiB).
    public var entityExpansionThresholdBytes: UInt64

    /// The defaults described above: 10 MB documents, 256 levels, 1 MiB attributes, 30 MB of text,
    /// entity expansion at most 10 times past 1 MiB.
    public init(
        maximumBytes: Int = 10_000_000,
        maximumDepth: Int = 256,
        maximumAttributeBytes: Int = 1 << 20,
        maximumTextBytes: Int = 30_000_000,
        maximumEntityAmplification: Float = 10,
        entityExpansionThresholdBytes: UInt64 = 1 << 20
    ) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
        self.maximumAttributeBytes = maximumAttributeBytes
        self.maximumTextBytes = maximumTextBytes
        self.maximumEntityAmplification = maximumEntityAmplification
        self.entityExpansionThresholdBytes = entityExpansionThresholdBytes
    }
}
