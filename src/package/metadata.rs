//! `problem.yaml`: the format version, the problem's name and type, its licence and credits, and
//! the legacy validation keys, for all three versions. Limits (and the time-limit arithmetic) are
//! in [`super::limits`].
//!
//! The version decides the reading: no `problem_format_version` (or `legacy`, `legacy-icpc`) is
//! legacy; `2023-07-draft`/`2023-07` and `2025-09` (or `draft`, which names the newest draft) are
//! the new format. Keys the version does not define are warnings; wrong types are errors.

use std::fmt;
use std::path::Path;

use super::about::{authors, keywords, names, sources, Names, Source};
use super::constants::Constants;
use super::fields::{self, Fields};
use super::limits::Limits;
use super::problem_grading::{self, ProblemGrading};
use super::version::FormatVersion;
use super::yaml::{Diagnostic, Node, Value};

/// What kind of problem it is. Pass-fail is "not scoring"; the others combine freely except
/// that submit-answer excludes interactive and multi-pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProblemType {
    pub scoring: bool,
    pub interactive: bool,
    pub multi_pass: bool,
    pub submit_answer: bool,
}

impl fmt::Display for ProblemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = vec![if self.scoring { "scoring" } else { "pass-fail" }];
        for (on, name) in [
            (self.interactive, "interactive"),
            (self.multi_pass, "multi-pass"),
            (self.submit_answer, "submit-answer"),
        ] {
            if on {
                parts.push(name);
            }
        }
        f.write_str(&parts.join(" "))
    }
}

/// The licences the format knows.
pub const LICENSES: &[&str] = &[
    "unknown",
    "public domain",
    "cc0",
    "cc by",
    "cc by-sa",
    "educational",
    "permission",
];

/// `problem.yaml`, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Metadata {
    pub version: FormatVersion,
    /// Names by language code; a plain string is English.
    pub name: Names,
    pub problem_type: ProblemType,
    pub uuid: Option<String>,
    pub authors: Vec<String>,
    pub source: Vec<Source>,
    pub license: String,
    pub rights_owner: Option<String>,
    pub keywords: Vec<String>,
    pub limits: Limits,
    /// Legacy `validation: custom ...`: a custom output validator is required.
    pub custom_validation: bool,
    /// Legacy `validation: custom score`: the validator writes the score.
    pub custom_score: bool,
    /// Legacy `validator_flags`: arguments given to every output validator on every case.
    pub validator_flags: Vec<String>,
    /// Language codes submissions may use; empty means all (`languages: all`, the default).
    pub languages: Vec<String>,
    /// New versions: submissions may write files in their working folder.
    pub allow_file_writing: bool,
    /// Legacy `grading`.
    pub grading: ProblemGrading,
    /// `constants` (2025-09), substituted in its programs' sources.
    pub constants: Constants,
}

impl Metadata {
    /// The name to show: English if there is one, else the first language's.
    pub fn display_name(&self) -> Option<&str> {
        self.name
            .get("en")
            .or_else(|| self.name.values().next())
            .map(String::as_str)
    }
}

const LEGACY_KEYS: &[&str] = &[
    "problem_format_version",
    "type",
    "name",
    "uuid",
    "author",
    "source",
    "source_url",
    "license",
    "rights_owner",
    "limits",
    "validation",
    "validator_flags",
    "grading",
    "keywords",
    "languages",
    "libraries",
];

const NEW_KEYS: &[&str] = &[
    "problem_format_version",
    "type",
    "name",
    "uuid",
    "version",
    "credits",
    "source",
    "license",
    "rights_owner",
    "embargo_until",
    "limits",
    "keywords",
    "languages",
    "allow_file_writing",
    "constants",
];

