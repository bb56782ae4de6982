//! Typed reading of one YAML map at a time: each key's value as a string, number, list or
//! arguments, with type errors located (`problem.yaml:7:3: limits.memory must be ...`) and keys
//! the caller does not know collected as warnings with a did-you-mean.

use std::path::Path;
use std::time::Duration;

use super::yaml::{Diagnostic, Node, Value};
use crate::bounds::{self, Real, Whole};

/// The entries of one YAML map, read key by key with located type errors. Keys not in the known
/// list become warnings (with a did-you-mean) rather than errors: the format's later versions and
/// other tools add keys, and a package should still load.
pub struct Fields<'a> {
    file: &'a Path,
    /// Dotted path of the map (`limits.`), prefixed to key names in messages.
    prefix: String,
    entries: Vec<(&'a str, &'a Node)>,
}

impl<'a> Fields<'a> {
    /// Reads `node` as a map whose keys must be strings; unknown keys are pushed to `warnings`.
    pub fn new(
        file: &'a Path,
        node: &'a Node,
        prefix: &str,
        known: &[&str],
        warnings: &mut Vec<Diagnostic>,
    ) -> Result<Self, Diagnostic> {
        Self::replacing(file, node, prefix, (known, &[]), warnings)
    }

    /// [`Fields::new`] where some unknown keys are ones an older version of the format had:
    /// `replaced` pairs each with what replaced it, which its warning names instead of a
    /// did-you-mean.
    pub fn replacing(
        file: &'a Path,
        node: &'a Node,
        prefix: &str,
        (known, replaced): (&[&str], &[(&str, &str)]),
        warnings: &mut Vec<Diagnostic>,
    ) -> Result<Self, Diagnostic> {
        let entries = Self::entries(file, node, prefix)?;
        for (key, value) in &entries {
            if known.contains(key) {
                continue;
            }
            let message = match replaced.iter().find(|(old, _)| old == key) {
                Some((_, instead)) => format!(
                    "unknown key `{prefix}{key}` is legacy only; this version uses {instead}"
                ),
                None => {
                    let hint = crate::suggest::did_you_mean(key, known.iter().copied());
                    format!("unknown key `{prefix}{key}`{hint}")
                }
            };
            let at = key_node(node, key).unwrap_or(value);
            warnings.push(Diagnostic::at(file, at, message));
        }
        Ok(Fields {
            file,
            prefix: prefix.to_string(),
            entries,
        })
    }

    /// The string-keyed entries of a map node, in file order.
    pub fn entries(
        file: &'a Path,
        node: &'a Node,
        prefix: &str,
    ) -> Result<Vec<(&'a str, &'a Node)>, Diagnostic> {
        let what = prefix.trim_end_matches('.');
        let Some(map) = node.as_map() else {
            let name = if what.is_empty() { "the file" } else { what };
            return Err(Diagnostic::at(
                file,
                node,
                format!(
                    "{name} must be a map of keys to values, found {}",
                    node.describe()
                ),
            ));
        };
        map.iter()
            .map(|(key, value)| match key.as_str() {
                Some(name) => Ok((name, value)),
                None => Err(Diagnostic::at(
                    file,
                    key,
                    format!("keys of {what} must be strings, found {}", key.describe()),
                )),
            })
            .collect()
    }

    pub fn file(&self) -> &'a Path {
        self.file
    }

    pub fn get(&self, key: &str) -> Option<&'a Node> {
        self.entries
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
    }

    /// An error at `node` about `key`.
    pub fn error(&self, node: &Node, key: &str, expected: &str) -> Diagnostic {
        let found = node.describe();
        Diagnostic::at(
            self.file,
            node,
            format!("{}{key} must be {expected}, found {found}", self.prefix),
        )
    }

    pub fn string(&self, key: &str) -> Result<Option<String>, Diagnostic> {
        self.read(key, "a string", |n| n.as_str().map(str::to_string))
    }

    pub fn boolean(&self, key: &str) -> Result<Option<bool>, Diagnostic> {
        self.read(key, "true or false", |n| match n.value {
            Value::Bool(b) => Some(b),
            _ => None,
        })
    }

    /// A number greater than `min` (or at least `min` when `inclusive`).
    pub fn number(&self, key: &str, min: f64, inclusive: bool) -> Result<Option<f64>, Diagnostic> {
        let Some(node) = self.get(key) else {
            return Ok(None);
        };
        let value = node
            .as_f64()
            .ok_or_else(|| self.error(node, key, "a number"))?;
        let ok = value.is_finite() && if inclusive { value >= min } else { value > min };
        if !ok {
            let bound = if inclusive {
                "at least"
            } else {
                "greater than"
            };
            return Err(self.error(node, key, &format!("a number {bound} {min}")));
        }
        Ok(Some(value))
    }

    /// A number within `bound` (finite, so never NaN or infinite).
    pub fn real(&self, key: &str, bound: &Real) -> Result<Option<f64>, Diagnostic> {
        self.read(key, &bound.to_string(), |n| bound.admits(n.as_f64()?))
    }

    /// A time limit in seconds ([`bounds::SECONDS`]), as the time it is.
    pub fn seconds(&self, key: &str) -> Result<Option<Duration>, Diagnostic> {
        let expected = bounds::SECONDS.to_string();
        self.read(key, &expected, |n| bounds::seconds(n.as_f64()?))
    }

    /// A whole number within `bound`.
    pub fn whole(&self, key: &str, bound: &Whole) -> Result<Option<u64>, Diagnostic> {
        self.read(key, &bound.to_string(), |n| match n.value {
            Value::Int(i) => bound.admits(i),
            _ => None,
        })
    }

    /// A list of strings; a single string counts as a list of one.
    pub fn strings(&self, key: &str) -> Result<Option<Vec<String>>, Diagnostic> {
        let Some(node) = self.get(key) else {
            return Ok(None);
        };
        string_list(node)
            .map(Some)
            .ok_or_else(|| self.error(node, key, "a string or a list of strings"))
    }

    /// Arguments: a list of strings, or (the legacy `*_flags` form) one string split as a shell
    /// would split it.
    pub fn args(&self, key: &str) -> Result<Option<Vec<String>>, Diagnostic> {
        let Some(node) = self.get(key) else {
            return Ok(None);
        };
        args_of(self.file, node)?.map(Some).ok_or_else(|| {
            self.error(
                node,
                key,
                "a list of arguments or a string of space-separated arguments",
            )
        })
    }

    fn read<T>(
        &self,
        key: &str,
        expected: &str,
        convert: impl Fn(&Node) -> Option<T>,
    ) -> Result<Option<T>, Diagnostic> {
        match self.get(key) {
            None => Ok(None),
            Some(node) => convert(node)
                .map(Some)
                .ok_or_else(|| self.error(node, key, expected)),
        }
    }
}

