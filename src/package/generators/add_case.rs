//! A case added to `generators.yaml`'s `secret` group by editing the file's text, so its
//! comments, key order and layout stay as the author wrote them (`mutants --add`). Only a
//! block mapping `data:` under a block mapping `secret:` is edited: the entry goes after its
//! last case, at that case's indentation. A list-form `data:` is refused, as a new item can
//! renumber every case of the list in `bt`'s numbering (nine items become ten, `1` becomes
//! `01`); so is a flow collection, an empty `data:` and anything this cannot place with
//! certainty. Writes nothing.

use std::path::Path;

use crate::package::yaml::{self, Node, Value};

/// Why the case could not be added to the file's text: the shape found there.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum AddError {
    #[error("{0}")]
    Unreadable(String),
    #[error("it has no block mapping `data:` → `secret:` → `data:` to add a case to")]
    NoSecretData,
    #[error("line {0}: the `secret` group's `data:` is not a block mapping of cases")]
    NotABlockMapping(usize),
    #[error("line {0}: a case named `{1}` is there already")]
    Taken(usize, String),
}

/// `text` with the case `name: command` added to the `secret` group's `data:`.
pub fn add_secret_case(text: &str, name: &str, command: &str) -> Result<String, AddError> {
    let root = yaml::parse(Path::new(super::FILE), text)
        .map_err(|e| AddError::Unreadable(e.to_string()))?
        .ok_or(AddError::NoSecretData)?;
    let (key, data) = entry(&root, "data")
        .and_then(|(_, d)| entry(d, "secret"))
        .and_then(|(_, s)| entry(s, "data"))
        .ok_or(AddError::NoSecretData)?;
    let Value::Map(cases) = &data.value else {
        return Err(AddError::NotABlockMapping(key.line));
    };
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    // A block mapping's cases start on the lines after `data:`; a flow one's on its line.
    let (Some((first, _)), Some((last, _))) = (cases.first(), cases.last()) else {
        return Err(AddError::NotABlockMapping(key.line));
    };
    if first.line <= key.line || first.column <= key.column {
        return Err(AddError::NotABlockMapping(key.line));
    }
    if let Some((key, _)) = cases.iter().find(|(k, _)| k.raw == name) {
        return Err(AddError::Taken(key.line, name.to_string()));
    }
    let indent = first.column - 1;
    // The last case ends before the next line at its indentation or less that is not blank
    // or a comment; comments after it belong to what follows, so the entry goes before them.
    let mut end = last.line;
    for (i, line) in lines.iter().enumerate().skip(last.line) {
        let content = line.trim_start_matches([' ', '\t']);
        if content.trim().is_empty() || content.starts_with('#') {
            continue;
        }
        if line.len() - content.len() <= indent {
            break;
        }
        end = i + 1;
    }
    let mut out: String = lines[..end].concat();
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!(
        "{}{name}: {}\n",
        " ".repeat(indent),
        scalar(command)
    ));
    out.push_str(&lines[end..].concat());
    Ok(out)
}

/// The entry of `key` in a mapping: its key and value.
fn entry<'a>(map: &'a Node, key: &str) -> Option<(&'a Node, &'a Node)> {
    let entries = map.as_map()?;
    entries
        .iter()
        .find(|(k, _)| k.raw == key)
        .map(|(k, v)| (k, v))
}

/// `command` as a YAML scalar: plain where nothing in it means something to YAML, else
/// double-quoted (a JSON string is one).
fn scalar(command: &str) -> String {
    let plain = command
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || " ._/-=+,".contains(c))
        && command.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '.' || c == '/')
        && !command.ends_with(' ');
    match plain {
        true => command.to_string(),
        false => serde_json::to_string(command).expect("a string is always JSON"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_case_goes_after_the_last_one_and_comments_stay() {
        let text = "# plan\ndata:\n  sample:\n    data:\n      s: gen.py 1\n  secret:\n    \
                    data:\n      # random\n      r: gen.py {seed}\n      big:\n        \
                    generate: gen.py 9\n    # after\n  other: 1\n";
        let added = add_secret_case(text, "mutant-4", "gen.py 17 3").unwrap();
        assert_eq!(
            added,
            "# plan\ndata:\n  sample:\n    data:\n      s: gen.py 1\n  secret:\n    data:\n      \
             # random\n      r: gen.py {seed}\n      big:\n        generate: gen.py 9\n      \
             mutant-4: gen.py 17 3\n    # after\n  other: 1\n"
        );
    }

    #[test]
    fn a_command_yaml_would_misread_is_quoted() {
        let added = add_secret_case("data:\n secret:\n  data:\n   a: x\n", "m", "g #1: 'x'");
        assert_eq!(
            added.unwrap(),
            "data:\n secret:\n  data:\n   a: x\n   m: \"g #1: 'x'\"\n"
        );
    }

    #[test]
    fn shapes_that_cannot_be_edited_safely_are_refused() {
        let list = "data:\n  secret:\n    data:\n      - a: x\n";
        assert_eq!(
            add_secret_case(list, "m", "g"),
            Err(AddError::NotABlockMapping(3))
        );
        let flow = "data:\n  secret:\n    data: {a: x}\n";
        assert_eq!(
            add_secret_case(flow, "m", "g"),
            Err(AddError::NotABlockMapping(3))
        );
        let none = "data:\n  sample:\n    data:\n      a: x\n";
        assert_eq!(add_secret_case(none, "m", "g"), Err(AddError::NoSecretData));
        let taken = "data:\n  secret:\n    data:\n      m: x\n";
        assert_eq!(
            add_secret_case(taken, "m", "g"),
            Err(AddError::Taken(4, "m".into()))
        );
    }
}