/// The metadata of `problem.yaml` at `file`, read as `yaml` (`None`: the file is empty);
/// warnings (unknown keys, removed legacy keys) go to `warnings`.
pub fn of_yaml(
    file: &Path,
    yaml: Option<&Node>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Metadata, Diagnostic> {
    let empty = Node {
        value: Value::Map(vec![]),
        raw: String::new(),
        line: 1,
        column: 1,
    };
    parse(file, yaml.unwrap_or(&empty), warnings)
}

/// The format version of `problem.yaml` at `file`, read as `yaml`, alone: all that finding a
/// package's cases needs, so that a package wrong in another key still has cases, which fail
/// with why.
pub fn version(file: &Path, yaml: Option<&Node>) -> Result<FormatVersion, Diagnostic> {
    match yaml {
        Some(root) => version_of(file, root),
        None => Ok(FormatVersion::Legacy),
    }
}

/// Reads an already parsed `problem.yaml`.
pub fn parse(
    file: &Path,
    root: &Node,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Metadata, Diagnostic> {
    let version = version_of(file, root)?;
    let keys = if version.is_legacy() {
        (LEGACY_KEYS, &[][..])
    } else {
        (NEW_KEYS, REMOVED_KEYS)
    };
    let fields = Fields::replacing(file, root, "", keys, warnings)?;

    let problem_type = if version.is_legacy() {
        legacy_type(&fields)?
    } else {
        new_type(&fields)?
    };
    let (custom_validation, custom_score, multi_pass, interactive) =
        legacy_validation(&fields, version)?;
    let problem_type = ProblemType {
        interactive: problem_type.interactive || interactive,
        multi_pass: problem_type.multi_pass || multi_pass,
        ..problem_type
    };
    let limits = match fields.get("limits") {
        None => Limits::defaults(version),
        Some(node) => Limits::parse(file, node, version, problem_type.multi_pass, warnings)?,
    };
    let license = fields
        .string("license")?
        .unwrap_or_else(|| "unknown".into());
    if !LICENSES.contains(&license.as_str()) {
        let node = fields.get("license").expect("a license was read");
        return Err(fields.error(node, "license", &format!("one of {}", LICENSES.join(", "))));
    }
    // Read for their types only: a wrong type is an error even where grundy has no use for it.
    for key in ["version", "embargo_until"] {
        fields.string(key)?;
    }
    let constants = match fields.get("constants") {
        Some(node) => Constants::read(file, node)?,
        None => Constants::default(),
    };
    let languages = fields.strings("languages")?.unwrap_or_default();
    let languages = if languages == ["all"] {
        vec![]
    } else {
        languages
    };
    let grading = if version.is_legacy() {
        problem_grading::read(&fields, warnings)?
    } else {
        ProblemGrading::default()
    };
    Ok(Metadata {
        constants,
        grading,
        languages,
        allow_file_writing: fields.boolean("allow_file_writing")?.unwrap_or(false),
        version,
        name: names(&fields)?,
        problem_type,
        uuid: fields.string("uuid")?,
        authors: authors(&fields, version)?,
        source: sources(&fields, version)?,
        license,
        rights_owner: fields.string("rights_owner")?,
        keywords: keywords(&fields, version)?,
        limits,
        custom_validation,
        custom_score,
        validator_flags: if version.is_legacy() {
            fields.args("validator_flags")?.unwrap_or_default()
        } else {
            vec![]
        },
    })
}

fn version_of(file: &Path, root: &Node) -> Result<FormatVersion, Diagnostic> {
    let entries = Fields::entries(file, root, "")?;
    let Some((_, node)) = entries.iter().find(|(k, _)| *k == "problem_format_version") else {
        return Ok(FormatVersion::Legacy);
    };
    const NAMES: &[&str] = &[
        "legacy",
        "legacy-icpc",
        "2023-07-draft",
        "2023-07",
        "2025-09",
        "2025-09-draft",
        "draft",
    ];
    match node.scalar_text().as_deref() {
        Some("legacy" | "legacy-icpc") => Ok(FormatVersion::Legacy),
        Some("2023-07-draft" | "2023-07") => Ok(FormatVersion::V2023_07),
        Some("2025-09" | "2025-09-draft" | "draft") => Ok(FormatVersion::V2025_09),
        other => {
            let hint = other.map_or(String::new(), |o| {
                crate::suggest::did_you_mean(o, NAMES.iter().copied())
            });
            Err(Diagnostic::at(
                file,
                node,
                format!(
                    "problem_format_version must be one of legacy, 2023-07-draft, 2025-09, found {}{hint}",
                    node.describe()
                ),
            ))
        }
    }
}

/// Keys the new versions removed, each with what replaced it (their warnings say so).
const REMOVED_KEYS: &[(&str, &str)] = &[
    ("validation", "`type` (and an output_validator/ folder)"),
    (
        "validator_flags",
        "`output_validator_args` in data/test_group.yaml",
    ),
    ("author", "`credits`"),
    ("source_url", "`source: {name, url}`"),
    (
        "grading",
        "`max_score` and `score_aggregation` in test_group.yaml",
    ),
];

fn legacy_type(fields: &Fields) -> Result<ProblemType, Diagnostic> {
    match fields.string("type")?.as_deref() {
        None | Some("pass-fail") => Ok(ProblemType::default()),
        Some("scoring") => Ok(ProblemType {
            scoring: true,
            ..ProblemType::default()
        }),
        Some(_) => Err(fields.error(
            fields.get("type").expect("read"),
            "type",
            "pass-fail or scoring",
        )),
    }
}

fn new_type(fields: &Fields) -> Result<ProblemType, Diagnostic> {
    let Some(node) = fields.get("type") else {
        return Ok(ProblemType::default());
    };
    let expected =
        "pass-fail, scoring, interactive, multi-pass or submit-answer (or a list of them)";
    let names = match &node.value {
        // 2023-07 drafts wrote several types in one string: `type: scoring interactive`.
        Value::Str(s) => s.split_whitespace().map(str::to_string).collect(),
        Value::Seq(_) => {
            fields::string_list(node).ok_or_else(|| fields.error(node, "type", expected))?
        }
        _ => return Err(fields.error(node, "type", expected)),
    };
    if names.is_empty() {
        return Err(fields.error(node, "type", expected));
    }
    let mut problem_type = ProblemType::default();
    let mut pass_fail = false;
    for name in &names {
        match name.as_str() {
            "pass-fail" => pass_fail = true,
            "scoring" => problem_type.scoring = true,
            "interactive" => problem_type.interactive = true,
            "multi-pass" => problem_type.multi_pass = true,
            "submit-answer" => problem_type.submit_answer = true,
            _ => return Err(fields.error(node, "type", expected)),
        }
        if names.iter().filter(|n| *n == name).count() > 1 {
            return Err(Diagnostic::at(
                fields.file(),
                node,
                format!("type lists `{name}` twice"),
            ));
        }
    }
    let clash = if pass_fail && problem_type.scoring {
        Some("pass-fail and scoring")
    } else if problem_type.submit_answer && (problem_type.interactive || problem_type.multi_pass) {
        Some("submit-answer and interactive or multi-pass")
    } else {
        None
    };
    match clash {
        Some(pair) => Err(Diagnostic::at(
            fields.file(),
            node,
            format!("type cannot combine {pair}"),
        )),
        None => Ok(problem_type),
    }
}

/// Legacy `validation`: `default`, or `custom` followed by any of `interactive`, `score` and
/// `multipass` (problemtools) / `multi-pass` (BAPCtools). Returns (custom, score, multi-pass,
/// interactive); the new versions ignore the key (it was warned as unknown).
fn legacy_validation(
    fields: &Fields,
    version: FormatVersion,
) -> Result<(bool, bool, bool, bool), Diagnostic> {
    let Some(text) = fields.string("validation")?.filter(|_| version.is_legacy()) else {
        return Ok((false, false, false, false));
    };
    let node = fields.get("validation").expect("read");
    let words: Vec<&str> = text.split_whitespace().collect();
    let expected = "`default` or `custom` followed by any of interactive, score, multipass";
    match words.split_first() {
        Some((&"default", [])) => Ok((false, false, false, false)),
        Some((&"custom", rest)) => {
            let mut flags = (true, false, false, false);
            for word in rest {
                match *word {
                    "score" => flags.1 = true,
                    "multipass" | "multi-pass" => flags.2 = true,
                    "interactive" => flags.3 = true,
                    _ => return Err(fields.error(node, "validation", expected)),
                }
            }
            Ok(flags)
        }
        _ => Err(fields.error(node, "validation", expected)),
    }
}

#[cfg(test)]
#[path = "metadata_tests.rs"]
mod tests;
