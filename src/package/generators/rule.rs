//! One case's rule read from its node in `generators.yaml`: where its files come from
//! (`generate:` with its command, `copy:`, inline text, links), its `solution`, its `match:`
//! patterns; each mistake recorded, located, by the [`Reader`] walking the file.

use super::plan::{
    seed, seed_count, Command, Match, NamedProgram, Rule, FOLDER, SAMPLE_ONLY, TEXT_EXTENSIONS,
};
use super::reader::{get, Inherited, Reader, CASE_ONLY, GROUP_ONLY, INHERITED};
use super::text::{substitute_constants, yaml_file};
use crate::package::fields::key_node;
use crate::package::yaml::{Node, Value};
use crate::suggest::{closest, did_you_mean};

/// The files of a sample that may be written as a link to another of its files.
const LINKABLE: [&str; 4] = SAMPLE_ONLY;

/// One case's rule; `None` when it is wrong (the errors are recorded).
pub(super) fn rule(
    r: &mut Reader,
    path: &str,
    node: &Node,
    at: &Node,
    config: &Inherited,
    count: Option<i64>,
) -> Option<Rule> {
    let errors = r.errors.len();
    let sample = path.split('/').next() == Some("sample");
    let owned;
    let node = match &node.value {
        // An older BAPCtools read an entry with nothing under it as a case kept by hand in
        // `data/`; today's calls it an error of that case alone and still makes the rest. Its
        // committed files stay as they are (data no rule describes), and the rest is made.
        Value::Null => {
            r.warn(
                at,
                "an empty case: nothing says how it is made (`generate`, `copy` or `in`), so \
                 its files in data/ are kept as committed (an older BAPCtools' case kept by hand)"
                    .into(),
            );
            return None;
        }
        Value::Str(text) => {
            let key = if text.ends_with(".in") {
                "copy"
            } else {
                "generate"
            };
            let value = text.strip_suffix(".in").unwrap_or(text);
            if key == "copy" {
                r.warn(
                    node,
                    format!("a case written as `{text}` is a copy: write `copy: {value}`"),
                );
            }
            owned = Node {
                value: Value::Map(vec![(
                    Node {
                        value: Value::Str(key.into()),
                        raw: key.into(),
                        ..node.clone()
                    },
                    Node {
                        value: Value::Str(value.into()),
                        raw: value.into(),
                        ..node.clone()
                    },
                )]),
                raw: String::new(),
                ..node.clone()
            };
            &owned
        }
        _ => node,
    };
    let config = r.inherit(node, config);
    let known: Vec<&str> = [
        CASE_ONLY.as_slice(),
        INHERITED.as_slice(),
        TEXT_EXTENSIONS.as_slice(),
    ]
    .concat();
    for key in GROUP_ONLY {
        if let Some(k) = key_node(node, key) {
            r.error(k, format!("`{key}` belongs to a group, not to a case"));
        }
    }
    let known = [known.as_slice(), GROUP_ONLY.as_slice()].concat();
    let unknown = r.unknown(node, &known);
    let has = |key: &str| get(node, key).is_some();
    let required: &[&[&str]] = if sample && r.context.interactive_or_multi_pass {
        &[
            &["generate"],
            &["copy"],
            &["in"],
            &["in.statement", "in.download"],
            &["interaction", "in.download"],
        ]
    } else if sample {
        &[
            &["generate"],
            &["copy"],
            &["in"],
            &["in.statement", "in.download"],
        ]
    } else {
        &[&["generate"], &["copy"], &["in"]]
    };
    // A case without an input but with an unknown key has most likely misspelt its input: that
    // key is the one error, said where it is (the one closest to an input key, else the first).
    let inputs: Vec<&str> = required
        .iter()
        .flat_map(|keys| keys.iter().copied())
        .collect();
    let culprit = if required.iter().any(|keys| keys.iter().all(|k| has(k))) {
        None
    } else if unknown.is_empty() {
        r.error(
            at,
            "a case needs an input: `generate`, `copy` or `in`".into(),
        );
        None
    } else {
        let near_input =
            |key: &str| closest(key, known.iter().copied()).is_some_and(|k| inputs.contains(&k));
        Some(
            unknown
                .iter()
                .position(|(key, _)| near_input(key))
                .unwrap_or(0),
        )
    };
    for (i, (key, key_at)) in unknown.into_iter().enumerate() {
        let hint = did_you_mean(key, known.iter().copied());
        if culprit == Some(i) {
            r.error(key_at, format!("unknown key `{key}` in a case{hint}: the case has no input (`generate`, `copy` or `in`)"));
        } else {
            r.warn(key_at, format!("unknown key `{key}` in a case{hint}"));
        }
    }
    if !r.context.interactive_or_multi_pass && has("interaction") {
        r.error(
            key_node(node, "interaction").unwrap(),
            "`interaction` is for interactive and multi-pass problems only".into(),
        );
    }
    if !sample {
        for key in SAMPLE_ONLY {
            if let Some(k) = key_node(node, key) {
                r.error(k, format!("`{key}` is for samples only"));
            }
        }
    }
    let generate = get(node, "generate").and_then(|g| command(r, g, count, &config.salt));
    let copy = get(node, "copy").and_then(|c| match c.as_str() {
        Some(p) if !p.is_empty() && !p.starts_with('/') && !p.split('/').any(|x| x == "..") => {
            if TEXT_EXTENSIONS
                .iter()
                .any(|e| p.ends_with(&format!(".{e}")))
            {
                r.warn(
                    c,
                    format!("`copy: {p}` names the case without its extension"),
                );
            }
            Some(format!("{}/{p}", FOLDER))
        }
        _ => {
            let found = c.describe();
            r.error(
                c,
                format!("copy must be a path below generators/ without extension, found {found}"),
            );
            None
        }
    });
    let mut inline = vec![];
    let mut links = vec![];
    for ext in TEXT_EXTENSIONS {
        let Some(value) = get(node, ext) else {
            continue;
        };
        match &value.value {
            Value::Null => {}
            Value::Map(_) if ext == "yaml" => {
                inline.push((ext.to_string(), yaml_file(r.source, value)))
            }
            Value::Map(entries)
                if LINKABLE.contains(&ext)
                    && entries.len() == 1
                    && get(value, "link").is_some() =>
            {
                let target = get(value, "link")
                    .and_then(Node::as_str)
                    .unwrap_or_default();
                let allowed = [LINKABLE.as_slice(), &["in", "ans"]].concat();
                if !allowed.contains(&target) {
                    let hint = did_you_mean(target, allowed.iter().copied());
                    r.error(
                        value,
                        format!("`{ext}` links to `{target}`, which is not a file of a case{hint}"),
                    );
                } else if ext.split('.').next() != target.split('.').next() {
                    r.error(value, format!("`{ext}` may not link to `{target}`: an input links to an input, an answer to an answer"));
                } else {
                    links.push((ext.to_string(), target.to_string()));
                }
            }
            _ => match value.scalar_text() {
                Some(mut text) => {
                    if !text.is_empty() && !text.ends_with('\n') {
                        text.push('\n');
                    }
                    inline.push((ext.to_string(), text));
                }
                None => {
                    let found = value.describe();
                    r.error(
                        value,
                        format!(
                            "`{ext}` must be the file's text or `{{link: ...}}`, found {found}"
                        ),
                    );
                }
            },
        }
    }
    for (from, to) in &links {
        if links.iter().any(|(f, _)| f == to) {
            r.error(
                node,
                format!("`{from}` links to `{to}`, which is a link itself"),
            );
        }
    }
    let matches = matches(r, node);
    if count.is_none() {
        if let (Some(g), Some(k)) = (&generate, get(node, "generate")) {
            if g.text.contains("{count}") {
                r.warn(
                    k,
                    "`{count}` in a command without `count:` is left as it is".into(),
                );
            }
        }
    }
    (r.errors.len() == errors).then_some(Rule {
        generate,
        copy,
        inline,
        links,
        solution: config.solution,
        retries: config.retries,
        matches,
    })
}

