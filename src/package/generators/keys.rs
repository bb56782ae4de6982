//! The keys of `generators.yaml` beside its tree of cases: the root's `generators:` dictionary
//! (a generator named by the files it is made of) and the settings a group or case passes down
//! (`solution`, `random_salt`, `retries`).

use super::plan::{NamedProgram, Solution};
use super::reader::{get, valid_name, Inherited, Reader};
use crate::package::yaml::{Node, Value};

impl Reader<'_> {
    pub(super) fn programs(&mut self, root: &Node) {
        let Some(node) = get(root, "generators") else {
            return;
        };
        if node.as_map().is_none() && !matches!(node.value, Value::Null) {
            let found = node.describe();
            self.error(
                node,
                format!("`generators` must map names to lists of files, found {found}"),
            );
            return;
        }
        for (name, at, deps) in self.entries(node) {
            if name.starts_with('/') || name.contains('/') || !valid_name(name) {
                self.warn(
                    at,
                    format!("generator name `{name}` is not a valid name; skipped"),
                );
                continue;
            }
            let files: Option<Vec<String>> = match &deps.value {
                Value::Seq(items) => items
                    .iter()
                    .map(|i| i.as_str().map(str::to_string))
                    .collect(),
                _ => None,
            };
            match files {
                Some(files) if !files.is_empty() => {
                    if let Some(bad) = files
                        .iter()
                        .find(|f| f.starts_with('/') || f.split('/').any(|p| p == ".."))
                    {
                        let message = format!("`{bad}` must be a path below generators/");
                        self.error(deps, message);
                        continue;
                    }
                    self.plan.programs.push((name.to_string(), files));
                }
                Some(_) => self.warn(deps, format!("generator `{name}` lists no files; skipped")),
                None => {
                    let found = deps.describe();
                    self.error(
                        deps,
                        format!("generator `{name}` must be a list of files, found {found}"),
                    )
                }
            }
        }
    }

    pub(super) fn inherit(&mut self, node: &Node, parent: &Inherited) -> Inherited {
        let mut config = parent.clone();
        if let Some(solution) = get(node, "solution") {
            match &solution.value {
                Value::Null => config.solution = Solution::Disabled,
                Value::Str(path) => match path.strip_prefix('/') {
                    Some(rest) if !rest.is_empty() && !path.contains(char::is_whitespace)
                        && !rest.split('/').any(|p| p == "..") =>
                    {
                        self.name(NamedProgram::Solution(rest.to_string()), solution);
                        config.solution = Solution::Given(rest.to_string())
                    }
                    _ => self.error(
                        solution,
                        format!("solution `{path}` must be a path from the package root starting with `/` (like `/submissions/accepted/a.py`), without arguments"),
                    ),
                },
                _ => {
                    let found = solution.describe();
                    self.error(solution, format!("solution must be a path or nothing, found {found}"))
                }
            }
        }
        if let Some(salt) = get(node, "random_salt") {
            match salt.scalar_text() {
                Some(text) => config.salt = text,
                None => {
                    let found = salt.describe();
                    self.error(salt, format!("random_salt must be a string, found {found}"))
                }
            }
        }
        if let Some(retries) = get(node, "retries") {
            match retries.value {
                Value::Int(n) if (1..=1000).contains(&n) => config.retries = n as u32,
                _ => {
                    let found = retries.describe();
                    self.error(
                        retries,
                        format!("retries must be a whole number from 1 to 1000, found {found}"),
                    )
                }
            }
        }
        config
    }
}
