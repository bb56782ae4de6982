//! Walking `generators.yaml`'s tree into a [`Plan`]: groups in `bt`'s order (the top-level groups
//! in their fixed order, the others' entries by name), numbered lists, counted rules, inherited
//! `solution`/`random_salt`/`retries`, and `include:` resolved against the keys read before it.

use std::collections::HashMap;
use std::path::Path;

use super::count::{count_suffix, numbered_name, parse_count};
use super::plan::{
    Case, Context, Group, GroupYaml, Named, NamedProgram, Plan, Solution, Source, ROOT_GROUPS,
    TEXT_EXTENSIONS,
};
use super::reader::{
    get, join, valid_name, Inherited, Known, Reader, CASE_ONLY, GROUP_ONLY, INHERITED,
};
use super::rule::rule;
use super::text::{is_empty_collection, yaml_file};
use crate::package::fields::key_node;
use crate::package::yaml::{Diagnostic, Node, Value};
use crate::suggest::{closest, did_you_mean};

/// Keys only the root has.
const ROOT_ONLY: [&str; 2] = ["generators", "version"];
/// Root keys older `bt`s read and later ones ignore.
const DEPRECATED_ROOT: [&str; 3] = ["gitignore_generated", "parallel", "visualizer"];

pub fn plan(
    file: &Path,
    source: &str,
    root: Option<&Node>,
    context: &Context,
) -> Result<Plan, Vec<Diagnostic>> {
    let empty = Node {
        value: Value::Map(vec![]),
        raw: String::new(),
        line: 1,
        column: 1,
    };
    let root = root.unwrap_or(&empty);
    let mut reader = Reader {
        file,
        source,
        context,
        plan: Plan::default(),
        included: vec![],
        errors: vec![],
        next_case: 0,
        total_numbered: numbered_cases(root, false),
        keys: HashMap::new(),
    };
    if !is_group(root) {
        reader.error(
            root,
            "the file must be a map describing `data/` (a group)".into(),
        );
        return Err(reader.errors);
    }
    reader.programs(root);
    let inherited = Inherited {
        solution: Solution::Default,
        salt: String::new(),
        retries: 1,
    };
    reader.group("", "", root, &inherited, None);
    let Reader {
        mut plan,
        included,
        errors,
        ..
    } = reader;
    if !errors.is_empty() {
        return Err(errors);
    }
    plan.cases.extend(included);
    Ok(plan)
}

fn is_case(node: &Node) -> bool {
    match &node.value {
        Value::Null | Value::Str(_) => true,
        Value::Map(entries) => entries.iter().any(|(k, _)| {
            k.as_str()
                .is_some_and(|k| CASE_ONLY.contains(&k) || TEXT_EXTENSIONS.contains(&k))
        }),
        _ => false,
    }
}

fn is_group(node: &Node) -> bool {
    matches!(node.value, Value::Map(_)) && !is_case(node)
}

/// How many numbered cases the file holds, for the width of their numbers (`bt`'s forgiving
/// count: counted rules count each of their cases).
fn numbered_cases(group: &Node, _numbered: bool) -> usize {
    let Some(data) = get(group, "data") else {
        return 0;
    };
    let (entries, numbered): (Vec<&Node>, bool) = match &data.value {
        Value::Map(_) => (vec![data], false),
        Value::Seq(items) => (items.iter().collect(), true),
        _ => return 0,
    };
    let mut total = 0;
    for entry in entries {
        for (_, child) in entry.as_map().unwrap_or_default() {
            if is_case(child) && numbered {
                total += parse_count(get(child, "count").filter(|_| child.as_map().is_some()))
                    .map_or(1, |v| v.len());
            } else if is_group(child) {
                total += numbered_cases(child, numbered);
            }
        }
    }
    total
}

