//! Text made safe to put in the page: first as every report makes untrusted text safe to show
//! (control characters as escapes, [`crate::escape`]), then HTML's five special characters as
//! entities, so nothing a program printed can open a tag, end an attribute or run a script; and
//! how long a name or a message on the page may be, and how many rows a list shows.

use crate::escape::{visible, visible_line};

/// The most characters of a name (a problem, a submission, a case) and of a one-line message.
pub const NAME_CHARS: usize = 120;
pub const MESSAGE_CHARS: usize = 400;
/// The most packages listed as unreadable, and problems in the summary's list, and rows of the
/// contest table.
pub const LISTED: usize = 200;

/// `text` (several lines kept) for an element's content or a quoted attribute.
pub fn text(text: &str) -> String {
    entities(&visible(text))
}

/// `text` on one line (line breaks escaped too), for names and one-line fields.
pub fn line(text: &str) -> String {
    entities(&visible_line(text))
}

/// `text` with `&`, `<`, `>`, `"` and `'` as entities.
fn entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `name` cut to `chars` characters (with `…`), escaped.
pub fn short(name: &str, chars: usize) -> String {
    match name.char_indices().nth(chars) {
        None => line(name),
        Some((end, _)) => line(&name[..end]) + "…",
    }
}
