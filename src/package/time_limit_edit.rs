//! Setting `limits.time_limit` in a `problem.yaml` by editing its text, so everything else in
//! the file (comments, key order, quoting, blank lines) stays as the author wrote it. Only the
//! block form of `limits:` is edited; a flow mapping (`limits: {memory: 1024}`) or anything this
//! cannot place with certainty is refused with the line to edit by hand. Reading the package is
//! not done here.

/// Why the time limit could not be written into the file's text.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error(
        "line {line}: `limits` is not a block mapping; set `time_limit: {seconds}` in it by hand"
    )]
    NotABlock { line: usize, seconds: String },
    #[error("line {line}: `time_limit` has a value that spans lines; set it to {seconds} by hand")]
    MultiLine { line: usize, seconds: String },
}

/// `seconds` as YAML writes a number: `2`, `1.5`, `0.25`.
pub fn yaml_seconds(seconds: f64) -> String {
    let rounded = (seconds * 1e6).round() / 1e6;
    if rounded.fract() == 0.0 {
        format!("{}", rounded as u64)
    } else {
        format!("{rounded}")
    }
}

/// `text` with `limits.time_limit` set to `seconds`: the value replaced where the key is, else
/// the key added as the first line of `limits`, else a `limits` block added at the end.
pub fn set_time_limit(text: &str, seconds: f64) -> Result<String, EditError> {
    let value = yaml_seconds(seconds);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let Some(limits) = lines
        .iter()
        .position(|l| top_level_key(l) == Some("limits"))
    else {
        let mut out = text.to_string();
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&format!("limits:\n  time_limit: {value}\n"));
        return Ok(out);
    };
    let after_colon = value_after_key(lines[limits]).unwrap_or("");
    if !is_empty_value(after_colon) {
        return Err(EditError::NotABlock {
            line: limits + 1,
            seconds: value,
        });
    }
    // The block: the lines after `limits:` that are indented, blank or comments.
    let block_end = (limits + 1..lines.len())
        .find(|&i| {
            let l = lines[i];
            let content = l.trim_start();
            !content.is_empty() && !content.starts_with('#') && !l.starts_with([' ', '\t'])
        })
        .unwrap_or(lines.len());
    let indent = (limits + 1..block_end)
        .map(|i| lines[i])
        .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|l| l.len() - l.trim_start_matches([' ', '\t']).len());
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    match indent {
        Some(indent) => {
            let key_line = (limits + 1..block_end).find(|&i| {
                let l = lines[i];
                l.len() - l.trim_start_matches([' ', '\t']).len() == indent
                    && key_of(l.trim_start()) == Some("time_limit")
            });
            match key_line {
                Some(i) => out[i] = replace_value(lines[i], &value, i)?,
                None => out.insert(
                    limits + 1,
                    format!("{}time_limit: {value}\n", &lines[limits + 1][..indent]),
                ),
            }
        }
        None => out.insert(limits + 1, format!("  time_limit: {value}\n")),
    }
    if !out[limits].ends_with('\n') {
        out[limits].push('\n');
    }
    Ok(out.concat())
}

/// The key of a line at column 0 (`limits:` gives `limits`), if it is one.
fn top_level_key(line: &str) -> Option<&str> {
    if line.starts_with([' ', '\t', '#', '-']) {
        return None;
    }
    key_of(line)
}

/// The plain key a `key: ...` line starts with.
fn key_of(line: &str) -> Option<&str> {
    let (key, _) = line.split_once(':')?;
    let key = key.trim_end();
    let quoted = |q: char| key.strip_prefix(q).and_then(|k| k.strip_suffix(q));
    let key = quoted('"').or_else(|| quoted('\'')).unwrap_or(key);
    key.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        .then_some(key)
        .filter(|k| !k.is_empty())
}

/// What follows the key's colon on a `key: value` line.
fn value_after_key(line: &str) -> Option<&str> {
    line.split_once(':').map(|(_, rest)| rest)
}

/// Whether what follows a colon holds no value (nothing, or only a comment).
fn is_empty_value(rest: &str) -> bool {
    let rest = rest.trim();
    rest.is_empty() || rest.starts_with('#')
}

