//! The 2025-09 format's `constants` of `problem.yaml`, and their substitution: each constant a
//! value with optional variants (`{k: {value: 5000000, tex: "5\,000\,000"}}`, or a scalar for
//! `value` alone), and the sequences `{{name}}` and `{{name.variant}}` in a program's sources
//! (its submissions, validators and included files, as the format lists them) replaced by them
//! before it is built. A sequence naming no constant stays as it is, as the format says.
//!
//! Bounded: a substitution may not make a file larger than [`MAX_SUBSTITUTED`], whatever its
//! sequences and the values' lengths.

use std::collections::BTreeMap;
use std::path::Path;

use super::fields::Fields;
use super::yaml::{Diagnostic, Node, Value};

/// The most bytes one file may have once its constants are substituted.
pub const MAX_SUBSTITUTED: usize = 64 << 20;

/// The constants of a package, by name, each by variant (`value` always there).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Constants(BTreeMap<String, BTreeMap<String, String>>);

/// A file whose substitution would pass [`MAX_SUBSTITUTED`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("substituting the constants would make it larger than {} MiB", MAX_SUBSTITUTED >> 20)]
pub struct TooLarge;

impl Constants {
    /// Reads `constants:` of `problem.yaml` (`file`), whose node is `node`.
    pub fn read(file: &Path, node: &Node) -> Result<Constants, Diagnostic> {
        let mut constants = BTreeMap::new();
        for (name, value) in Fields::entries(file, node, "constants.")? {
            if !is_name(name) {
                return Err(Diagnostic::at(
                    file,
                    value,
                    format!(
                        "constants.{name}: a constant's name is a letter or `_`, then letters, \
                         digits or `_`"
                    ),
                ));
            }
            let variants = match &value.value {
                Value::Map(_) => {
                    let mut variants = BTreeMap::new();
                    for (variant, node) in
                        Fields::entries(file, value, &format!("constants.{name}."))?
                    {
                        variants.insert(variant.to_string(), scalar(file, name, node)?);
                    }
                    if !variants.contains_key("value") {
                        return Err(Diagnostic::at(
                            file,
                            value,
                            format!("constants.{name} must have a `value`"),
                        ));
                    }
                    variants
                }
                _ => BTreeMap::from([("value".to_string(), scalar(file, name, value)?)]),
            };
            constants.insert(name.to_string(), variants);
        }
        Ok(Constants(constants))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Every constant's name, variant and text, in order: what a build depends on.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &str, &str)> {
        self.0.iter().flat_map(|(name, variants)| {
            variants
                .iter()
                .map(move |(variant, text)| (name.as_str(), variant.as_str(), text.as_str()))
        })
    }

    /// `bytes` with every `{{name}}` and `{{name.variant}}` of a constant replaced by its text;
    /// `None` when there is none.
    pub fn substitute(&self, bytes: &[u8]) -> Result<Option<Vec<u8>>, TooLarge> {
        // No token is longer than the longest `name.variant`: the closing braces are looked
        // for that far only, so a file of many `{{` costs time in proportion to its length.
        let longest = self.entries().map(|(n, v, _)| n.len() + 1 + v.len()).max();
        let Some(longest) = longest else {
            return Ok(None);
        };
        let mut out = Vec::new();
        let mut copied = 0;
        let mut at = 0;
        while let Some(open) = find(&bytes[at..], b"{{").map(|i| at + i) {
            let inner = open + 2;
            let window = &bytes[inner..bytes.len().min(inner + longest + 2)];
            let token = find(window, b"}}").map(|i| &bytes[inner..inner + i]);
            match token.and_then(|token| self.text_of(token)) {
                Some(text) => {
                    out.extend_from_slice(&bytes[copied..open]);
                    out.extend_from_slice(text.as_bytes());
                    if out.len() + (bytes.len() - open) > MAX_SUBSTITUTED {
                        return Err(TooLarge);
                    }
                    copied = inner + token.map_or(0, <[u8]>::len) + 2;
                    at = copied;
                }
                None => at = open + 1,
            }
        }
        if copied == 0 {
            return Ok(None);
        }
        out.extend_from_slice(&bytes[copied..]);
        Ok(Some(out))
    }

    /// The text `token` (between the braces) stands for: `name` or `name.variant` of a constant.
    fn text_of(&self, token: &[u8]) -> Option<&str> {
        let token = std::str::from_utf8(token).ok()?;
        let (name, variant) = token.split_once('.').unwrap_or((token, "value"));
        if !is_name(name) {
            return None;
        }
        self.0.get(name)?.get(variant).map(String::as_str)
    }
}

/// A constant's name: `[a-zA-Z_][a-zA-Z0-9_]*`.
fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A constant's value as written: an integer, a float or a string.
fn scalar(file: &Path, name: &str, node: &Node) -> Result<String, Diagnostic> {
    match &node.value {
        Value::Int(_) | Value::Float(_) | Value::Str(_) => {
            Ok(node.scalar_text().unwrap_or_default())
        }
        _ => Err(Diagnostic::at(
            file,
            node,
            format!(
                "constants.{name} must be an integer, a float or a string, found {}",
                node.describe()
            ),
        )),
    }
}

/// Where `needle` first is in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
#[path = "constants_tests.rs"]
mod tests;
