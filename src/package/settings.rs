//! Test-group and test-case settings: `testdata.yaml` (legacy) and `test_group.yaml` (2023-07,
//! 2025-09) in `data/` and its groups, and a case's own `<case>.yaml` (new versions), with the
//! inheritance each version defines.
//!
//! Legacy takes a group's settings whole from the nearest `testdata.yaml` at or above it. The new
//! versions inherit key by key (arguments, `full_feedback`), while the scoring keys belong to the
//! group that states them. Both spellings of the validator arguments are read in every version
//! (`*_flags`, a string, is legacy; `*_args`, a list, is new), with a warning when the package
//! uses the other version's name, because ignoring them would silently change the verdicts.

use std::collections::BTreeMap;

use super::constants::Constants;
use super::fields::{args_of, Fields};
use super::version::FormatVersion;
use super::yaml::{self, Diagnostic, Node, Value};
use crate::files::beneath::TreePath;

/// Arguments for input validators: the same for all, or per validator name (validators not named
/// get none).
#[derive(Clone, Debug, PartialEq)]
pub enum ValidatorArgs {
    All(Vec<String>),
    PerValidator(BTreeMap<String, Vec<String>>),
}

impl Default for ValidatorArgs {
    fn default() -> Self {
        ValidatorArgs::All(vec![])
    }
}

impl ValidatorArgs {
    /// The arguments for the validator called `name`.
    pub fn for_validator(&self, name: &str) -> &[String] {
        match self {
            ValidatorArgs::All(args) => args,
            ValidatorArgs::PerValidator(map) => map.get(name).map_or(&[], Vec::as_slice),
        }
    }
}

/// How a group's results are aggregated, as written; the runner decides what it supports.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Grading {
    /// Legacy `on_reject: continue` (the default, `break`, stops the group at its first failure).
    pub on_reject_continue: bool,
    /// Legacy `grading: custom`.
    pub custom_grader: bool,
    pub grader_flags: Vec<String>,
    pub accept_score: Option<f64>,
    pub reject_score: Option<f64>,
    /// Legacy `range`: lowest and highest score.
    pub range: Option<(f64, f64)>,
    /// New `max_score`; `None` when not given.
    pub max_score: Option<MaxScore>,
    /// New `score_aggregation`: `pass-fail`, `sum` or `min`.
    pub score_aggregation: Option<String>,
    pub require_pass: Vec<String>,
    /// A scoring key of this group that grundy does not apply (a static validator's score, the
    /// 2023-07 draft's `scoring:` map): where it is and what it asks, for the scores to be
    /// reported unchecked rather than wrong.
    pub unsupported: Option<String>,
    /// Whether a legacy grading key is in force (given here, or inherited in 2023-07): a
    /// 2023-07 package is then scored by the legacy rules, as problemtools scores it.
    pub legacy_keys: bool,
}

/// A group's `max_score`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MaxScore {
    Points(f64),
    Unbounded,
}

impl Grading {
    /// The legacy keys alone, the new ones back at their defaults: what a 2023-07 group inherits
    /// (problemtools inherits `testdata.yaml` key by key; the new keys belong to their group).
    fn legacy_part(&self) -> Grading {
        Grading {
            max_score: None,
            score_aggregation: None,
            require_pass: vec![],
            unsupported: None,
            ..self.clone()
        }
    }
}

/// The settings in force for a group or a case.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    /// Command-line arguments for the submission (new versions).
    pub args: Vec<String>,
    pub input_validator_args: ValidatorArgs,
    pub output_validator_args: Vec<String>,
    pub full_feedback: bool,
    pub hint: Option<String>,
    pub description: Option<String>,
    pub grading: Grading,
}

const LEGACY_GROUP_KEYS: &[&str] = &[
    "on_reject",
    "grading",
    "grader_flags",
    "input_validator_flags",
    "output_validator_flags",
    "accept_score",
    "reject_score",
    "range",
];

/// The legacy grading keys, which 2023-07 drafts (and problemtools reading them) still use.
const LEGACY_GRADING_KEYS: &[&str] = &[
    "on_reject",
    "grading",
    "grader_flags",
    "accept_score",
    "reject_score",
    "range",
];

