//! YAML with locations: the package's YAML files (`problem.yaml`, `test_group.yaml`/
//! `testdata.yaml`, per-case `.yaml`, `submissions.yaml`) read into a small tree whose every node
//! knows its line and column, and the located diagnostics (`problem.yaml:7:3: ...`) built from it.
//! A package is untrusted, so every file is bounded: its size is capped, and its tree may hold at
//! most [`MAX_NODES`] values, aliases expanded, and [`MAX_DEPTH`] levels. Typed reading of one map
//! at a time is in [`super::fields`].

use std::collections::HashMap;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};
use yaml_rust2::Yaml;

use crate::files::beneath::{OpenError, TreePath};

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

/// The most bytes grundy reads of each YAML file of a package. Real ones are a few KiB; the
/// caps bound what a hostile package can make grundy read and parse.
pub const PROBLEM_YAML_BYTES: u64 = 1 << 20;
/// `submissions/submissions.yaml`.
pub const SUBMISSIONS_YAML_BYTES: u64 = 1 << 20;
/// `test_group.yaml` and `testdata.yaml`, one per group.
pub const GROUP_YAML_BYTES: u64 = 1 << 20;
/// A case's own `<case>.yaml`: a few settings, and there may be thousands of them.
pub const CASE_YAML_BYTES: u64 = 64 << 10;
/// The most nodes a document may hold with its aliases expanded: an alias is a copy of what it
/// names, so nested aliases grow a small file exponentially (the "billion laughs").
pub const MAX_NODES: usize = 100_000;
/// The most levels collections may nest, aliases expanded: deeper trees would make every
/// recursive walk of them (cloning, dropping, reading) a risk to the stack.
pub const MAX_DEPTH: usize = 64;

/// Parses one YAML document within [`MAX_NODES`] and [`MAX_DEPTH`]. An empty file (or one
/// holding only comments) is `None`.
pub fn parse(file: &Path, text: &str) -> Result<Option<Node>, Diagnostic> {
    let located = |mark: &Marker, message: String| Diagnostic {
        file: file.to_path_buf(),
        line: mark.line(),
        column: mark.col() + 1,
        message,
    };
    // Events are pulled one at a time (the parser's own loader recurses once per level, and
    // would overflow the stack on deep nesting before any limit of ours is seen).
    let mut parser = Parser::new_from_str(text);
    let mut builder = Builder::default();
    loop {
        let (event, mark) = parser
            .next_token()
            .map_err(|e| located(e.marker(), format!("not valid YAML: {}", e.info())))?;
        match event {
            Event::DocumentEnd | Event::StreamEnd => return Ok(builder.root),
            event => builder
                .take(event, &mark)
                .map_err(|refused| match refused {
                    Refused::Duplicate { line, column, .. } => Diagnostic {
                        file: file.to_path_buf(),
                        line,
                        column,
                        message: refused.to_string(),
                    },
                    over => located(&mark, over.to_string()),
                })?,
        }
    }
}

/// Reads and parses `file`, refused when over `cap` bytes; `Ok(None)` when it is empty.
pub fn read(file: &TreePath, cap: u64) -> Result<Option<Node>, Diagnostic> {
    parse(file.path(), &read_text(file, cap)?)
}

/// The text of `file`, refused when over `cap` bytes.
pub fn read_text(file: &TreePath, cap: u64) -> Result<String, Diagnostic> {
    let too_large = |size: u64| too_large(file.path(), size, cap, "");
    let opened = file.open()?;
    let unreadable =
        |e: std::io::Error| Diagnostic::file(file.path(), format!("cannot read it: {e}"));
    let size = opened.metadata().map_err(unreadable)?.len();
    if size > cap {
        return Err(too_large(size));
    }
    let mut text = String::new();
    // A file growing after its size was seen is still read no further than the cap.
    opened
        .take(cap + 1)
        .read_to_string(&mut text)
        .map_err(unreadable)?;
    if text.len() as u64 > cap {
        return Err(too_large(text.len() as u64));
    }
    Ok(text)
}

/// `file` of `size` bytes is over the `cap` grundy reads of it (`when`: after what).
pub fn too_large(file: &Path, size: u64, cap: u64, when: &str) -> Diagnostic {
    Diagnostic::file(
        file,
        format!(
            "too large{when}: {size} bytes, over the {} grundy reads of this file",
            in_units(cap)
        ),
    )
}

