//! YAML with locations: the package's YAML files (`problem.yaml`, `test_group.yaml`/
//! `testdata.yaml`, per-case `.yaml`, `submissions.yaml`) read into a small tree whose every node
//! knows its line and column, and the located diagnostics (`problem.yaml:7:3: ...`) built from it.
//! Typed reading of one map at a time is in [`super::fields`].

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};
use yaml_rust2::Yaml;

/// One problem found in a package file, located when the place is known.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub file: PathBuf,
    /// 1-based; 0 when the problem concerns the file (or folder) as a whole.
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl Diagnostic {
    /// A problem with a whole file or folder rather than a place in it.
    pub fn file(file: &Path, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.to_path_buf(),
            line: 0,
            column: 0,
            message: message.into(),
        }
    }

    /// A problem at `node` of `file`.
    pub fn at(file: &Path, node: &Node, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.to_path_buf(),
            line: node.line,
            column: node.column,
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file.display(), self.message)
        } else {
            let (file, line, column) = (self.file.display(), self.line, self.column);
            write!(f, "{file}:{line}:{column}: {}", self.message)
        }
    }
}

impl std::error::Error for Diagnostic {}

/// A YAML node and where it starts (1-based line and column).
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    /// The scalar as written (empty for collections), so `1e-6` stays `1e-6` as an argument.
    pub raw: String,
    pub line: usize,
    pub column: usize,
}

/// The value of a node; plain scalars are resolved as YAML 1.2's core schema does.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    /// Entries in file order; keys are nodes too, so a bad key can be located.
    Map(Vec<(Node, Node)>),
}

