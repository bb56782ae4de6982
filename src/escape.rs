//! Making untrusted text safe to show: bytes a judged program wrote (its output, its stderr, the
//! tokens a checker quotes) and names taken from the file system reach terminals, logs and
//! reports, where a raw ESC, BEL or carriage return could clear the screen, rewrite a line or fake
//! a `PASS`. Every control character is shown as an escape instead (`\x1b`, `\r`), as are the
//! Unicode controls that reorder or hide text; everything else is left as it is.

use std::borrow::Cow;

/// `text` with control characters escaped; line feeds and tabs are kept, for multi-line text
/// (stderr, a checker's message).
pub fn visible(text: &str) -> Cow<'_, str> {
    escape(text, |c| c == '\n' || c == '\t')
}

/// `text` on one line: as [`visible`], with line feeds (and tabs) escaped too, for names and
/// one-line fields.
pub fn visible_line(text: &str) -> Cow<'_, str> {
    escape(text, |_| false)
}

fn escape(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(|c| needs_escape(c) && !keep(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if !needs_escape(c) || keep(c) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    Cow::Owned(out)
}

/// C0 and C1 controls, DEL, and the bidirectional and invisible formatting characters that can
/// make text read differently from what it is.
pub fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_controls_become_visible_escapes() {
        assert_eq!(visible("\x1b[2J\x07ok"), "\\x1b[2J\\x07ok");
        assert_eq!(visible("PASS\rFAIL"), "PASS\\rFAIL");
        assert_eq!(visible("del\x7f c1\u{9b}31m"), "del\\x7f c1\\x9b31m");
        assert_eq!(visible("a\u{202e}b"), "a\\u{202e}b");
        assert_eq!(visible("\0"), "\\x00");
    }

    #[test]
    fn lines_and_tabs_stay_in_text_but_not_in_names() {
        assert_eq!(visible("one\ttwo\nthree\n"), "one\ttwo\nthree\n");
        assert_eq!(visible_line("case\nFAKE"), "case\\nFAKE");
        assert_eq!(visible_line("a\tb"), "a\\tb");
    }

    #[test]
    fn plain_text_is_not_copied() {
        assert!(matches!(visible("héllo wörld ✓"), Cow::Borrowed(_)));
        assert!(matches!(visible_line("nim/sample-1"), Cow::Borrowed(_)));
    }
}