fn command(r: &mut Reader, node: &Node, count: Option<i64>, salt: &str) -> Option<Command> {
    let Some(text) = node.as_str().filter(|t| !t.trim().is_empty()) else {
        let found = node.describe();
        r.error(
            node,
            format!("generate must be a command (a generator and its arguments), found {found}"),
        );
        return None;
    };
    let (mut text, missing) = substitute_constants(text, &r.context.constants);
    for name in missing {
        r.warn(
            node,
            format!("`{{{{{name}}}}}` names no constant of problem.yaml; left as it is"),
        );
    }
    if let Some(value) = count {
        text = text.replace("{count}", &value.to_string());
    }
    let words = match shell_words::split(&text) {
        Ok(words) if !words.is_empty() => words,
        _ => {
            r.error(
                node,
                format!("cannot split `{text}` into words (an unclosed quote?)"),
            );
            return None;
        }
    };
    let program = words[0].clone();
    if program.starts_with('/') || program.split('/').any(|p| p == "..") {
        r.error(
            node,
            format!(
                "generator `{program}` must be a path below generators/ or a name of `generators:`"
            ),
        );
        return None;
    }
    r.name(NamedProgram::Generator(program.clone()), node);
    let args = words[1..].to_vec();
    let seeds: usize = args.iter().map(|a| seed_count(a)).sum();
    if seeds > 1 {
        r.error(node, "`{seed}` may appear at most once in a command".into());
        return None;
    }
    let text = text.trim().to_string();
    Some(Command {
        seed: seed(salt, count.unwrap_or(1), &text),
        text,
        program,
        args,
        uses_seed: seeds == 1,
    })
}

fn matches(r: &mut Reader, node: &Node) -> Vec<Match> {
    let Some(spec) = get(node, "match") else {
        return vec![];
    };
    let by_extension: Vec<(&str, &Node)> = match &spec.value {
        Value::Str(_) | Value::Seq(_) => vec![("in", spec)],
        Value::Map(_) => {
            r.unknown_keys(spec, &["in", "ans"], "match");
            ["in", "ans"]
                .into_iter()
                .filter_map(|e| get(spec, e).map(|n| (e, n)))
                .collect()
        }
        _ => vec![("", spec)],
    };
    let mut out = vec![];
    for (extension, list) in by_extension {
        let items: Vec<&Node> = match &list.value {
            Value::Seq(items) => items.iter().collect(),
            _ => vec![list],
        };
        for item in items {
            match item.as_str() {
                Some(pattern) if !extension.is_empty() => out.push(Match {
                    extension: extension.to_string(),
                    pattern: pattern.to_string(),
                    line: item.line,
                    column: item.column,
                }),
                _ => {
                    let found = item.describe();
                    r.error(item, format!("match must be a pattern, a list of them, or `in:`/`ans:` lists, found {found}"));
                }
            }
        }
    }
    out
}