impl Reader<'_> {
    pub(super) fn error(&mut self, node: &Node, message: String) {
        self.errors.push(Diagnostic::at(self.file, node, message));
    }

    pub(super) fn warn(&mut self, node: &Node, message: String) {
        self.plan
            .warnings
            .push(Diagnostic::at(self.file, node, message));
    }

    /// The string keys of a map, non-string keys reported.
    pub(super) fn entries<'n>(&mut self, node: &'n Node) -> Vec<(&'n str, &'n Node, &'n Node)> {
        let mut out = vec![];
        for (key, value) in node.as_map().unwrap_or_default() {
            match key.as_str() {
                Some(k) => out.push((k, key, value)),
                None if matches!(key.value, Value::Null) => out.push(("", key, value)),
                None => self.error(
                    key,
                    format!("keys must be strings, found {}", key.describe()),
                ),
            }
        }
        out
    }

    /// The keys of `node` that are none of `known`, with where each is.
    pub(super) fn unknown<'n>(
        &mut self,
        node: &'n Node,
        known: &[&str],
    ) -> Vec<(&'n str, &'n Node)> {
        let entries = self.entries(node);
        entries
            .into_iter()
            .filter(|(key, _, _)| !known.contains(key))
            .map(|(key, at, _)| (key, at))
            .collect()
    }

    pub(super) fn unknown_keys(&mut self, node: &Node, known: &[&str], what: &str) {
        for (key, at) in self.unknown(node, known) {
            let hint = did_you_mean(key, known.iter().copied());
            self.warn(at, format!("unknown key `{key}` in {what}{hint}"));
        }
    }

    /// A group's unknown keys, each a warning with the key it is closest to; below the top, a
    /// case's keys too, as a misspelt `generate:` leaves a map that is a group, not a case.
    fn unknown_group_keys(&mut self, node: &Node, path: &str, known: &[&str]) {
        let case_keys = [CASE_ONLY.as_slice(), TEXT_EXTENSIONS.as_slice()].concat();
        let root = path.is_empty();
        for (key, at) in self.unknown(node, known) {
            let extra = if root { &[][..] } else { case_keys.as_slice() };
            let message = match closest(key, known.iter().chain(extra).copied()) {
                Some(near) if !known.contains(&near) => format!(
                    "unknown key `{key}` in group `{path}` (did you mean `{near}`, which would \
                     make `{path}` a case?)"
                ),
                _ => format!(
                    "unknown key `{key}` in a group{}",
                    did_you_mean(key, known.iter().copied())
                ),
            };
            self.warn(at, message);
        }
    }

    /// Drops what was said since `since` (lengths of the errors and warnings) that the range
    /// `first` of them said already.
    fn forget_repeated(&mut self, first: ((usize, usize), (usize, usize)), since: (usize, usize)) {
        let ((errors_from, warnings_from), (errors_to, warnings_to)) = first;
        let (errors, warnings) = (&mut self.errors, &mut self.plan.warnings);
        dedupe_tail(errors, errors_from..errors_to, since.0);
        dedupe_tail(warnings, warnings_from..warnings_to, since.1);
    }

    /// Records where `program` is named, the first time it is.
    pub(super) fn name(&mut self, program: NamedProgram, at: &Node) {
        if !self.plan.named.iter().any(|n| n.program == program) {
            self.plan.named.push(Named {
                program,
                line: at.line,
                column: at.column,
            });
        }
    }

    fn remember(&mut self, key: &str, known: Known, at: &Node) {
        let entry = self.keys.entry(key.to_string()).or_default();
        entry.1.push(known);
        if entry.0 && entry.1.len() == 2 {
            self.warn(
                at,
                format!("key `{key}` was included already and is used again"),
            );
        }
    }

    fn group(&mut self, key: &str, path: &str, node: &Node, parent: &Inherited, at: Option<&Node>) {
        let at = at.unwrap_or(node);
        let root = path.is_empty();
        let config = self.inherit(node, parent);
        let mut known: Vec<&str> = [GROUP_ONLY.as_slice(), INHERITED.as_slice()].concat();
        if root {
            known.extend(ROOT_ONLY);
            for key in DEPRECATED_ROOT {
                if let Some(k) = key_node(node, key) {
                    self.warn(k, format!("`{key}` is no longer read; it can be removed"));
                }
            }
            known.extend(DEPRECATED_ROOT);
        } else {
            for key in ROOT_ONLY {
                if let Some(k) = key_node(node, key) {
                    self.error(
                        k,
                        format!("`{key}` may only be given at the top of the file"),
                    );
                }
            }
        }
        if let Some(k) = key_node(node, "command") {
            self.error(
                k,
                "`command` is reserved; a case's command is `generate`".into(),
            );
        }
        self.unknown_group_keys(
            node,
            path,
            &[known.as_slice(), &ROOT_ONLY, &["command"]].concat(),
        );
        let test_group_yaml = match get(node, "test_group.yaml") {
            None => GroupYaml::Unset,
            Some(n) if matches!(n.value, Value::Null) => GroupYaml::Remove,
            Some(n) if is_empty_collection(n) => GroupYaml::Unset,
            Some(n) if n.as_map().is_some() => GroupYaml::Write(yaml_file(self.source, n)),
            Some(n) => {
                let found = n.describe();
                self.error(
                    n,
                    format!("test_group.yaml must be a map of settings, found {found}"),
                );
                GroupYaml::Unset
            }
        };
        self.plan.groups.push(Group {
            path: path.to_string(),
            test_group_yaml,
        });
        self.remember(key, Known::Group(path.to_string()), at);

        let included = self.includes(node);
        let data = get(node, "data");
        let (entries, numbered): (Vec<&Node>, bool) = match data.map(|d| &d.value) {
            None | Some(Value::Null) => (vec![], false),
            Some(Value::Map(_)) => (vec![data.unwrap()], false),
            Some(Value::Seq(items)) => (items.iter().collect(), true),
            Some(_) => {
                let data = data.unwrap();
                let found = data.describe();
                self.error(data, format!("data must be a map of cases and groups, or a list of one-entry maps, found {found}"));
                (vec![], false)
            }
        };
        if root && numbered {
            self.error(
                data.unwrap(),
                "the top-level data must be a map, not a numbered list".into(),
            );
            return;
        }
        let total_groups = entries
            .iter()
            .flat_map(|e| e.as_map().unwrap_or_default())
            .filter(|(_, v)| is_group(v))
            .count();
        let mut next_group = 0;
        for entry in entries {
            let Some(map) = entry.as_map() else {
                let found = entry.describe();
                self.error(
                    entry,
                    format!(
                        "each item of a numbered data list must be a one-entry map, found {found}"
                    ),
                );
                continue;
            };
            if numbered && map.len() != 1 {
                self.error(entry, "each item of a numbered data list must have exactly one entry (indent its keys one level more)".into());
                continue;
            }
            let mut children = self.entries(entry);
            if root && !self.context.fixtures {
                for (name, k, _) in &children {
                    if !ROOT_GROUPS.contains(name) {
                        let hint = did_you_mean(name, ROOT_GROUPS.iter().copied());
                        self.warn(
                            k,
                            format!("`{name}` is not a top-level group of data/{hint}; skipped"),
                        );
                    }
                }
                children.retain(|(name, _, _)| ROOT_GROUPS.contains(name));
                children.sort_by_key(|(name, _, _)| ROOT_GROUPS.iter().position(|g| g == name));
            } else {
                children.sort_by(|a, b| a.0.cmp(b.0));
            }
            for (child_key, key_at, child) in children {
                if !numbered && child_key.is_empty() {
                    self.error(key_at, "a case or group in a map needs a name".into());
                    continue;
                }
                if is_group(child) {
                    let name = if numbered {
                        next_group += 1;
                        numbered_name(child_key, next_group, total_groups)
                    } else {
                        child_key.to_string()
                    };
                    if !valid_name(&name) {
                        self.error(key_at, format!("`{name}` is not a valid group name (letters, digits, `_`, `.` and `-`)"));
                        continue;
                    }
                    self.group(child_key, &join(path, &name), child, &config, Some(key_at));
                } else if is_case(child) {
                    self.cases(child_key, key_at, path, child, &config, numbered);
                } else {
                    let found = child.describe();
                    self.error(
                        child,
                        format!("`{child_key}` is neither a case nor a group, found {found}"),
                    );
                }
            }
        }
        for case in included {
            self.include_case(path, case, at);
        }
    }

    fn cases(
        &mut self,
        key: &str,
        at: &Node,
        parent: &str,
        node: &Node,
        config: &Inherited,
        numbered: bool,
    ) {
        let count_node = node.as_map().and(get(node, "count"));
        let values = match parse_count(count_node) {
            Ok(values) => values,
            Err(why) => return self.error(count_node.unwrap_or(node), why.to_string()),
        };
        // What the first of a counted rule's cases is told of its rule, its others are not
        // told again: the rule is one place in the file, and one mistake is said once.
        let mut first_said = None;
        for &value in &values {
            let said = (self.errors.len(), self.plan.warnings.len());
            let mut name = if numbered {
                self.next_case += 1;
                numbered_name(key, self.next_case, self.total_numbered)
            } else {
                key.to_string()
            };
            if count_node.is_some() {
                name.push_str(&count_suffix(&values, value));
            }
            let path = join(parent, &name);
            let case_at = if node.as_map().is_some() { node } else { at };
            if !valid_name(&name) || name.ends_with(".in") {
                self.error(at, format!("`{name}` is not a valid case name (letters, digits, `_`, `.` and `-`, not ending in `.in`)"));
                continue;
            }
            if name == "test_group" {
                self.error(at, "a case may not be named `test_group`: its `.yaml` would be the group's settings".into());
                continue;
            }
            if self.plan.cases.iter().any(|c| c.path == path) {
                self.error(at, format!("case `{path}` is described twice"));
                continue;
            }
            let count = count_node.map(|_| value);
            let made = rule(self, &path, node, at, config, count);
            match first_said {
                None => first_said = Some((said, (self.errors.len(), self.plan.warnings.len()))),
                Some(first) => self.forget_repeated(first, said),
            }
            let Some(rule) = made else {
                continue;
            };
            self.remember(key, Known::Case(path.clone()), at);
            self.plan.cases.push(Case {
                path,
                line: case_at.line,
                column: case_at.column,
                source: Source::Rule(Box::new(rule)),
            });
        }
    }
}

/// `list` without those of its items from `from` on that are among `said`.
fn dedupe_tail(list: &mut Vec<Diagnostic>, said: std::ops::Range<usize>, from: usize) {
    let tail = list.split_off(from);
    for item in tail {
        if !list[said.clone()].contains(&item) {
            list.push(item);
        }
    }
}
