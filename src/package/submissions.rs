//! `submissions/`: every submission (`submissions/<folder>/<file or folder>`) with its program and
//! what it must get, from its folder and, in 2023-07 and 2025-09, `submissions/submissions.yaml`.
//!
//! `submissions.yaml` maps submission globs (relative to `submissions/`; a submission matches when
//! its path or its folder does; `*` stays within one name, `{a,b}` alternates) to `language`,
//! `entrypoint` and requirements (`permitted`, `required`, `score`, `message`,
//! `use_for_time_limit`), which may also sit under a test-case glob (`secret/group1`) to apply to
//! those cases only. A key naming a default folder exactly (`wrong_answer`) changes that folder's
//! default instead of adding to it; any other glob adds requirements.
//!
//! A DOMjudge `@EXPECTED_RESULTS@: ` tag in the source ([`super::expected_results`]) counts
//! where nothing more authoritative speaks, as BAPCtools and DOMjudge agree: in the four folders
//! of the original format (`accepted`, `wrong_answer`, `time_limit_exceeded`,
//! `run_time_error`) the folder decides and the tag is ignored with a warning; where a
//! `submissions.yaml` glob gives the submission requirements, they decide (BAPCtools today
//! judges by `submissions.yaml` alone and writes the tag from it when exporting to DOMjudge) and
//! the tag is ignored with a warning; anywhere else (`mixed/`, `rejected/`, any folder) the tag
//! replaces the folder's default rule. A tagged submission's every case must be accepted or get
//! a verdict of the tag, and its first-error verdict must be one of them (BAPCtools' rule).

use std::collections::BTreeSet;
use std::path::{Component, Path};

use super::expectations::{
    compile_error_allowed, default_rule, legacy_verdict, Expectation, PathGlob, Rule, ScoreDemand,
    TimeLimitUse, Verdict, Verdicts,
};
use super::expected_results::{self, Tag, TagError};
use super::fields::{self, Fields};
use super::includes::Includes;
use super::programs::{self, Program};
use super::version::FormatVersion;
use super::yaml::{self, Diagnostic, Node, Value};
use crate::files::beneath::{Tree, TreePath};

/// One submission.
#[derive(Clone, Debug)]
pub struct Submission {
    /// The path below `submissions/`: `accepted/sol.py`.
    pub id: String,
    /// The folder directly below `submissions/`: `accepted`.
    pub folder: String,
    pub program: Program,
    /// `None` when nothing says what it must get (a folder the format does not know, matched by
    /// no glob; or a compile error is all it may get); such a submission is not judged.
    pub expectation: Option<Expectation>,
    /// What a compile error of it is.
    pub compile_error: CompileError,
}

/// Whether a submission may fail to compile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompileError {
    /// Everywhere but the folders below and a tag naming `COMPILER-ERROR`.
    Forbidden,
    /// `rejected/` (any rejection), or a tag naming it beside run verdicts.
    Allowed,
    /// BAPCtools' `compile_error/`, or a tag naming it alone.
    Required,
}

/// The folders of the original format, whose name alone says what their submissions get; a
/// `@EXPECTED_RESULTS@` tag in them is ignored (DOMjudge's rule, which BAPCtools follows).
pub const NAMED_FOLDERS: &[&str] = &[
    "accepted",
    "wrong_answer",
    "time_limit_exceeded",
    "run_time_error",
];

/// Every folder whose name says what its submissions get, in some version of the format
/// (BAPCtools' `compile_error` too): what a folder of another name is told it may have meant.
const KNOWN_FOLDERS: &[&str] = &[
    "accepted",
    "partially_accepted",
    "rejected",
    "wrong_answer",
    "time_limit_exceeded",
    "run_time_error",
    "brute_force",
    "compile_error",
];

const SUBMISSION_KEYS: &[&str] = &[
    "language",
    "entrypoint",
    "authors",
    "model_solution",
    "permitted",
    "required",
    "score",
    "message",
    "use_for_time_limit",
];
const RULE_KEYS: &[&str] = &[
    "permitted",
    "required",
    "score",
    "message",
    "use_for_time_limit",
];

