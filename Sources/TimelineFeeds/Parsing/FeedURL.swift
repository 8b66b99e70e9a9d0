#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Addresses in feeds made absolute (RFC 3986, section 5: `../a`, `/a`, `//host/a`, `?q`, `#f`),
/// against `xml:base`, the feed's own URL or a page's `<base href>`.
enum FeedURL {
    /// `reference` resolved against `base`. With no base, or a base that is not an absolute URL,
    /// the reference is kept as written when it is absolute itself and dropped when it is not
    /// (a relative link with nothing to resolve it against leads nowhere).
    static func resolve(_ reference: String, against base: String?) -> String? {
        let trimmed = reference.trimmingXMLSpace()
        let baseURL = base.flatMap { URL(string: $0.trimmingXMLSpace()) }.flatMap { $0.scheme == nil ? nil : $0 }
        if trimmed.isEmpty { return baseURL?.absoluteString }
        if let absolute = URL(string: trimmed), absolute.scheme != nil {
            return absolute.absoluteString
        }
        guard let baseURL, let resolved = URL(string: trimmed, relativeTo: baseURL) else { return nil }
        return resolved.absoluteString
    }

    /// The base inside `element`: its `xml:base` resolved against `base`, else `base`.
    static func base(of element: XMLElement, within base: String?) -> String? {
        guard let declared = element.attribute("base", in: XMLNamespace.xml) else { return base }
        return resolve(declared, against: base) ?? base
    }
}
