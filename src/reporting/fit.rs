//! Fitting human text to a width: which width (the terminal's, else `COLUMNS`, else a fixed
//! one), names cut with an ellipsis, and text wrapped onto indented lines. Widths count
//! characters: the names and messages reports show are escaped to visible text first.

/// Narrower than this, fitting would make nothing readable.
const NARROWEST: usize = 20;

/// The width to fit to: the terminal's when stdout is one, else `COLUMNS` (which a pipe or a
/// log may set on purpose), else `fallback`.
pub fn terminal_width(fallback: usize) -> usize {
    if let Some((terminal_size::Width(width), _)) =
        terminal_size::terminal_size_of(std::io::stdout())
    {
        return usize::from(width).max(NARROWEST);
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&c| c > 0)
        .map_or(fallback, |c| c.max(NARROWEST))
}

/// `text` in at most `width` characters: whole when it fits, else its start and its end around
/// an ellipsis (the end of a submission's name is its file and extension, worth keeping).
pub fn ellipsize(text: &str, width: usize) -> String {
    let count = text.chars().count();
    if count <= width {
        return text.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let kept = width - 1;
    let tail = kept / 2;
    let head = kept - tail;
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(count - tail).collect();
    format!("{start}…{end}")
}

/// `units` joined by spaces into lines of at most `width` characters, each starting with
/// `indent` (the first included), each ending with a newline. A unit is never broken (a list's
/// item with its comma, a path): one longer than a line stays whole on its own line.
pub fn wrap<'a>(units: impl IntoIterator<Item = &'a str>, width: usize, indent: &str) -> String {
    let room = width.saturating_sub(indent.chars().count()).max(1);
    let mut out = String::new();
    let mut line = String::new();
    for word in units {
        let needed = line.chars().count() + usize::from(!line.is_empty()) + word.chars().count();
        if !line.is_empty() && needed > room {
            out += &format!("{indent}{line}\n");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += word;
    }
    out + &format!("{indent}{line}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_cut_in_the_middle_to_the_width() {
        assert_eq!(ellipsize("accepted/a.py", 20), "accepted/a.py");
        let cut = ellipsize("wrong_answer/a_very_long_name_indeed.py", 20);
        assert_eq!(cut, "wrong_answ…indeed.py");
        assert_eq!(cut.chars().count(), 20);
        assert_eq!(ellipsize("abc", 1), "…");
        assert_eq!(ellipsize("abc", 0), "");
    }

    #[test]
    fn text_wraps_between_units_on_indented_lines() {
        let words = |text: &'static str| text.split(' ');
        assert_eq!(wrap(words("one two three"), 80, "  "), "  one two three\n");
        assert_eq!(
            wrap(words("one two three four"), 12, "    "),
            "    one two\n    three\n    four\n"
        );
        assert_eq!(
            wrap(words("a path/that/is/longer/than/the/line x"), 10, "  "),
            "  a\n  path/that/is/longer/than/the/line\n  x\n"
        );
        assert_eq!(wrap(["a b,", "+2 more"], 10, "  "), "  a b,\n  +2 more\n");
    }
}