/// One top-level entry of `submissions.yaml`.
struct Entry {
    glob: PathGlob,
    language: Option<String>,
    entrypoint: Option<String>,
    /// The requirements over all cases (possibly empty) and those under case globs.
    all_cases: Rule,
    scoped: Vec<Rule>,
}

/// Reads the submissions of the package `package`.
/// `scoring`: the problem is a scoring one, where `accepted` demands the full score and
/// `partially_accepted` a partial one.
pub fn read(
    package: &Tree,
    version: FormatVersion,
    scoring: bool,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Vec<Submission>, Diagnostic> {
    read_including(package, version, scoring, &Includes::default(), warnings)
}

/// [`read`], each submission given the package's `includes` for its language before it is
/// built ([`Program::include`]).
pub fn read_including(
    package: &Tree,
    version: FormatVersion,
    scoring: bool,
    includes: &Includes,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Vec<Submission>, Diagnostic> {
    let root = package.join("submissions");
    let config = root.join("submissions.yaml");
    let entries = match (config.is_file()?, version.is_legacy()) {
        (true, false) => parse_config(&config, warnings)?,
        (true, true) => {
            warnings.push(Diagnostic::file(
                config.path(),
                "legacy packages take expectations from folder names; this file is not read",
            ));
            vec![]
        }
        (false, _) => vec![],
    };
    let mut submissions = vec![];
    // A file among the folders (`submissions.yaml`) lists no programs.
    for folder in programs::listing(&root)? {
        let folder_name = folder
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for path in programs::listing(&folder)? {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let id = format!("{folder_name}/{name}");
            let matching: Vec<&Entry> = entries.iter().filter(|e| e.glob.matches(&id)).collect();
            let language = matching.iter().rev().find_map(|e| e.language.as_deref());
            let entrypoint = matching.iter().rev().find_map(|e| e.entrypoint.as_deref());
            let program = Program::including(&path, language, entrypoint, includes)?;
            let tag = match expected_results::read(&program.files, warnings) {
                Ok(tag) => tag,
                Err(TagError::Unreadable(error)) => return Err(error),
                Err(TagError::Refused(why)) => {
                    warnings.push(Diagnostic {
                        message: format!(
                            "{}; this submission is left out, as DOMjudge refuses it",
                            why.message
                        ),
                        ..why
                    });
                    continue;
                }
            };
            let (expectation, compile_error) =
                match tag_counts(tag, &folder_name, &matching, &path, warnings) {
                    Some(tag) => from_tag(&tag),
                    None => (
                        expectation(&folder_name, &matching, version, scoring),
                        folder_compile_error(&folder_name),
                    ),
                };
            if expectation.is_none() && compile_error != CompileError::Required {
                warnings.push(Diagnostic::file(
                    path.path(),
                    format!(
                        "nothing says what this submission must get: `{folder_name}` is not a folder the format knows and no submissions.yaml glob matches it{}",
                        crate::suggest::did_you_mean(&folder_name, KNOWN_FOLDERS.iter().copied())
                    ),
                ));
            }
            submissions.push(Submission {
                id,
                folder: folder_name.clone(),
                program,
                expectation,
                compile_error,
            });
        }
    }
    Ok(submissions)
}

/// The tag, when it decides what the submission gets (see the module's notes); a tag that does
/// not is told in a warning.
fn tag_counts(
    tag: Option<Tag>,
    folder: &str,
    matching: &[&Entry],
    path: &TreePath,
    warnings: &mut Vec<Diagnostic>,
) -> Option<Tag> {
    let tag = tag?;
    let overruled = if NAMED_FOLDERS.contains(&folder) {
        format!("the {folder} folder decides")
    } else if let Some(entry) = matching
        .iter()
        .find(|e| has_requirements(&e.all_cases) || !e.scoped.is_empty())
    {
        format!(
            "submissions.yaml decides (`{}`, {})",
            entry.glob.pattern, entry.all_cases.origin
        )
    } else if tag.verdicts.is_empty() && !tag.compile_error {
        "it names no verdict grundy checks".to_string()
    } else {
        return Some(tag);
    };
    warnings.push(Diagnostic::file(
        path.path(),
        format!(
            "@EXPECTED_RESULTS@ at {} is ignored: {overruled}",
            tag.origin
        ),
    ));
    None
}

/// What a tag demands: every case accepted or of its verdicts, and the first-error verdict one
/// of them (so one of them is required when `CORRECT` is not among them).
fn from_tag(tag: &Tag) -> (Option<Expectation>, CompileError) {
    let compile_error = match (tag.compile_error, tag.verdicts.is_empty()) {
        (true, true) => return (None, CompileError::Required),
        (true, false) => CompileError::Allowed,
        (false, _) => CompileError::Forbidden,
    };
    let mut permitted = tag.verdicts.clone();
    permitted.insert(Verdict::AC);
    let rule = Rule {
        permitted: Some(permitted),
        required: (!tag.verdicts.contains(&Verdict::AC)).then(|| tag.verdicts.clone()),
        ..Rule::new(&format!("@EXPECTED_RESULTS@ at {}", tag.origin))
    };
    (Some(Expectation::Rules(vec![rule])), compile_error)
}

fn folder_compile_error(folder: &str) -> CompileError {
    if folder == "compile_error" {
        CompileError::Required
    } else if compile_error_allowed(folder) {
        CompileError::Allowed
    } else {
        CompileError::Forbidden
    }
}

/// What a scoring problem's folder demands of the score.
fn score_demand(folder: &str, scoring: bool) -> Option<ScoreDemand> {
    match folder {
        "accepted" if scoring => Some(ScoreDemand::Full),
        "partially_accepted" if scoring => Some(ScoreDemand::Partial),
        _ => None,
    }
}

fn expectation(
    folder: &str,
    matching: &[&Entry],
    version: FormatVersion,
    scoring: bool,
) -> Option<Expectation> {
    let demand = score_demand(folder, scoring);
    if version.is_legacy() {
        return match legacy_verdict(folder) {
            Some(verdict) => Some(Expectation::Final(verdict, demand)),
            None => default_rule(folder).map(|rule| Expectation::Rules(vec![rule])),
        };
    }
    // problemtools judges a 2023-07 package's `partially_accepted` folder as in legacy.
    let folder_rule = match (default_rule(folder), demand) {
        (Some(rule), demand) => Some(Rule { demand, ..rule }),
        (None, Some(demand)) => Some(Rule {
            demand: Some(demand),
            ..Rule::new(&format!("the {folder} folder"))
        }),
        (None, None) => None,
    };
    let mut rules: Vec<Rule> = folder_rule.into_iter().collect();
    for entry in matching {
        let overrides_default = entry.glob.pattern == folder && !rules.is_empty();
        if overrides_default {
            let given = &entry.all_cases;
            let default = &mut rules[0];
            default.permitted = given.permitted.clone().or(default.permitted.take());
            default.required = given.required.clone().or(default.required.take());
            default.score = given.score.or(default.score);
            default.message = given.message.clone().or(default.message.take());
            if given.use_for_time_limit != TimeLimitUse::Implied {
                default.use_for_time_limit = given.use_for_time_limit;
            }
            default.origin = given.origin.clone();
        } else if has_requirements(&entry.all_cases) {
            rules.push(entry.all_cases.clone());
        }
        rules.extend(entry.scoped.iter().cloned());
    }
    (!rules.is_empty()).then_some(Expectation::Rules(rules))
}

fn has_requirements(rule: &Rule) -> bool {
    rule.permitted.is_some()
        || rule.required.is_some()
        || rule.score.is_some()
        || rule.message.is_some()
        || rule.use_for_time_limit != TimeLimitUse::Implied
}

fn parse_config(file: &TreePath, warnings: &mut Vec<Diagnostic>) -> Result<Vec<Entry>, Diagnostic> {
    let Some(root) = yaml::read(file, yaml::SUBMISSIONS_YAML_BYTES)? else {
        return Ok(vec![]);
    };
    let file = file.path();
    let mut entries = vec![];
    for (pattern, node) in Fields::entries(file, &root, "")? {
        let glob = PathGlob::new(pattern).map_err(|e| Diagnostic::at(file, node, e.to_string()))?;
        let prefix = format!("{pattern}.");
        let case_globs: Vec<&str> = Fields::entries(file, node, &prefix)?
            .into_iter()
            .filter(|(key, value)| {
                !SUBMISSION_KEYS.contains(key) && matches!(value.value, Value::Map(_))
            })
            .map(|(key, _)| key)
            .collect();
        let mut known = SUBMISSION_KEYS.to_vec();
        known.extend(&case_globs);
        let fields = Fields::new(file, node, &prefix, &known, warnings)?;
        let mut scoped = vec![];
        for case_glob in case_globs {
            let inner_node = fields.get(case_glob).expect("listed");
            let inner = Fields::new(
                file,
                inner_node,
                &format!("{prefix}{case_glob}."),
                RULE_KEYS,
                warnings,
            )?;
            let glob = PathGlob::new(case_glob)
                .map_err(|e| Diagnostic::at(file, inner_node, e.to_string()))?;
            let at = fields::key_node(node, case_glob).unwrap_or(inner_node);
            scoped.push(Rule {
                cases: Some(glob),
                ..rule(&inner, at)?
            });
        }
        entries.push(Entry {
            glob,
            language: fields.string("language")?,
            entrypoint: entrypoint(&fields, node)?,
            all_cases: rule(&fields, fields::key_node(&root, pattern).unwrap_or(node))?,
            scoped,
        });
    }
    Ok(entries)
}

/// `entrypoint`: a file (or class) of the submission, named relative to it. A path leading
/// anywhere else (absolute, or climbing with `..`) is refused where it is written: only the
/// submission's own files are built and run.
fn entrypoint(fields: &Fields, map: &Node) -> Result<Option<String>, Diagnostic> {
    let Some(entry) = fields.string("entrypoint")? else {
        return Ok(None);
    };
    let path = Path::new(&entry);
    if path.is_absolute() || path.components().any(|c| c == Component::ParentDir) {
        let at = fields::key_node(map, "entrypoint").unwrap_or(map);
        return Err(Diagnostic::at(
            fields.file(),
            at,
            format!(
                "entrypoint `{entry}` leads outside the submission; name one of its files (or \
                 its class), relative to it"
            ),
        ));
    }
    Ok(Some(entry))
}

/// The requirements in one map; `at` (its key) locates them in messages.
fn rule(fields: &Fields, at: &Node) -> Result<Rule, Diagnostic> {
    let file_name = fields
        .file()
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut rule = Rule::new(&format!("{file_name}:{}:{}", at.line, at.column));
    rule.permitted = verdicts(fields, "permitted")?;
    rule.required = verdicts(fields, "required")?;
    rule.message = fields.string("message")?;
    if let Some(score) = fields.get("score") {
        let range = match &score.value {
            Value::Seq(items) => match &items[..] {
                [low, high] => low.as_f64().zip(high.as_f64()),
                _ => None,
            },
            _ => score.as_f64().map(|s| (s, s)),
        };
        rule.score = Some(range.filter(|(low, high)| low <= high).ok_or_else(|| {
            fields.error(
                score,
                "score",
                "a number or a list of two numbers [low, high]",
            )
        })?);
    }
    if let Some(use_node) = fields.get("use_for_time_limit") {
        rule.use_for_time_limit = match (&use_node.value, use_node.as_str()) {
            (Value::Bool(false), _) => TimeLimitUse::Never,
            (Value::Bool(true), _) => TimeLimitUse::Implied,
            (_, Some("lower")) => TimeLimitUse::Lower,
            (_, Some("upper")) => TimeLimitUse::Upper,
            _ => {
                return Err(fields.error(
                    use_node,
                    "use_for_time_limit",
                    "true, false, lower or upper",
                ))
            }
        };
    }
    Ok(rule)
}

fn verdicts(fields: &Fields, key: &str) -> Result<Option<Verdicts>, Diagnostic> {
    let Some(node) = fields.get(key) else {
        return Ok(None);
    };
    let words = fields::string_list(node)
        .ok_or_else(|| fields.error(node, key, "a list of verdicts (AC, WA, TLE, RTE)"))?;
    let set = words
        .iter()
        .map(|w| {
            w.parse::<Verdict>()
                .map_err(|e| Diagnostic::at(fields.file(), node, format!("{key}: {e}")))
        })
        .collect::<Result<BTreeSet<_>, _>>()?;
    Ok(Some(set))
}

#[cfg(test)]
#[path = "submissions_tests.rs"]
mod tests;
