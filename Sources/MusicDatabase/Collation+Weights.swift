extension Collation {
    /// Whitespace, punctuation and symbols in ICU root order, as mpd listed names made of
    /// each (a name per character, `a?b.mp3`). Each gets a primary weight in this order.
    private static let symbolOrder: [Unicode.Scalar] = Array((
        "\t\n\u{0B}\u{0C}\r\u{85}\u{2028}\u{2029} _-\u{2010}\u{2011}\u{2012}\u{2013}\u{2014}\u{2015},;:!¡?¿.\u{2026}'‘’‚‛‹›\"“”„«»()[]{}§¶@*/\u{2044}\\&#%‰†‡•`´˜^¯¨°©®+±÷×<=>¬|¦~¤¢$£¥€"
    ).unicodeScalars)

    private static let symbolPrimaries: [UInt32: UInt32] = Dictionary(
        symbolOrder.enumerated().map { ($1.value, 0x100 + UInt32($0)) }, uniquingKeysWith: { first, _ in first })

    /// Symbols not in the table: after the known ones, before the digits, by code point.
    private static let otherSymbolBase: UInt32 = 0x400
    private static let digitBase: UInt32 = 0x1000
    /// Latin letters: 8 slots each, the letter itself and the letters of their own after it.
    private static let latinBase: UInt32 = 0x2000
    /// Letters of other scripts, by code point.
    private static let otherScriptBase: UInt32 = 0x10000

    /// Letters that are not a Latin base letter with accents, but sort as a letter of their
    /// own right after one (their slot after the base letter), or expand to two letters.
    private static let ownLetters: [String: (base: Character, slot: UInt32)] = [
        "AE": ("a", 1), "ETH": ("d", 1), "DOTLESS I": ("i", 1), "L WITH STROKE": ("l", 1),
        "ENG": ("n", 1), "THORN": ("z", 1), "EZH": ("z", 2),
    ]
    private static let expansions: [String: String] = ["SHARP S": "ss", "LIGATURE OE": "œ", "LIGATURE IJ": "ij", "LIGATURE FF": "ff",
                                                       "LIGATURE FI": "fi", "LIGATURE FL": "fl", "LIGATURE FFI": "ffi",
                                                       "LIGATURE FFL": "ffl", "LIGATURE ST": "st", "LIGATURE LONG S T": "st"]

    private static let fractions: [UInt32: String] = [0xBC: "1\u{2044}4", 0xBD: "1\u{2044}2", 0xBE: "3\u{2044}4"]

    /// Secondary weights of diacritics, in DUCET's order.
    private static let accentOrder = ["ACUTE", "GRAVE", "BREVE", "CIRCUMFLEX", "CARON", "RING ABOVE", "DIAERESIS",
                                      "DOUBLE ACUTE", "TILDE", "DOT ABOVE", "STROKE", "CEDILLA", "OGONEK", "MACRON",
                                      "DOT BELOW", "HOOK ABOVE", "HORN", "HOOK", "COMMA BELOW", "LINE BELOW"]

    private static func accentWeight(_ name: Substring) -> UInt32 {
        let index = accentOrder.firstIndex { name == $0 || name.hasPrefix($0 + " ") } ?? accentOrder.count
        return 0x20 + UInt32(index)
    }

    static func letterPrimary(_ letter: Character, slot: UInt32 = 0) -> UInt32 {
        let value = letter.unicodeScalars.first!.value - UInt32(("a" as Unicode.Scalar).value)
        return latinBase + value * 8 + slot
    }

    static func computeElements(of scalar: Unicode.Scalar) -> [Element] {
        let value = scalar.value
        // Controls, format characters (soft hyphen, zero-width joiners…): ignored.
        switch scalar.properties.generalCategory {
        case .control where !symbolPrimaries.keys.contains(value), .format: return []
        default: break
        }
        if let primary = symbolPrimaries[value] { return [Element(primary: primary, secondary: baseSecondary, tertiary: lowerCase)] }
        if (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) {
            let lower = Character(Unicode.Scalar(value | 0x20)!)
            return [Element(primary: letterPrimary(lower), secondary: baseSecondary,
                            tertiary: value < 0x61 ? upperCase : lowerCase)]
        }
        let properties = scalar.properties
        if properties.numericType == .decimal, let number = properties.numericValue {
            return [Element(primary: digitBase + UInt32(number), secondary: baseSecondary, tertiary: value < 0x80 ? lowerCase : variant)]
        }
        if let fraction = fractions[value] {
            // ¼ ½ ¾: ICU expands them (compatibility) to digit, fraction slash, digit.
            return fraction.unicodeScalars.flatMap(computeElements(of:)).map {
                Element(primary: $0.primary, secondary: $0.secondary, tertiary: variant)
            }
        }
        if properties.numericType == .digit, let number = properties.numericValue, number >= 0, number < 10 {
            return [Element(primary: digitBase + UInt32(number), secondary: baseSecondary, tertiary: variant)]
        }
        let name = properties.name ?? ""
        if properties.generalCategory == .nonspacingMark {
            let accent = name.hasPrefix("COMBINING ") ? name.dropFirst("COMBINING ".count) : Substring(name)
            return [Element(primary: 0, secondary: accentWeight(accent), tertiary: 0)]
        }
        if let latin = latinElements(name: name) { return latin }
        if properties.isWhitespace {
            return [Element(primary: symbolPrimaries[0x20]!, secondary: baseSecondary, tertiary: variant)]
        }
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .otherLetter, .modifierLetter, .spacingMark,
             .enclosingMark:
            let lower = properties.lowercaseMapping.unicodeScalars.first?.value ?? value
            return [Element(primary: otherScriptBase + lower, secondary: baseSecondary,
                            tertiary: properties.isUppercase ? upperCase : lowerCase)]
        default:
            return [Element(primary: otherSymbolBase + value % 0xC00, secondary: baseSecondary, tertiary: lowerCase)]
        }
    }

    /// A Latin letter by its Unicode name: "LATIN CAPITAL LETTER E WITH ACUTE",
    /// "LATIN SMALL LETTER O WITH DIAERESIS AND MACRON", "LATIN SMALL LIGATURE FI".
    private static func latinElements(name: String) -> [Element]? {
        let tertiary: UInt32
        var rest: Substring
        if name.hasPrefix("LATIN SMALL ") {
            tertiary = lowerCase
            rest = name.dropFirst("LATIN SMALL ".count)
        } else if name.hasPrefix("LATIN CAPITAL ") {
            tertiary = upperCase
            rest = name.dropFirst("LATIN CAPITAL ".count)
        } else {
            return nil
        }
        if let expansion = expansions[String(rest)] ?? expansions[String(rest.dropFirst("LETTER ".count))] {
            return expansion.flatMap { letter -> [Element] in
                if letter == "œ" { return [Element(primary: letterPrimary("o", slot: 1), secondary: baseSecondary, tertiary: tertiary)] }
                return [Element(primary: letterPrimary(letter), secondary: baseSecondary, tertiary: tertiary)]
            }
        }
        guard rest.hasPrefix("LETTER ") else { return nil }
        rest = rest.dropFirst("LETTER ".count)
        if let own = ownLetters[String(rest)] {
            return [Element(primary: letterPrimary(own.base, slot: own.slot), secondary: baseSecondary, tertiary: tertiary)]
        }
        let parts = rest.split(separator: " WITH ", maxSplits: 1, omittingEmptySubsequences: false)
        guard let letter = parts.first, letter.count == 1, let first = letter.unicodeScalars.first,
              (0x41...0x5A).contains(first.value) else { return nil }
        let base = Character(Unicode.Scalar(first.value | 0x20)!)
        var elements = [Element(primary: letterPrimary(base), secondary: baseSecondary, tertiary: tertiary)]
        if parts.count == 2 {
            for accent in parts[1].split(separator: " AND ") {
                elements.append(Element(primary: 0, secondary: accentWeight(accent), tertiary: 0))
            }
        }
        return elements
    }
}
