//! Text made safe to put in the page: first as every report makes untrusted text safe to show
//! (control characters as escapes, [`crate::escape`]), then HTML's five special characters as
//! entities, so nothing a program printed can open a tag, end an attribute or run a script; and
//! how long a name or a message on the page may be, how many rows a list shows, and how a list
//! or table cut short says so.

use std::fmt::Write;

use crate::escape::{visible, visible_line};
use crate::reporting::plural;

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

/// A paragraph saying what the page left out to stay small.
pub(super) fn note(out: &mut String, what: &str) {
    let _ = writeln!(
        out,
        "<p class=cut>{what} to keep this page small: the JSON report (--format json) has \
         everything.</p>"
    );
}

/// The first `shown` of `cases`, a `<span>` each, then how many more there are.
pub(super) fn names(out: &mut String, cases: &[&str], shown: usize) {
    for case in cases.iter().take(shown) {
        let _ = write!(out, "<span>{}</span> ", short(case, NAME_CHARS));
    }
    if cases.len() > shown {
        let _ = write!(out, "+{} more", cases.len() - shown);
    }
}

/// Closes a table cut short at a mark of the page's size, saying how many `what` it left out.
pub(super) fn table_cut(out: &mut String, left: usize, what: &str) {
    out.push_str("</tbody></table></div>");
    note(out, &format!("{left} more {} left out", plural(left, what)));
}