/// `line` (`  time_limit: 3  # why`) with its value replaced, its comment and ending kept.
fn replace_value(line: &str, value: &str, index: usize) -> Result<String, EditError> {
    let (key, rest) = line.split_once(':').expect("a key line has a colon");
    let ending = if rest.ends_with("\r\n") {
        "\r\n"
    } else if rest.ends_with('\n') {
        "\n"
    } else {
        ""
    };
    let rest = rest.trim_end_matches(['\r', '\n']);
    // A comment starts at a `#` after whitespace; a plain number holds neither quotes nor `#`.
    let comment = rest.find(" #").map_or("", |at| &rest[at + 1..]);
    let before = &rest[..rest.len() - comment.len()];
    let gap = if comment.is_empty() {
        ""
    } else {
        &before[before.trim_end().len()..]
    };
    let old = before.trim();
    if old.is_empty() || old.starts_with(['|', '>', '[', '{', '&', '*', '!']) {
        return Err(EditError::MultiLine {
            line: index + 1,
            seconds: value.to_string(),
        });
    }
    Ok(format!("{key}: {value}{gap}{comment}{ending}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    use yaml_rust2::{Yaml, YamlLoader};

    /// The file parsed as YAML (by the parser the package reader uses): the edit must keep it a
    /// mapping with the new limit in place.
    fn parsed(text: &str) -> Yaml {
        let mut docs = YamlLoader::load_from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        docs.remove(0)
    }

    #[test]
    fn an_existing_value_is_replaced_and_everything_else_kept() {
        let text = "# The problem\nname: nim\nlimits:\n    memory: 1024   # MiB\n    time_limit: 3.0  # set by hand\n\nkeywords: [games]\n";
        let edited = set_time_limit(text, 1.5).unwrap();
        assert_eq!(
            edited,
            "# The problem\nname: nim\nlimits:\n    memory: 1024   # MiB\n    time_limit: 1.5  # set by hand\n\nkeywords: [games]\n"
        );
        assert_eq!(parsed(&edited)["limits"]["time_limit"].as_f64(), Some(1.5));
    }

    #[test]
    fn a_missing_key_goes_first_in_the_block_at_its_indent() {
        let text = "limits:\n  # what the judge allows\n  memory: 512\nname: x\n";
        let edited = set_time_limit(text, 2.0).unwrap();
        assert_eq!(
            edited,
            "limits:\n  time_limit: 2\n  # what the judge allows\n  memory: 512\nname: x\n"
        );
        assert_eq!(parsed(&edited)["limits"]["memory"].as_i64(), Some(512));
        assert_eq!(parsed(&edited)["limits"]["time_limit"].as_i64(), Some(2));
    }

    #[test]
    fn a_missing_block_is_added_at_the_end() {
        let edited = set_time_limit("name: x\nsource: y", 0.25).unwrap();
        assert_eq!(edited, "name: x\nsource: y\nlimits:\n  time_limit: 0.25\n");
        let empty_block = set_time_limit("limits:\nname: x\n", 4.0).unwrap();
        assert_eq!(empty_block, "limits:\n  time_limit: 4\nname: x\n");
        assert_eq!(parsed(&empty_block)["name"].as_str(), Some("x"));
    }

    #[test]
    fn a_nested_time_limit_elsewhere_is_not_taken_for_it() {
        // `time_limit` deeper inside `limits` (not at the block's indent) is another key's.
        let text = "limits:\n  time_multipliers:\n    time_limit: 9\n  memory: 64\n";
        let edited = set_time_limit(text, 1.0).unwrap();
        let value = parsed(&edited);
        assert_eq!(value["limits"]["time_limit"].as_i64(), Some(1));
        assert_eq!(
            value["limits"]["time_multipliers"]["time_limit"].as_i64(),
            Some(9)
        );
    }

    #[test]
    fn what_cannot_be_edited_safely_is_refused_with_its_line() {
        assert_eq!(
            set_time_limit("name: x\nlimits: {memory: 1024}\n", 2.0),
            Err(EditError::NotABlock {
                line: 2,
                seconds: "2".into()
            })
        );
        assert_eq!(
            set_time_limit("limits:\n  time_limit: &t 3\n", 2.0),
            Err(EditError::MultiLine {
                line: 2,
                seconds: "2".into()
            })
        );
    }

    #[test]
    fn windows_line_endings_are_kept() {
        let edited = set_time_limit("limits:\r\n  time_limit: 3\r\n", 2.0).unwrap();
        assert_eq!(edited, "limits:\r\n  time_limit: 2\r\n");
    }
}
