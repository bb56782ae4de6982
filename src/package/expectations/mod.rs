//! What verdicts a submission may get, and whether it got one of them.
//!
//! Two shapes, one per format generation:
//! - Legacy (problemtools): the submission's verdict is the first non-AC verdict in judging order
//!   (AC if none), and its folder names the verdict it must be: `accepted` (and
//!   `partially_accepted`) AC, `wrong_answer` WA, `time_limit_exceeded` TLE, `run_time_error` RTE.
//! - 2023-07 and 2025-09: rules, each over all cases or the cases a glob selects (a case matches
//!   when its id or one of its groups does; `*` stays within one name): every judged case's
//!   verdict must be `permitted`, at least one must be `required`, a `score` range and a judge
//!   `message` may be demanded. The folder defaults are rules too.
//!
//! In both, the verdict reported for the submission is the first-error one. A runner that stops
//! at the first failure leaves later cases unjudged (`None`); `permitted` only looks at judged
//! cases, and a `required` verdict not seen while cases in its scope went unjudged says so.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use globset::{GlobBuilder, GlobMatcher};

pub mod check;

/// A case verdict in the format's vocabulary.
#[allow(clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    AC,
    WA,
    TLE,
    RTE,
}

/// A word of `submissions.yaml` that names no verdict of the format.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a verdict (AC, WA, TLE or RTE)")]
pub struct NotAVerdict(String);

impl FromStr for Verdict {
    type Err = NotAVerdict;

