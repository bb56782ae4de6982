//! Text taken from `generators.yaml` as it is written: a `test_group.yaml:` or `yaml:` value
//! becomes a file whose text is the value's own lines, dedented (comments, quotes and flow style
//! kept, as `bt`'s round-trip YAML writer keeps them), and `{{constants}}` in commands.

use crate::package::yaml::{Node, Value};

/// The text of the YAML file a map value of `generators.yaml` stands for: its lines in `source`,
/// from where the value starts, dedented to its column; a flow value (`{a: b}`) as written. Ends
/// in a newline.
pub fn yaml_file(source: &str, node: &Node) -> String {
    let lines: Vec<&str> = source.lines().collect();
    // A map's own mark is not where its text starts; its first key's is.
    let at = match &node.value {
        Value::Map(entries) if !entries.is_empty() => &entries[0].0,
        _ => node,
    };
    let (line, column) = (at.line.max(1) - 1, at.column.max(1) - 1);
    let Some(first) = lines.get(line) else {
        return String::new();
    };
    let start = first
        .char_indices()
        .nth(column)
        .map_or(first.len(), |(i, _)| i);
    let before = first[..start].trim_end();
    if before.ends_with('{') || before.ends_with('[') {
        let open = before.len() - 1;
        return format!("{}\n", flow(&source[offset_of(source, line) + open..]));
    }
    let head = &first[start..];
    let mut out = vec![head.trim_end()];
    for text in &lines[line + 1..] {
        let blank = text.trim().is_empty();
        let indent = text.len() - text.trim_start_matches(' ').len();
        if !blank && indent < column {
            break;
        }
        out.push(if blank { "" } else { text[column..].trim_end() });
    }
    while out.last() == Some(&"") {
        out.pop();
    }
    let mut text = out.join("\n");
    text.push('\n');
    text
}

fn offset_of(source: &str, line: usize) -> usize {
    source.split_inclusive('\n').take(line).map(str::len).sum()
}

/// A flow collection at the start of `text`, up to its closing bracket.
fn flow(text: &str) -> &str {
    let mut depth = 0usize;
    let mut quote = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '{' | '[') => depth += 1,
            (None, '}' | ']') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return &text[..=i];
                }
            }
            _ => {}
        }
    }
    text.lines().next().unwrap_or_default().trim_end()
}

/// Whether a value counts as set for `test_group.yaml:` (an empty map or list does not).
pub fn is_empty_collection(node: &Node) -> bool {
    match &node.value {
        Value::Map(entries) => entries.is_empty(),
        Value::Seq(items) => items.is_empty(),
        _ => false,
    }
}

/// `text` with every `{{name}}` or `{{name.field}}` that `constants` has replaced by its value;
/// the names it does not have, left as they are.
pub fn substitute_constants(text: &str, constants: &[(String, String)]) -> (String, Vec<String>) {
    let mut out = String::with_capacity(text.len());
    let mut missing = vec![];
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let name_len = after
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'.')
            .count();
        let name = &after[..name_len];
        if name_len > 0 && after[name_len..].starts_with("}}") && constant_name(name) {
            match constants.iter().find(|(key, _)| key == name) {
                Some((_, value)) => out.push_str(value),
                None => {
                    missing.push(name.to_string());
                    out.push_str(&rest[open..open + 2 + name_len + 2]);
                }
            }
            rest = &after[name_len + 2..];
        } else {
            out.push_str("{{");
            rest = after;
        }
    }
    out.push_str(rest);
    (out, missing)
}

/// `name` or `name.field`, each an identifier.
fn constant_name(name: &str) -> bool {
    let ident = |s: &str| {
        let mut bytes = s.bytes();
        matches!(bytes.next(), Some(b) if b.is_ascii_alphabetic() || b == b'_')
            && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
    };
    match name.split_once('.') {
        Some((a, b)) => ident(a) && ident(b),
        None => ident(name),
    }
}