const NEW_GROUP_KEYS: &[&str] = &[
    "max_score",
    "score_aggregation",
    "static_validation_score",
    "require_pass",
    "args",
    "input_validator_args",
    "static_validator_args",
    "output_validator_args",
    "input_visualizer_args",
    "output_visualizer_args",
    "full_feedback",
    "hint",
    "description",
    // 2023-07-draft
    "scoring",
    "static_validation",
];

const CASE_KEYS: &[&str] = &[
    "args",
    "input_validator_args",
    "output_validator_args",
    "input_visualizer_args",
    "output_visualizer_args",
    "full_feedback",
    "hint",
    "description",
];

/// The other version's name of a validator-argument key.
const RENAMED: &[(&str, &str)] = &[
    ("input_validator_flags", "input_validator_args"),
    ("output_validator_flags", "output_validator_args"),
];

impl Settings {
    /// The settings of the root `data/` group when it has no settings file.
    pub fn root() -> Settings {
        Settings::default()
    }

    /// The settings a child group starts from before its own file: legacy copies the parent's
    /// whole; new versions keep the inherited keys and drop the group-only scoring keys.
    pub fn inherited(&self, version: FormatVersion) -> Settings {
        let grading = match version {
            FormatVersion::Legacy => return self.clone(),
            FormatVersion::V2023_07 => self.grading.legacy_part(),
            FormatVersion::V2025_09 => Grading::default(),
        };
        Settings {
            grading,
            ..self.clone()
        }
    }

    /// Lays a group settings file over `self` (already [`Settings::inherited`]). In legacy the
    /// file replaces the inherited settings whole. The package's `constants` are substituted in
    /// its text first, as the format says of `test_group.yaml` (so `{{n}}` may stand in an
    /// argument, quoted or not), and the result is held to the same size cap.
    pub fn with_group_file(
        &self,
        file: &TreePath,
        version: FormatVersion,
        constants: &Constants,
        warnings: &mut Vec<Diagnostic>,
    ) -> Result<Settings, Diagnostic> {
        let base = if version.is_legacy() {
            Settings::default()
        } else {
            self.clone()
        };
        let cap = yaml::GROUP_YAML_BYTES;
        let text = yaml::read_text(file, cap)?;
        let text = match constants.substitute(text.as_bytes()) {
            Ok(None) => text,
            Ok(Some(bytes)) if bytes.len() as u64 <= cap => {
                String::from_utf8_lossy(&bytes).into_owned()
            }
            Ok(Some(bytes)) => {
                let when = " once the constants are substituted";
                return Err(yaml::too_large(file.path(), bytes.len() as u64, cap, when));
            }
            Err(too_large) => return Err(Diagnostic::file(file.path(), too_large.to_string())),
        };
        let Some(root) = yaml::parse(file.path(), &text)? else {
            return Ok(base);
        };
        let file = file.path();
        let mut known: Vec<&str> = match version {
            FormatVersion::Legacy => LEGACY_GROUP_KEYS.to_vec(),
            FormatVersion::V2023_07 => [NEW_GROUP_KEYS, LEGACY_GRADING_KEYS].concat(),
            FormatVersion::V2025_09 => NEW_GROUP_KEYS.to_vec(),
        };
        known.extend(other_names(version));
        let fields = Fields::new(file, &root, "", &known, warnings)?;
        let mut settings = base.with_arguments(&fields, version, warnings)?;
        settings.grading = grading(&fields, version, &base.grading)?;
        Ok(settings)
    }

    /// Lays a case's own `<case>.yaml` over its group's settings.
    pub fn with_case_file(
        &self,
        file: &TreePath,
        version: FormatVersion,
        warnings: &mut Vec<Diagnostic>,
    ) -> Result<Settings, Diagnostic> {
        let Some(root) = yaml::read(file, yaml::CASE_YAML_BYTES)? else {
            return Ok(self.clone());
        };
        let file = file.path();
        let mut known = CASE_KEYS.to_vec();
        known.extend(other_names(version));
        let fields = Fields::new(file, &root, "", &known, warnings)?;
        self.with_arguments(&fields, version, warnings)
    }