impl Node {
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Integers and floats alike, as YAML writes `2` and `2.0` for the same limit.
    pub fn as_f64(&self) -> Option<f64> {
        match self.value {
            Value::Int(i) => Some(i as f64),
            Value::Float(x) => Some(x),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&[(Node, Node)]> {
        match &self.value {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// The text of a scalar whatever its type (`1.0` of a float, `true` of a bool), so that
    /// arguments like `float_tolerance 1e-6` written unquoted still read as strings.
    pub fn scalar_text(&self) -> Option<String> {
        match &self.value {
            Value::Str(s) => Some(s.clone()),
            Value::Int(_) | Value::Float(_) | Value::Bool(_) => Some(self.raw.clone()),
            Value::Null | Value::Seq(_) | Value::Map(_) => None,
        }
    }

    /// How the value reads in an error message: `"fast"`, `3`, `a list`, `a map`, `nothing`.
    pub fn describe(&self) -> String {
        match &self.value {
            Value::Null => "nothing".into(),
            Value::Bool(b) => b.to_string(),
            Value::Int(_) | Value::Float(_) => self.raw.clone(),
            Value::Str(s) => format!("{s:?}"),
            Value::Seq(_) => "a list".into(),
            Value::Map(_) => "a map".into(),
        }
    }
}

/// Parses one YAML document. An empty file (or one holding only comments) is `None`.
pub fn parse(file: &Path, text: &str) -> Result<Option<Node>, Diagnostic> {
    let mut builder = Builder::default();
    let mut parser = Parser::new_from_str(text);
    if let Err(e) = parser.load(&mut builder, false) {
        let mark = e.marker();
        return Err(Diagnostic {
            file: file.to_path_buf(),
            line: mark.line(),
            column: mark.col() + 1,
            message: format!("not valid YAML: {}", e.info()),
        });
    }
    Ok(builder.root)
}

/// Reads and parses `file`; `Ok(None)` when it is empty.
pub fn read(file: &Path) -> Result<Option<Node>, Diagnostic> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| Diagnostic::file(file, format!("cannot read it: {e}")))?;
    parse(file, &text)
}

/// Builds the tree from the parser's events; anchors are remembered so aliases can be copied in.
#[derive(Default)]
struct Builder {
    /// Open collections: the node under construction and, for maps, a key awaiting its value.
    stack: Vec<(Node, Option<Node>, usize)>,
    anchors: HashMap<usize, Node>,
    root: Option<Node>,
}

impl Builder {
    fn push_value(&mut self, node: Node, anchor: usize) {
        if anchor > 0 {
            self.anchors.insert(anchor, node.clone());
        }
        match self.stack.last_mut() {
            None => self.root = Some(node),
            Some((parent, pending_key, _)) => match &mut parent.value {
                Value::Seq(items) => items.push(node),
                Value::Map(entries) => match pending_key.take() {
                    None => *pending_key = Some(node),
                    Some(key) => entries.push((key, node)),
                },
                _ => unreachable!("only collections are pushed on the stack"),
            },
        }
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, event: Event, mark: Marker) {
        let at = |value, raw: &str| Node {
            value,
            raw: raw.to_string(),
            line: mark.line(),
            column: mark.col() + 1,
        };
        match event {
            Event::Scalar(text, style, anchor, _tag) => {
                let value = if style == TScalarStyle::Plain {
                    resolve_plain(&text)
                } else {
                    Value::Str(text.clone())
                };
                self.push_value(at(value, &text), anchor);
            }
            Event::SequenceStart(anchor, _) => {
                self.stack.push((at(Value::Seq(vec![]), ""), None, anchor))
            }
            Event::MappingStart(anchor, _) => {
                self.stack.push((at(Value::Map(vec![]), ""), None, anchor))
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some((node, _, anchor)) = self.stack.pop() {
                    self.push_value(node, anchor);
                }
            }
            Event::Alias(id) => {
                let node = self
                    .anchors
                    .get(&id)
                    .cloned()
                    .unwrap_or_else(|| at(Value::Null, ""));
                self.push_value(node, 0);
            }
            Event::Nothing
            | Event::StreamStart
            | Event::StreamEnd
            | Event::DocumentStart
            | Event::DocumentEnd => {}
        }
    }
}

fn resolve_plain(text: &str) -> Value {
    match Yaml::from_str(text) {
        Yaml::Null => Value::Null,
        Yaml::Boolean(b) => Value::Bool(b),
        Yaml::Integer(i) => Value::Int(i),
        real @ Yaml::Real(_) => real.as_f64().map_or(Value::Str(text.into()), Value::Float),
        _ => Value::Str(text.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Node {
        parse(Path::new("t.yaml"), text).unwrap().unwrap()
    }

    #[test]
    fn nodes_know_their_line_and_column() {
        let root = doc("name: Hello\nlimits:\n  time_multiplier: fast\n");
        let limits = &root.as_map().unwrap()[1].1;
        let (key, value) = &limits.as_map().unwrap()[0];
        assert_eq!((key.line, key.column), (3, 3));
        assert_eq!((value.line, value.column), (3, 20));
        assert_eq!(value.describe(), "\"fast\"");
    }

    #[test]
    fn plain_scalars_resolve_and_quoted_ones_stay_strings() {
        let root = doc("a: 2\nb: 2.5\nc: true\nd: '2'\ne: ~\nf: 1e-6\n");
        let values: Vec<_> = root
            .as_map()
            .unwrap()
            .iter()
            .map(|(_, v)| v.value.clone())
            .collect();
        assert_eq!(
            values,
            [
                Value::Int(2),
                Value::Float(2.5),
                Value::Bool(true),
                Value::Str("2".into()),
                Value::Null,
                Value::Float(1e-6)
            ]
        );
    }

    #[test]
    fn empty_documents_are_none_and_bad_yaml_is_located() {
        assert_eq!(parse(Path::new("t.yaml"), "# nothing\n").unwrap(), None);
        let error = parse(Path::new("t.yaml"), "a: [1, 2\nb: 3\n").unwrap_err();
        assert!(error.to_string().starts_with("t.yaml:"), "{error}");
        assert!(error.line > 0);
    }

    #[test]
    fn aliases_copy_the_anchored_node() {
        let root = doc("a: &x [1, 2]\nb: *x\n");
        let map = root.as_map().unwrap();
        assert_eq!(map[0].1.value, map[1].1.value);
    }
}
