//! Who and where a problem comes from, as `problem.yaml` says it per version: the name (a string,
//! or names by language), the authors (legacy `author: A, B and C`; new `credits`), the sources
//! (legacy `source` and `source_url`; new `source` as a string, a map or a list) and keywords
//! (a space-separated string in legacy, a list in the new versions).

use std::collections::BTreeMap;

use super::fields::Fields;
use super::version::FormatVersion;
use super::yaml::{Diagnostic, Node, Value};

/// Where a problem comes from (a contest or course), with an optional link.
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    pub name: String,
    pub url: Option<String>,
}

/// A problem's names, by language code (`en` for a name given as a plain string).
pub type Names = BTreeMap<String, String>;

pub fn names(fields: &Fields) -> Result<Names, Diagnostic> {
    let Some(node) = fields.get("name") else {
        return Ok(BTreeMap::new());
    };
    match &node.value {
        Value::Str(s) => Ok(BTreeMap::from([("en".to_string(), s.clone())])),
        Value::Map(_) => Fields::entries(fields.file(), node, "name.")?
            .into_iter()
            .map(|(lang, value)| match value.as_str() {
                Some(name) => Ok((lang.to_string(), name.to_string())),
                None => Err(fields.error(value, &format!("name.{lang}"), "a string")),
            })
            .collect(),
        _ => Err(fields.error(node, "name", "a string or a map of language codes to names")),
    }
}

/// Legacy `author` ("A, B and C"); new `credits` (a person, or a map whose `authors` is a person
/// or a list of persons, a person being a string or a map with `name`).
pub fn authors(fields: &Fields, version: FormatVersion) -> Result<Vec<String>, Diagnostic> {
    if version.is_legacy() {
        let text = fields.string("author")?.unwrap_or_default();
        return Ok(text
            .split(',')
            .flat_map(|part| part.split(" and "))
            .map(str::trim)
            .filter(|name| !name.is_empty())
            .map(str::to_string)
            .collect());
    }
    let Some(credits) = fields.get("credits") else {
        return Ok(vec![]);
    };
    let authors = match &credits.value {
        Value::Str(_) => credits,
        Value::Map(_) => match Fields::entries(fields.file(), credits, "credits.")?
            .into_iter()
            .find(|(k, _)| *k == "authors")
        {
            Some((_, node)) => node,
            None => return Ok(vec![]),
        },
        _ => return Err(fields.error(credits, "credits", "a person or a map of credits")),
    };
    let persons: Vec<&Node> = match &authors.value {
        Value::Seq(items) => items.iter().collect(),
        _ => vec![authors],
    };
    persons
        .into_iter()
        .map(|person| match &person.value {
            Value::Str(s) => Ok(s.clone()),
            Value::Map(_) => Fields::entries(fields.file(), person, "credits.authors.")?
                .into_iter()
                .find(|(k, _)| *k == "name")
                .and_then(|(_, n)| n.as_str().map(str::to_string))
                .ok_or_else(|| fields.error(person, "credits.authors", "persons with a `name`")),
            _ => Err(fields.error(person, "credits.authors", "a person's name")),
        })
        .collect()
}

pub fn sources(fields: &Fields, version: FormatVersion) -> Result<Vec<Source>, Diagnostic> {
    if version.is_legacy() {
        let url = fields.string("source_url")?;
        let name = fields.string("source")?;
        return Ok(name.map(|name| Source { name, url }).into_iter().collect());
    }
    let Some(node) = fields.get("source") else {
        return Ok(vec![]);
    };
    let entries: Vec<&Node> = match &node.value {
        Value::Seq(items) => items.iter().collect(),
        _ => vec![node],
    };
    entries
        .into_iter()
        .map(|entry| match &entry.value {
            Value::Str(name) => Ok(Source {
                name: name.clone(),
                url: None,
            }),
            Value::Map(_) => {
                let source = Fields::new(
                    fields.file(),
                    entry,
                    "source.",
                    &["name", "url"],
                    &mut vec![],
                )?;
                Ok(Source {
                    name: source
                        .string("name")?
                        .ok_or_else(|| fields.error(entry, "source", "a map with a `name`"))?,
                    url: source.string("url")?,
                })
            }
            _ => Err(fields.error(
                entry,
                "source",
                "a string, a map with `name` and `url`, or a list of them",
            )),
        })
        .collect()
}

pub fn keywords(fields: &Fields, version: FormatVersion) -> Result<Vec<String>, Diagnostic> {
    if version.is_legacy() {
        let text = fields.string("keywords")?.unwrap_or_default();
        return Ok(text.split_whitespace().map(str::to_string).collect());
    }
    Ok(fields.strings("keywords")?.unwrap_or_default())
}