    fn with_arguments(
        &self,
        fields: &Fields,
        version: FormatVersion,
        warnings: &mut Vec<Diagnostic>,
    ) -> Result<Settings, Diagnostic> {
        let mut settings = self.clone();
        for (legacy, new) in RENAMED {
            let (ours, theirs) = if version.is_legacy() {
                (legacy, new)
            } else {
                (new, legacy)
            };
            if let Some(node) = fields.get(theirs) {
                let message = format!(
                    "`{theirs}` is how another format version names `{ours}`; read as `{ours}`"
                );
                warnings.push(Diagnostic::at(fields.file(), node, message));
            }
        }
        let pick = |legacy: &str, new: &str| {
            fields
                .get(new)
                .map(|n| (new.to_string(), n))
                .or_else(|| fields.get(legacy).map(|n| (legacy.to_string(), n)))
        };
        if let Some((key, node)) = pick("input_validator_flags", "input_validator_args") {
            settings.input_validator_args = validator_args(fields, &key, node)?;
        }
        if let Some((key, node)) = pick("output_validator_flags", "output_validator_args") {
            settings.output_validator_args =
                args_of(fields.file(), node)?.ok_or_else(|| fields.error(node, &key, ARGS))?;
        }
        if let Some(args) = fields.args("args")? {
            settings.args = args;
        }
        if let Some(full_feedback) = fields.boolean("full_feedback")? {
            settings.full_feedback = full_feedback;
        }
        if let Some(hint) = fields.string("hint")? {
            settings.hint = Some(hint);
        }
        if let Some(description) = fields.string("description")? {
            settings.description = Some(description);
        }
        Ok(settings)
    }
}

const ARGS: &str = "a list of arguments or a string of space-separated arguments";

fn other_names(version: FormatVersion) -> Vec<&'static str> {
    RENAMED
        .iter()
        .map(|(legacy, new)| if version.is_legacy() { *new } else { *legacy })
        .collect()
}

/// Input validator arguments: arguments for all validators, or a map from validator name to
/// arguments. Legacy also writes the map as `{name: <validator>, flags: <arguments>}`.
fn validator_args(fields: &Fields, key: &str, node: &Node) -> Result<ValidatorArgs, Diagnostic> {
    if let Some(args) = args_of(fields.file(), node)? {
        return Ok(ValidatorArgs::All(args));
    }
    let expected = "arguments, or a map from validator name to arguments";
    let entries = Fields::entries(fields.file(), node, &format!("{key}."))
        .map_err(|_| fields.error(node, key, expected))?;
    let keys: Vec<&str> = entries.iter().map(|(k, _)| *k).collect();
    if keys == ["name", "flags"] || keys == ["flags", "name"] {
        let get = |k: &str| {
            entries
                .iter()
                .find(|(name, _)| *name == k)
                .map(|(_, n)| *n)
                .expect("both keys are present")
        };
        let name = get("name")
            .scalar_text()
            .ok_or_else(|| fields.error(get("name"), key, expected))?;
        let flags = args_of(fields.file(), get("flags"))?
            .ok_or_else(|| fields.error(get("flags"), key, expected))?;
        return Ok(ValidatorArgs::PerValidator(BTreeMap::from([(name, flags)])));
    }
    entries
        .into_iter()
        .map(|(name, value)| {
            let args = args_of(fields.file(), value)?
                .ok_or_else(|| fields.error(value, &format!("{key}.{name}"), ARGS))?;
            Ok((name.to_string(), args))
        })
        .collect::<Result<_, _>>()
        .map(ValidatorArgs::PerValidator)
}

