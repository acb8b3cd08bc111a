//! Numbered lines of a text, whatever its line ends (`\n`, `\r\n`, or a lone `\r`).

/// One line of text without its line end, numbered from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// The line number, from 1.
    pub no: usize,
    /// The text without the line end.
    pub text: &'a str,
}

/// Iterates over the lines of `text`. A line end is `\r\n`, `\n` or a lone `\r` (old Mac files and
/// files patched by several editors mix them). A final line end does not start an empty line.
#[must_use]
pub fn lines(text: &str) -> Lines<'_> {
    Lines { rest: text, no: 0 }
}

/// The iterator returned by [`lines`].
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    rest: &'a str,
    no: usize,
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        if self.rest.is_empty() {
            return None;
        }
        self.no += 1;
        let bytes = self.rest.as_bytes();
        let (end, next) = match bytes.iter().position(|&b| b == b'\n' || b == b'\r') {
            None => (bytes.len(), bytes.len()),
            Some(i) if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') => (i, i + 2),
            Some(i) => (i, i + 1),
        };
        let text = &self.rest[..end];
        self.rest = &self.rest[next..];
        Some(Line { no: self.no, text })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_line_ends() {
        let got: Vec<(usize, &str)> = lines("a\r\nb\nc\rd\r\n\ne")
            .map(|l| (l.no, l.text))
            .collect();
        assert_eq!(
            got,
            [(1, "a"), (2, "b"), (3, "c"), (4, "d"), (5, ""), (6, "e")]
        );
        assert_eq!(lines("x\n").count(), 1);
        assert_eq!(lines("").count(), 0);
    }
}
