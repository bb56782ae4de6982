//! `include:` in `generators.yaml`: the keys it names resolved against those read before it
//! (a case, or every case below a group), and each included case copied into the group that
//! includes it, as `bt` does.

use super::plan::{Case, Source};
use super::reader::{get, join, Known, Reader};
use crate::package::yaml::{Node, Value};
use crate::suggest::did_you_mean;

impl Reader<'_> {
    /// The cases `include:` names, resolved now (only keys read before it count).
    pub(super) fn includes(&mut self, node: &Node) -> Vec<String> {
        let Some(list) = get(node, "include") else {
            return vec![];
        };
        let items: Vec<&Node> = match &list.value {
            Value::Seq(items) => items.iter().collect(),
            Value::Null => vec![],
            _ => vec![list],
        };
        let mut cases = vec![];
        for item in items {
            let Some(key) = item.scalar_text() else {
                let found = item.describe();
                self.error(
                    item,
                    format!("include names a case or group by its key, found {found}"),
                );
                continue;
            };
            if key.contains('/') {
                self.error(item, format!("include `{key}` must be a key, not a path"));
                continue;
            }
            let Some((_, known)) = self.keys.get(&key).cloned() else {
                let hint = did_you_mean(&key, self.keys.keys().map(String::as_str));
                self.error(
                    item,
                    format!("include `{key}` names no case or group written before it{hint}"),
                );
                continue;
            };
            if known.len() != 1 {
                self.error(
                    item,
                    format!(
                        "include `{key}` is ambiguous: {} cases or groups have that key",
                        known.len()
                    ),
                );
                continue;
            }
            self.keys.get_mut(&key).unwrap().0 = true;
            match &known[0] {
                Known::Case(path) => cases.push(path.clone()),
                Known::Group(group) => cases.extend(self.cases_below(group)),
            }
        }
        cases
    }

    /// The cases below a group, included ones as their originals.
    fn cases_below(&self, group: &str) -> Vec<String> {
        let below = |path: &str| group.is_empty() || path.starts_with(&format!("{group}/"));
        let rules = self
            .plan
            .cases
            .iter()
            .filter(|c| below(&c.path))
            .map(|c| c.path.clone());
        let included = self
            .included
            .iter()
            .filter(|c| below(&c.path))
            .map(|c| match &c.source {
                Source::Included(original) => original.clone(),
                Source::Rule(_) => c.path.clone(),
            });
        rules.chain(included).collect()
    }

    pub(super) fn include_case(&mut self, group: &str, original: String, at: &Node) {
        let name = original.rsplit('/').next().unwrap_or_default().to_string();
        let path = join(group, &name);
        let clash = self
            .plan
            .cases
            .iter()
            .chain(&self.included)
            .find(|c| c.path == path)
            .map(|c| match &c.source {
                Source::Included(o) => o.clone(),
                Source::Rule(_) => c.path.clone(),
            });
        match clash {
            Some(existing) if existing == original => {}
            Some(existing) => self.error(
                at,
                format!("including `{original}` as `{path}` clashes with `{existing}`"),
            ),
            None => {
                let (line, column) = self
                    .plan
                    .cases
                    .iter()
                    .find(|c| c.path == original)
                    .map_or((at.line, at.column), |c| (c.line, c.column));
                self.included.push(Case {
                    path,
                    line,
                    column,
                    source: Source::Included(original),
                });
            }
        }
    }
}