/// The key node of `key` in a map node, to locate messages on the key rather than its value.
pub fn key_node<'n>(map: &'n Node, key: &str) -> Option<&'n Node> {
    map.as_map()?
        .iter()
        .map(|(k, _)| k)
        .find(|k| k.as_str() == Some(key))
}

/// A string or a list of strings (scalars of other types read as their text).
pub fn string_list(node: &Node) -> Option<Vec<String>> {
    match &node.value {
        Value::Str(s) => Some(vec![s.clone()]),
        Value::Seq(items) => items.iter().map(Node::scalar_text).collect(),
        _ => None,
    }
}

/// Arguments written as a list of scalars or as one shell-like string; null means none, and
/// `Ok(None)` is another shape. Arguments go on programs' command lines, and a contained program
/// is shown the host files its absolute arguments name: an absolute path is refused, located.
pub fn args_of(file: &Path, node: &Node) -> Result<Option<Vec<String>>, Diagnostic> {
    let args = match &node.value {
        Value::Null => Some(vec![]),
        Value::Str(s) => shell_words::split(s).ok(),
        Value::Seq(items) => items.iter().map(Node::scalar_text).collect(),
        _ => None,
    };
    let items = match &node.value {
        Value::Seq(items) => items.as_slice(),
        _ => std::slice::from_ref(node),
    };
    let absolute = args
        .iter()
        .flatten()
        .enumerate()
        .find(|(_, a)| a.starts_with('/'));
    if let Some((index, arg)) = absolute {
        let at = items.get(index).unwrap_or(node);
        return Err(Diagnostic::at(
            file,
            at,
            format!(
                "`{arg}` is an absolute path: programs are shown the files their arguments name, \
                 and a package may name nothing outside it"
            ),
        ));
    }
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::package::yaml::parse;

    fn doc(text: &str) -> Node {
        parse(Path::new("t.yaml"), text).unwrap().unwrap()
    }

    #[test]
    fn fields_warn_unknown_keys_with_a_suggestion_and_locate_type_errors() {
        let root = doc("limits:\n  time_multiplyer: 2\n  memory: lots\n");
        let limits = Fields::entries(Path::new("problem.yaml"), &root, "").unwrap()[0].1;
        let mut warnings = vec![];
        let fields = Fields::new(
            Path::new("problem.yaml"),
            limits,
            "limits.",
            &["time_multiplier", "memory"],
            &mut warnings,
        )
        .unwrap();
        assert_eq!(
            warnings[0].to_string(),
            "problem.yaml:2:3: unknown key `limits.time_multiplyer` (did you mean `time_multiplier`?)"
        );
        let mib = Whole {
            min: 1,
            max: 4096,
            unit: " of MiB",
            note: "",
        };
        assert_eq!(
            fields.whole("memory", &mib).unwrap_err().to_string(),
            "problem.yaml:3:11: limits.memory must be a whole number of MiB from 1 to 4096, found \
             \"lots\""
        );
    }

    #[test]
    fn args_accept_lists_strings_and_unquoted_numbers() {
        let root = doc("a: float_tolerance 1e-6\nb: [float_tolerance, 1e-6]\nc: 5\n");
        let fields = Fields::new(Path::new("t"), &root, "", &["a", "b", "c"], &mut vec![]).unwrap();
        assert_eq!(
            fields.args("a").unwrap().unwrap(),
            ["float_tolerance", "1e-6"]
        );
        assert_eq!(
            fields.args("b").unwrap().unwrap(),
            ["float_tolerance", "1e-6"]
        );
        assert!(fields.args("c").is_err());
    }
}