/// A cap in words: `1 MiB`, `64 KiB`.
fn in_units(bytes: u64) -> String {
    if bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

impl From<OpenError> for Diagnostic {
    fn from(error: OpenError) -> Diagnostic {
        Diagnostic::file(error.file(), error.reason())
    }
}

/// A collection being built.
struct Open {
    node: Node,
    /// In a map: a key awaiting its value.
    key: Option<Node>,
    anchor: usize,
    /// [`Builder::nodes`] before it started.
    start: usize,
    /// The most levels a child of it has so far.
    height: usize,
}

/// Why a document is refused while its tree is built: over the budget a package's YAML is read
/// within, or a map holding a key twice (which value was meant cannot be known; YAML itself
/// requires keys to be unique).
#[derive(Debug, thiserror::Error)]
enum Refused {
    #[error(
        "more than {MAX_NODES} values once aliases are expanded (an alias copies what it names); \
         grundy reads package YAML up to that size"
    )]
    Values,
    #[error(
        "nested more than {MAX_DEPTH} levels deep (aliases expanded); grundy reads package YAML \
         up to that depth"
    )]
    Depth,
    /// The key at `line`:`column` repeats one of the same map.
    #[error(
        "duplicate key `{key}`: it is set already at line {first_line}, column {first_column} \
         of the same map; keep one of the two"
    )]
    Duplicate {
        key: String,
        line: usize,
        column: usize,
        first_line: usize,
        first_column: usize,
    },
}

/// Builds the tree from the parser's events, within [`MAX_NODES`] and [`MAX_DEPTH`]; anchors
/// are remembered so aliases can be copied in.
#[derive(Default)]
struct Builder {
    stack: Vec<Open>,
    /// Each anchor's node, with its count of nodes and its levels.
    anchors: HashMap<usize, (Node, usize, usize)>,
    /// Nodes made so far, an alias counting the nodes it copies.
    nodes: usize,
    root: Option<Node>,
}

impl Builder {
    /// Counts `nodes` more, `levels` deep below the open collections.
    fn grow(&mut self, nodes: usize, levels: usize) -> Result<(), Refused> {
        self.nodes += nodes;
        if self.nodes > MAX_NODES {
            return Err(Refused::Values);
        }
        if self.stack.len() + levels > MAX_DEPTH {
            return Err(Refused::Depth);
        }
        Ok(())
    }

    fn take(&mut self, event: Event, mark: &Marker) -> Result<(), Refused> {
        let at = |value, raw: &str| Node {
            value,
            raw: raw.to_string(),
            line: mark.line(),
            column: mark.col() + 1,
        };
        match event {
            Event::Scalar(text, style, anchor, _tag) => {
                self.grow(1, 1)?;
                let value = if style == TScalarStyle::Plain {
                    resolve_plain(&text)
                } else {
                    Value::Str(text.clone())
                };
                self.push_value(at(value, &text), anchor, 1, 1)?;
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                self.grow(1, 1)?;
                let value = match event {
                    Event::SequenceStart(..) => Value::Seq(vec![]),
                    _ => Value::Map(vec![]),
                };
                self.stack.push(Open {
                    node: at(value, ""),
                    key: None,
                    anchor,
                    start: self.nodes - 1,
                    height: 0,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(open) = self.stack.pop() {
                    let nodes = self.nodes - open.start;
                    self.push_value(open.node, open.anchor, nodes, open.height + 1)?;
                }
            }
            Event::Alias(id) => {
                // The parser refuses an alias of an unknown anchor; one still open (an alias
                // inside its own anchor) reads as nothing rather than as itself.
                let (node, nodes, levels) = self
                    .anchors
                    .get(&id)
                    .cloned()
                    .unwrap_or_else(|| (at(Value::Null, ""), 1, 1));
                self.grow(nodes, levels)?;
                self.push_value(node, 0, nodes, levels)?;
            }
            Event::Nothing
            | Event::StreamStart
            | Event::StreamEnd
            | Event::DocumentStart
            | Event::DocumentEnd => {}
        }
        Ok(())
    }

    /// Adds a finished node of `nodes` nodes and `levels` levels to its parent; a map's key
    /// equal to one it holds already is refused.
    fn push_value(
        &mut self,
        node: Node,
        anchor: usize,
        nodes: usize,
        levels: usize,
    ) -> Result<(), Refused> {
        if anchor > 0 {
            self.anchors.insert(anchor, (node.clone(), nodes, levels));
        }
        match self.stack.last_mut() {
            None => self.root = Some(node),
            Some(parent) => {
                parent.height = parent.height.max(levels);
                match &mut parent.node.value {
                    Value::Seq(items) => items.push(node),
                    Value::Map(entries) => match parent.key.take() {
                        None => {
                            if let Some((first, _)) =
                                entries.iter().find(|(k, _)| same_key(k, &node))
                            {
                                return Err(Refused::Duplicate {
                                    key: node.raw.clone(),
                                    line: node.line,
                                    column: node.column,
                                    first_line: first.line,
                                    first_column: first.column,
                                });
                            }
                            parent.key = Some(node);
                        }
                        Some(key) => entries.push((key, node)),
                    },
                    _ => unreachable!("only collections are pushed on the stack"),
                }
            }
        }
        Ok(())
    }
}

/// Whether two keys of a map are the same key: equal scalars (`2` and `"2"` differ, as YAML
/// has them). Collections as keys are never taken for duplicates.
fn same_key(a: &Node, b: &Node) -> bool {
    !matches!(a.value, Value::Seq(_) | Value::Map(_)) && a.value == b.value
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
#[path = "yaml_tests.rs"]
mod tests;
