/// One element of an XML document as the feed readers see it: its name resolved against the
/// namespaces in scope, its attributes, and what it holds in document order. Built by
/// `ExpatReader`, the one place that talks to expat; no reader above it sees a C type.
struct XMLElement: Sendable {
    /// The namespace URI of the element's name (`http://www.w3.org/2005/Atom`), `""` for none.
    var namespace: String
    /// The local name, without its prefix (`entry`, `link`).
    var name: String
    var attributes: [XMLAttribute]
    var children: [XMLNode]
    /// The 1-based line of the start tag, for errors that point into the document.
    var line: Int

    /// The first child element named `name` in `namespace`.
    func child(_ name: String, in namespace: String = "") -> XMLElement? {
        for case let .element(element) in children where element.name == name && element.namespace == namespace {
            return element
        }
        return nil
    }

    /// Every child element named `name` in `namespace`, in document order.
    func children(_ name: String, in namespace: String = "") -> [XMLElement] {
        children.compactMap { node in
            guard case let .element(element) = node, element.name == name, element.namespace == namespace else { return nil }
            return element
        }
    }

    /// Every child element, in document order.
    var elements: [XMLElement] {
        children.compactMap { node in
            guard case let .element(element) = node else { return nil }
            return element
        }
    }

    /// The attribute `name` in `namespace` (attributes without a prefix have no namespace).
    func attribute(_ name: String, in namespace: String = "") -> String? {
        attributes.first { $0.name == name && $0.namespace == namespace }?.value
    }

    /// The text the element holds, its descendants' included, as a browser's `textContent`.
    var text: String {
        var result = ""
        appendText(to: &result)
        return result
    }

    private func appendText(to result: inout String) {
        for child in children {
            switch child {
            case let .text(text): result += text
            case let .element(element): element.appendText(to: &result)
            }
        }
    }

    /// The text with the white space at both ends removed; `nil` when nothing is left.
    var trimmedText: String? {
        let trimmed = text.trimmingXMLSpace()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// What the element holds written back as markup: the contents of an Atom `type="xhtml"`
    /// text, which arrives as elements and must leave as HTML. Text and attribute values are
    /// escaped again, so what was text stays text.
    var innerMarkup: String {
        var result = ""
        for child in children { child.appendMarkup(to: &result) }
        return result
    }
}

/// An attribute, its name resolved like an element's.
struct XMLAttribute: Sendable {
    var namespace: String
    var name: String
    var value: String
}

/// What an element holds: elements and runs of text (CDATA sections included), in order.
enum XMLNode: Sendable {
    case element(XMLElement)
    case text(String)

    fileprivate func appendMarkup(to result: inout String) {
        switch self {
        case let .text(text):
            result += XMLEscaping.escaped(text)
        case let .element(element):
            result += "<" + element.name
            for attribute in element.attributes where attribute.namespace != XMLNamespace.xmlns {
                result += " " + attribute.name + "=\"" + XMLEscaping.escaped(attribute.value, quotes: true) + "\""
            }
            result += ">"
            for child in element.children { child.appendMarkup(to: &result) }
            result += "</" + element.name + ">"
        }
    }
}

extension String {
    /// The string without XML white space (space, tab, CR, LF) at either end.
    func trimmingXMLSpace() -> String {
        let scalars = unicodeScalars
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(scalars[first ... last])
    }
}