    fn from_str(text: &str) -> Result<Verdict, NotAVerdict> {
        match text {
            "AC" => Ok(Verdict::AC),
            "WA" => Ok(Verdict::WA),
            "TLE" => Ok(Verdict::TLE),
            "RTE" => Ok(Verdict::RTE),
            _ => Err(NotAVerdict(text.to_string())),
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A set of verdicts, shown as `AC, WA`.
pub type Verdicts = BTreeSet<Verdict>;

fn show(verdicts: &Verdicts) -> String {
    verdicts
        .iter()
        .map(Verdict::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// `use_for_time_limit` of a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeLimitUse {
    /// `false`: never.
    Never,
    /// `true` or absent: as the rule's verdicts imply.
    Implied,
    Lower,
    Upper,
}

/// A glob of `submissions.yaml` over case ids (relative to `data/`) or submissions (relative to
/// `submissions/`), matching a path or any folder holding it.
#[derive(Clone, Debug)]
pub struct PathGlob {
    pub pattern: String,
    matcher: GlobMatcher,
}

/// `*` does not cross `/`, and the alternatives of a `{...}` may be spaced (`{ 4 }` is `{4}`), as
/// BAPCtools reads them.
fn glob(pattern: &str) -> Result<GlobMatcher, BadGlob> {
    let mut unspaced = String::with_capacity(pattern.len());
    let mut depth = 0usize;
    for c in pattern.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            c if c.is_whitespace() && depth > 0 => continue,
            _ => {}
        }
        unspaced.push(c);
    }
    GlobBuilder::new(&unspaced)
        .literal_separator(true)
        .build()
        .map(|glob| glob.compile_matcher())
        .map_err(|error| BadGlob {
            pattern: pattern.to_string(),
            error,
        })
}

/// A pattern of `submissions.yaml` that is no glob.
#[derive(Debug, thiserror::Error)]
#[error("`{pattern}` is not a valid glob: {error}")]
pub struct BadGlob {
    pattern: String,
    error: globset::Error,
}

impl PathGlob {
    pub fn new(pattern: &str) -> Result<PathGlob, BadGlob> {
        let matcher = glob(pattern)?;
        Ok(PathGlob {
            pattern: pattern.to_string(),
            matcher,
        })
    }

    /// Whether `id` or one of the folders holding it matches.
    pub fn matches(&self, id: &str) -> bool {
        id.match_indices('/')
            .map(|(i, _)| &id[..i])
            .chain([id])
            .any(|prefix| self.matcher.is_match(prefix))
    }
}

/// One requirement.
#[derive(Clone, Debug)]
pub struct Rule {
    /// `None`: every case.
    pub cases: Option<PathGlob>,
    pub permitted: Option<Verdicts>,
    pub required: Option<Verdicts>,
    /// Inclusive range; a single score is a range of one.
    pub score: Option<(f64, f64)>,
    pub message: Option<String>,
    pub use_for_time_limit: TimeLimitUse,
    /// What a scoring problem's folder demands of the score.
    pub demand: Option<ScoreDemand>,
    /// Where the rule comes from, for messages: `submissions.yaml:3:1` or `the wrong_answer folder`.
    pub origin: String,
}

impl Rule {
    /// A rule over every case with nothing demanded yet.
    pub fn new(origin: &str) -> Rule {
        Rule {
            cases: None,
            permitted: None,
            required: None,
            score: None,
            message: None,
            use_for_time_limit: TimeLimitUse::Implied,
            demand: None,
            origin: origin.to_string(),
        }
    }
}

/// The rules of the 2023-07/2025-09 default folders.
pub fn default_rule(folder: &str) -> Option<Rule> {
    use Verdict::*;
    let set = |v: &[Verdict]| Some(v.iter().copied().collect::<Verdicts>());
    let (permitted, required) = match folder {
        "accepted" => (set(&[AC]), None),
        "rejected" => (None, set(&[RTE, TLE, WA])),
        "wrong_answer" => (set(&[AC, WA]), set(&[WA])),
        "time_limit_exceeded" => (set(&[AC, TLE]), set(&[TLE])),
        "run_time_error" => (set(&[AC, RTE]), set(&[RTE])),
        "brute_force" => (set(&[AC, RTE, TLE]), set(&[RTE, TLE])),
        _ => return None,
    };
    Some(Rule {
        permitted,
        required,
        ..Rule::new(&format!("the {folder} folder"))
    })
}

/// The first-error verdict a legacy folder demands (`partially_accepted` is AC with a score
/// below the best, which only a scoring run can tell).
pub fn legacy_verdict(folder: &str) -> Option<Verdict> {
    match folder {
        "accepted" | "partially_accepted" => Some(Verdict::AC),
        "wrong_answer" => Some(Verdict::WA),
        "time_limit_exceeded" => Some(Verdict::TLE),
        "run_time_error" => Some(Verdict::RTE),
        _ => None,
    }
}

/// Whether a submission in `folder` may fail to compile: BAPCtools' `compile_error` folder
/// expects it, and `rejected` accepts any rejection. Everywhere else a compile error is wrong.
pub fn compile_error_allowed(folder: &str) -> bool {
    matches!(folder, "compile_error" | "rejected")
}

/// What a submission of a scoring problem must score, by its folder: `accepted` the full score,
/// `partially_accepted` a score strictly between the worst and the full one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreDemand {
    Full,
    Partial,
}

/// What a submission must get.
#[derive(Clone, Debug)]
pub enum Expectation {
    /// Legacy: the first-error verdict (for a scoring problem, the verdict its grading gives),
    /// and what it must score.
    Final(Verdict, Option<ScoreDemand>),
    Rules(Vec<Rule>),
}

/// Whether a submission bounds the time limit from below (its runs must fit) or above (its runs
/// must exceed it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeLimitRole {
    pub lower: bool,
    pub upper: bool,
}

impl Expectation {
    /// The expectation with its score demands left out: what can still be checked of a
    /// problem whose scores cannot be computed (its package is then reported not verified, or
    /// invalid, saying why).
    pub fn without_scores(&self) -> Expectation {
        match self {
            Expectation::Final(verdict, _) => Expectation::Final(*verdict, None),
            Expectation::Rules(rules) => Expectation::Rules(
                rules
                    .iter()
                    .map(|rule| Rule {
                        score: None,
                        demand: None,
                        ..rule.clone()
                    })
                    .collect(),
            ),
        }
    }

    /// Whether the cases up to the first failure settle the expectation as far as the format's
    /// first-error verdict goes: no rule names some cases only or a score (those need every
    /// case). Judging may then stop at the first failure, as verifyproblem and `bt run` do.
    pub fn decided_by_first_failure(&self) -> bool {
        match self {
            Expectation::Final(_, demand) => demand.is_none(),
            Expectation::Rules(rules) => rules
                .iter()
                .all(|rule| rule.cases.is_none() && rule.score.is_none() && rule.demand.is_none()),
        }
    }

