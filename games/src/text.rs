//! Small text helpers shared by the readers: full-width folding, HTML entities, trimming.

use std::borrow::Cow;

/// Maps a full-width ASCII form (`１`, `Ｃ`, `＋`, `．`, U+3000 ideographic space) to its ASCII
/// character; every other character is returned unchanged.
#[must_use]
pub fn fold_full_width(c: char) -> char {
    match c {
        '\u{ff01}'..='\u{ff5e}' => char::from_u32(c as u32 - 0xff01 + 0x21).unwrap_or(c),
        '\u{3000}' => ' ',
        _ => c,
    }
}

/// Whether `c` is white space in game files: Unicode white space, which includes the no-break
/// space (U+00A0) and the ideographic space (U+3000) that Chinese files pad with.
#[must_use]
pub fn is_space(c: char) -> bool {
    c.is_whitespace()
}

/// `s` without surrounding white space (see [`is_space`]).
#[must_use]
pub fn trim(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// Replaces HTML character references (`&nbsp;`, `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`,
/// `&#39;`, `&#x4e2d;`) with the characters they stand for.
///
/// Web pages and files cut from them carry these in player and event names. An `&` that does not
/// start a reference this function knows is left as it is, so plain text is never damaged.
#[must_use]
pub fn decode_entities(s: &str) -> Cow<'_, str> {
    if !s.contains('&') {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        match entity_at(rest) {
            Some((ch, len)) => {
                out.push(ch);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// The character of the reference at the start of `s` (which starts with `&`) and its length.
fn entity_at(s: &str) -> Option<(char, usize)> {
    // References are short; looking a little ahead for the ';' keeps a stray '&' cheap.
    let semi = s.char_indices().take(12).find(|&(_, c)| c == ';')?.0;
    let name = &s[1..semi];
    let ch = if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse::<u32>().ok()?,
        };
        char::from_u32(code)?
    } else {
        match name {
            "nbsp" => ' ',
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            "middot" => '·',
            "ldquo" => '“',
            "rdquo" => '”',
            "lsquo" => '‘',
            "rsquo" => '’',
            "mdash" => '—',
            "ndash" => '–',
            "hellip" => '…',
            _ => return None,
        }
    };
    Some((ch, semi + 1))
}

/// Decodes entities, trims, and gives `None` for an empty result.
#[must_use]
pub fn clean_value(raw: &str) -> Option<String> {
    let decoded = decode_entities(raw);
    let t = trim(&decoded);
    (!t.is_empty()).then(|| t.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_width_folds() {
        let s: String = "Ｃ２＝５ １．＋Ｐ".chars().map(fold_full_width).collect();
        assert_eq!(s, "C2=5 1.+P");
        assert_eq!(fold_full_width('炮'), '炮');
    }

    #[test]
    fn entities_decode() {
        assert_eq!(decode_entities("a&nbsp;b"), "a b");
        assert_eq!(
            decode_entities("R&amp;D &lt;x&gt; &quot;q&quot; &#39;s&#x4e2d;"),
            "R&D <x> \"q\" 's中"
        );
        assert_eq!(decode_entities("AT&T & co"), "AT&T & co");
        assert_eq!(decode_entities("&unknown; &#xZZ; &"), "&unknown; &#xZZ; &");
        assert_eq!(decode_entities("&#1114112;"), "&#1114112;");
    }

    #[test]
    fn values_clean() {
        assert_eq!(clean_value("&nbsp;"), None);
        assert_eq!(clean_value("  柳大華\u{3000}"), Some("柳大華".to_owned()));
        assert_eq!(clean_value(""), None);
    }
}
