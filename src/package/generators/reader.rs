//! What walking `generators.yaml` shares between its parts ([`super::parse`] the groups,
//! [`super::rule`] one case's rule, [`super::keys`] the root's dictionary, [`super::include`]
//! `include:`): the [`Reader`] that walks the file and records each located mistake, what a
//! group passes down ([`Inherited`]), which keys belong where, and the names `bt` allows. Its
//! own module so those parts read it, never each other.

use std::collections::HashMap;
use std::path::Path;

use super::plan::{Case, Context, Plan, Solution};
use crate::package::yaml::{Diagnostic, Node};

/// Keys that make a map a case rather than a group.
pub(super) const CASE_ONLY: [&str; 4] = ["copy", "generate", "count", "match"];
/// Keys a group and a case alike may set, inherited by what is below.
pub(super) const INHERITED: [&str; 3] = ["solution", "random_salt", "retries"];
/// Keys only a group has.
pub(super) const GROUP_ONLY: [&str; 3] = ["data", "test_group.yaml", "include"];
/// What a group passes to what is below it.
#[derive(Clone)]
pub(super) struct Inherited {
    pub(super) solution: Solution,
    pub(super) salt: String,
    pub(super) retries: u32,
}

/// Something `include:` may name by its key.
#[derive(Clone)]
pub(super) enum Known {
    Case(String),
    Group(String),
}

pub(super) struct Reader<'a> {
    pub(super) file: &'a Path,
    pub(super) source: &'a str,
    pub(super) context: &'a Context,
    pub(super) plan: Plan,
    /// Included cases, generated after every rule's.
    pub(super) included: Vec<Case>,
    pub(super) errors: Vec<Diagnostic>,
    /// The last number given to a numbered case (one counter for the whole file).
    pub(super) next_case: usize,
    pub(super) total_numbered: usize,
    /// Each key read so far: whether it was included, and what it names.
    pub(super) keys: HashMap<String, (bool, Vec<Known>)>,
}

pub(super) fn get<'n>(node: &'n Node, key: &str) -> Option<&'n Node> {
    node.as_map()?
        .iter()
        .find(|(k, _)| k.as_str() == Some(key))
        .map(|(_, v)| v)
}

/// `bt`'s names of cases and groups: a letter, digit or `_`, then those, `.` and `-`.
pub(super) fn valid_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    matches!(bytes.next(), Some(b) if b.is_ascii_alphanumeric() || b == b'_')
        && name.len() <= 255
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'-')
}

pub(super) fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_string()
    } else {
        format!("{parent}/{name}")
    }
}