    /// How the submission bounds the time limit.
    pub fn time_limit_role(&self) -> TimeLimitRole {
        match self {
            Expectation::Final(v, _) => TimeLimitRole {
                lower: *v == Verdict::AC,
                upper: *v == Verdict::TLE,
            },
            // `use_for_time_limit: false` standing alone (no verdicts of its own) opts the
            // submission out as a whole, the folder's default rule included.
            Expectation::Rules(rules)
                if rules.iter().any(|r| {
                    r.use_for_time_limit == TimeLimitUse::Never
                        && r.permitted.is_none()
                        && r.required.is_none()
                }) =>
            {
                TimeLimitRole::default()
            }
            Expectation::Rules(rules) => {
                rules.iter().fold(TimeLimitRole::default(), |role, rule| {
                    let only_tle = rule
                        .required
                        .as_ref()
                        .is_some_and(|r| r.len() == 1 && r.contains(&Verdict::TLE));
                    let no_tle = rule
                        .permitted
                        .as_ref()
                        .is_some_and(|p| !p.contains(&Verdict::TLE));
                    let (lower, upper) = match rule.use_for_time_limit {
                        TimeLimitUse::Never => (false, false),
                        TimeLimitUse::Implied => (no_tle, only_tle),
                        TimeLimitUse::Lower => (true, only_tle),
                        TimeLimitUse::Upper => (no_tle, true),
                    };
                    TimeLimitRole {
                        lower: role.lower || lower,
                        upper: role.upper || upper,
                    }
                })
            }
        }
    }

    /// The verdicts a submission may end with (its first failing case's, or AC), the same way
    /// whatever the format version says it: a legacy folder's verdict, or what the rules over
    /// every case leave (each rule's required verdicts, else its permitted ones). Rules over some
    /// cases only narrow nothing here.
    pub fn final_verdicts(&self) -> Verdicts {
        match self {
            Expectation::Final(verdict, _) => Verdicts::from([*verdict]),
            Expectation::Rules(rules) => rules
                .iter()
                .filter(|rule| rule.cases.is_none())
                .filter_map(|rule| rule.required.as_ref().or(rule.permitted.as_ref()))
                .fold(
                    Verdicts::from([Verdict::AC, Verdict::WA, Verdict::TLE, Verdict::RTE]),
                    |left, allowed| left.intersection(allowed).copied().collect(),
                ),
        }
    }

    /// The expectation in a few words, for reports: `AC`, or `permitted AC, WA; required WA`
    /// with rules apart by ` | `.
    pub fn describe(&self) -> String {
        match self {
            Expectation::Final(v, None) => v.to_string(),
            Expectation::Final(v, Some(demand)) => format!("{v}; {}", demand.describe()),
            Expectation::Rules(rules) => rules
                .iter()
                .filter_map(|rule| {
                    let mut parts = vec![];
                    if let Some(p) = &rule.permitted {
                        parts.push(format!("permitted {}", show(p)));
                    }
                    if let Some(r) = &rule.required {
                        parts.push(format!("required {}", show(r)));
                    }
                    if let Some((low, high)) = rule.score {
                        parts.push(format!("score in [{low}, {high}]"));
                    }
                    if let Some(m) = &rule.message {
                        parts.push(format!("message {m:?}"));
                    }
                    if let Some(demand) = rule.demand {
                        parts.push(demand.describe().to_string());
                    }
                    let on = rule
                        .cases
                        .as_ref()
                        .map_or(String::new(), |g| format!("on {}: ", g.pattern));
                    (!parts.is_empty()).then(|| on + &parts.join("; "))
                })
                .collect::<Vec<_>>()
                .join(" | "),
        }
    }
}

impl ScoreDemand {
    pub fn describe(self) -> &'static str {
        match self {
            ScoreDemand::Full => "full score",
            ScoreDemand::Partial => "partial score",
        }
    }
}

#[cfg(test)]
mod tests;