/// The grading keys of a group file over what the group inherits (`inherited`: nothing in legacy
/// and 2025-09, the legacy keys in 2023-07).
fn grading(
    fields: &Fields,
    version: FormatVersion,
    inherited: &Grading,
) -> Result<Grading, Diagnostic> {
    let mut grading = inherited.legacy_part();
    if version != FormatVersion::V2025_09 {
        if let Some(on) = switch(fields, "on_reject", "break", "continue")? {
            grading.on_reject_continue = on;
        }
        if let Some(on) = switch(fields, "grading", "default", "custom")? {
            grading.custom_grader = on;
        }
        if let Some(flags) = fields.args("grader_flags")? {
            grading.grader_flags = flags;
        }
        for (key, slot) in [
            ("accept_score", &mut grading.accept_score),
            ("reject_score", &mut grading.reject_score),
        ] {
            if let Some(score) = fields.number(key, f64::NEG_INFINITY, false)? {
                *slot = Some(score);
            }
        }
        if let Some(node) = fields.get("range") {
            grading.range = Some(range(node).ok_or_else(|| {
                fields.error(node, "range", "two numbers, like `0 100` or `-inf +inf`")
            })?);
        }
        grading.legacy_keys |= LEGACY_GRADING_KEYS.iter().any(|k| fields.get(k).is_some());
        if version.is_legacy() {
            return Ok(grading);
        }
    }
    if let Some(node) = fields.get("max_score") {
        grading.max_score = Some(match node.as_str() {
            Some("unbounded") => MaxScore::Unbounded,
            _ => MaxScore::Points(node.as_f64().filter(|v| *v >= 0.0).ok_or_else(|| {
                fields.error(node, "max_score", "a non-negative number or `unbounded`")
            })?),
        });
    }
    if let Some(aggregation) = fields.string("score_aggregation")? {
        if !["pass-fail", "sum", "min"].contains(&aggregation.as_str()) {
            return Err(fields.error(
                fields.get("score_aggregation").expect("read"),
                "score_aggregation",
                "pass-fail, sum or min",
            ));
        }
        grading.score_aggregation = Some(aggregation);
    }
    grading.require_pass = fields.strings("require_pass")?.unwrap_or_default();
    grading.unsupported = unsupported_scoring(fields);
    Ok(grading)
}

/// The first scoring key of a group file that grundy reads but does not apply, located, with
/// what it asks for.
fn unsupported_scoring(fields: &Fields) -> Option<String> {
    const KEYS: &[(&str, &str)] = &[
        (
            "static_validation_score",
            "a static validator's score, and grundy runs no static validator",
        ),
        (
            "static_validation",
            "a static validator's score (2023-07 draft), and grundy runs no static validator",
        ),
        (
            "scoring",
            "scores by the 2023-07 draft's `scoring:` map, which grundy does not read \
             (later drafts call its keys max_score and score_aggregation)",
        ),
    ];
    KEYS.iter().find_map(|(key, asks)| {
        let node = fields.get(key)?;
        // `static_validation: false` asks for none.
        if matches!(node.value, Value::Bool(false)) {
            return None;
        }
        let message = format!("`{key}` asks for {asks}");
        Some(Diagnostic::at(fields.file(), node, message).to_string())
    })
}

/// A key with two allowed words: `off` is false, `on` is true; `None` when absent.
fn switch(fields: &Fields, key: &str, off: &str, on: &str) -> Result<Option<bool>, Diagnostic> {
    match fields.string(key)? {
        None => Ok(None),
        Some(word) if word == off => Ok(Some(false)),
        Some(word) if word == on => Ok(Some(true)),
        Some(_) => {
            let node = fields.get(key).expect("read");
            Err(fields.error(node, key, &format!("{off} or {on}")))
        }
    }
}

/// `A B` as two numbers, where `inf`, `+inf` and `-inf` are allowed.
pub(super) fn range(node: &Node) -> Option<(f64, f64)> {
    let text = node.scalar_text()?;
    let numbers: Vec<f64> = text
        .split_whitespace()
        .map(|word| match word {
            "inf" | "+inf" => Some(f64::INFINITY),
            "-inf" => Some(f64::NEG_INFINITY),
            _ => word.parse().ok(),
        })
        .collect::<Option<_>>()?;
    match numbers[..] {
        [low, high] if low <= high => Some((low, high)),
        _ => None,
    }
}

#[cfg(test)]
#[path = "settings_tests.rs"]
mod tests;
