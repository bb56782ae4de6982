//! Legacy `grading` in `problem.yaml`: `objective` (whether a higher or a lower score is
//! better), `show_test_data_groups` (how a judging system shows results; read for its type only)
//! and the keys from before the legacy format (`accept_score`, `reject_score`, `range`,
//! `on_reject`), which hold for every test data group over its own `testdata.yaml`, as
//! problemtools applies them. What the scores come to is the scoring's business
//! (`model::scoring`), not this reader's.

use super::fields::Fields;
use super::yaml::Diagnostic;

/// Legacy `problem.yaml` `grading`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProblemGrading {
    /// `objective: min`: a lower score is better, so the full score is the bottom of `data/`'s
    /// range.
    pub minimize: bool,
    /// Deprecated keys, each over every group's own.
    pub accept_score: Option<f64>,
    pub reject_score: Option<f64>,
    pub range: Option<(f64, f64)>,
    /// `on_reject: grade` (continue) or `first_error` (break); `worst_error` changes nothing.
    pub on_reject_continue: Option<bool>,
}

const KEYS: &[&str] = &[
    "objective",
    "show_test_data_groups",
    "accept_score",
    "reject_score",
    "range",
    "on_reject",
];

/// Reads `grading` of a legacy `problem.yaml` (`fields`); unknown keys and the deprecated ones
/// are warnings.
pub fn read(fields: &Fields, warnings: &mut Vec<Diagnostic>) -> Result<ProblemGrading, Diagnostic> {
    let Some(node) = fields.get("grading") else {
        return Ok(ProblemGrading::default());
    };
    let file = fields.file();
    let grading = Fields::new(file, node, "grading.", KEYS, warnings)?;
    let word = |key: &str, words: &[&str]| -> Result<Option<String>, Diagnostic> {
        match grading.string(key)? {
            Some(w) if !words.contains(&w.as_str()) => {
                let node = grading.get(key).expect("read");
                Err(grading.error(node, key, &words.join(" or ")))
            }
            w => Ok(w),
        }
    };
    // Packages write `yes` here, a boolean to the YAML 1.1 readers problemtools uses.
    if let Some(node) = grading.get("show_test_data_groups") {
        let word = node.scalar_text().map(|w| w.to_ascii_lowercase());
        let yaml11 = ["true", "false", "yes", "no", "on", "off"];
        if !word.is_some_and(|w| yaml11.contains(&w.as_str())) {
            let expected = "true or false (or yes, no, on, off)";
            return Err(grading.error(node, "show_test_data_groups", expected));
        }
    }
    let mut read = ProblemGrading {
        minimize: word("objective", &["max", "min"])?.as_deref() == Some("min"),
        on_reject_continue: word("on_reject", &["first_error", "worst_error", "grade"])?.and_then(
            |w| match w.as_str() {
                "grade" => Some(true),
                "first_error" => Some(false),
                _ => None,
            },
        ),
        accept_score: grading.number("accept_score", f64::NEG_INFINITY, false)?,
        reject_score: grading.number("reject_score", f64::NEG_INFINITY, false)?,
        range: None,
    };
    if let Some(node) = grading.get("range") {
        read.range = Some(super::settings::range(node).ok_or_else(|| {
            grading.error(node, "range", "two numbers, like `0 100` or `-inf +inf`")
        })?);
    }
    for key in ["accept_score", "reject_score", "range", "on_reject"] {
        if let Some(node) = grading.get(key) {
            warnings.push(Diagnostic::at(
                file,
                node,
                format!(
                    "grading.{key} in problem.yaml is deprecated; it holds for every test data \
                     group over its testdata.yaml (give it there instead)"
                ),
            ));
        }
    }
    Ok(read)
}
