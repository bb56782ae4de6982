//! The scores of a scoring problem's submissions: the problem's groups as a tree with the rule
//! each adds its children up by ([`Scheme`], made once per package), and a submission's case
//! runs added up by it into its group scores and total ([`Scores`]).
//!
//! Two rule sets, chosen by the package's version (docs: reference/scoring.md):
//! - legacy `grading` (legacy packages, and 2023-07 packages whose groups use its keys, as
//!   problemtools reads them): from the root `data/` down, every case a verdict and a score
//!   (`accept_score`/`reject_score`, or the validator's `score.txt`), every group a verdict and a
//!   score from its children in order (stopping at the first rejection unless
//!   `on_reject: continue`) by the default grader's `grader_flags`, checked against its `range`;
//! - 2025-09 (and 2023-07 packages using `max_score`/`score_aggregation`): `secret` and its test
//!   data groups by `score_aggregation` (`pass-fail`, `sum`, `min`) under `max_score`, a case's
//!   maximum its group's (`min`) or an equal share of it (`sum`), `require_pass`.
//!
//! A score file the rules do not allow is the validator's fault: a judge error of that case.

use super::model::format_verdict;
use super::results::CaseRun;
use crate::checking::score::ValidatorScore;
use crate::judging::Verdict as RunVerdict;
use crate::package::expectations::Verdict;
use crate::package::problem_grading::ProblemGrading;
use crate::package::settings::{Grading, MaxScore, Settings};
use crate::package::testdata::TestData;
use crate::package::version::FormatVersion;

/// How a scoring problem's scores are made.
#[derive(Clone, Debug)]
pub struct Scheme {
    root: Node,
    /// The judged cases' ids, in judging order.
    cases: Vec<String>,
    /// Legacy rules: whether the validator may, or must, write `score.txt`.
    custom_score: CustomScore,
    /// Legacy `objective: min`: a lower score is better.
    minimize: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CustomScore {
    Forbidden,
    Allowed,
    Required,
}

#[derive(Clone, Debug)]
struct Node {
    /// The group's path below `data/` (`data` for the root).
    id: String,
    rule: Rule,
    children: Vec<Child>,
}

#[derive(Clone, Debug)]
enum Child {
    /// A case, by its index in the problem's judged cases.
    Case(usize),
    Group(Node),
}

#[derive(Clone, Debug)]
enum Rule {
    Legacy(Legacy),
    Spec(Spec),
}

#[derive(Clone, Debug)]
struct Legacy {
    on_reject_continue: bool,
    accept: f64,
    reject: f64,
    range: (f64, f64),
    flags: Vec<String>,
}

#[derive(Clone, Debug)]
struct Spec {
    aggregation: Aggregation,
    /// `None`: unbounded.
    max: Option<f64>,
    require_pass: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Aggregation {
    PassFail,
    Sum,
    Min,
}

/// Why a package's scores cannot be computed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SchemeError {
    /// The package is wrong.
    #[error("{0}")]
    Invalid(String),
    /// The package asks for what grundy does not do.
    #[error("{0}")]
    Unsupported(String),
}

/// A submission's scores.
#[derive(Clone, Debug, PartialEq)]
pub struct Scores {
    pub total: f64,
    /// The lowest and highest score the problem gives.
    pub range: (f64, f64),
    /// Legacy `objective: min`: the lowest score is the full one, not the highest.
    pub minimize: bool,
    /// Legacy rules: the verdict the grading gave the submission (the root group's).
    pub verdict: Option<Verdict>,
    /// Each group scored, in judging order: its id, score and maximum (`None`: unbounded).
    pub groups: Vec<(String, f64, Option<f64>)>,
    /// Groups whose score is outside their `range` (legacy): the package is wrong.
    pub faults: Vec<String>,
}

/// Why a submission's scores cannot be computed.
#[derive(Clone, Debug, PartialEq)]
pub enum NoScore {
    /// A case was not judged (judging stopped, or the host failed).
    Unjudged,
    /// A case's judge error: a score file against the rules, or the judge itself failed.
    JudgeError { case: usize, why: String },
}

impl Scheme {
    /// The scheme of a package in `version` with `data`, whose judged cases (in judging order)
    /// have the ids `cases`. `legacy_custom_score`: legacy `validation: custom score`;
    /// `problem`: legacy `grading` in `problem.yaml`.
    pub fn new(
        version: FormatVersion,
        data: &TestData,
        cases: &[String],
        legacy_custom_score: bool,
        problem: &ProblemGrading,
    ) -> Result<Scheme, SchemeError> {
        let mut settings =
            std::iter::once(&data.root).chain(data.groups.iter().map(|g| &g.settings));
        if let Some(why) = settings.find_map(|s| s.grading.unsupported.as_ref()) {
            return Err(SchemeError::Unsupported(format!(
                "{why}; the scores are not checked"
            )));
        }
        let legacy = match version {
            FormatVersion::Legacy => true,
            FormatVersion::V2023_07 => {
                let new_keys = |g: &Grading| g.max_score.is_some() || g.score_aggregation.is_some();
                let groups = || data.groups.iter().map(|g| &g.settings.grading);
                !groups().any(new_keys)
            }
            FormatVersion::V2025_09 => false,
        };
        if legacy {
            let custom_score = match version {
                FormatVersion::Legacy if legacy_custom_score => CustomScore::Required,
                FormatVersion::Legacy => CustomScore::Forbidden,
                _ => CustomScore::Allowed,
            };
            let root = legacy_tree(data, cases, problem)?;
            let cases = cases.to_vec();
            return Ok(Scheme {
                root,
                cases,
                custom_score,
                minimize: problem.minimize,
            });
        }
        Ok(Scheme {
            root: spec_tree(data, cases)?,
            cases: cases.to_vec(),
            custom_score: CustomScore::Allowed,
            minimize: false,
        })
    }

    /// The scores of a submission with these case runs (in judging order).
    pub fn score(&self, runs: &[Option<CaseRun>]) -> Result<Scores, NoScore> {
        let mut scores = Scores {
            total: 0.0,
            range: (0.0, 0.0),
            minimize: self.minimize,
            verdict: None,
            groups: vec![],
            faults: vec![],
        };
        match &self.root.rule {
            Rule::Legacy(rule) => {
                let graded = self.legacy(&self.root, runs, &mut scores)?;
                scores.total = graded.1;
                scores.verdict = Some(graded.0);
                scores.range = rule.range;
            }
            Rule::Spec(rule) => {
                scores.total = self.spec(&self.root, runs, &mut scores)?;
                scores.range = (0.0, rule.max.unwrap_or(f64::INFINITY));
            }
        }
        Ok(scores)
    }

    /// A legacy group's verdict and score.
    fn legacy(
        &self,
        node: &Node,
        runs: &[Option<CaseRun>],
        scores: &mut Scores,
    ) -> Result<(Verdict, f64), NoScore> {
        let Rule::Legacy(rule) = &node.rule else {
            unreachable!("a legacy tree has legacy rules")
        };
        let mut results = vec![];
        for child in &node.children {
            let result = match child {
                Child::Group(group) => self.legacy(group, runs, scores)?,
                Child::Case(c) => {
                    let (verdict, run) = judged(runs, *c)?;
                    let score = match (verdict, run.score, self.custom_score) {
                        (Verdict::AC, Some(ValidatorScore::Score(s)), CustomScore::Allowed)
                        | (Verdict::AC, Some(ValidatorScore::Score(s)), CustomScore::Required) => s,
                        (Verdict::AC, None, CustomScore::Required) => {
                            return Err(judge_error(*c, "the output validator wrote no score.txt, which `validation: custom score` demands"));
                        }
                        (Verdict::AC, Some(ValidatorScore::Multiplier(_)), _) => {
                            return Err(judge_error(*c, "the output validator wrote score_multiplier.txt, which this format version does not know"));
                        }
                        (Verdict::AC, Some(_), CustomScore::Forbidden) => {
                            return Err(judge_error(*c, "the output validator wrote score.txt, but problem.yaml does not say `validation: custom score`"));
                        }
                        (Verdict::AC, None, _) => rule.accept,
                        _ => rule.reject,
                    };
                    (verdict, score)
                }
            };
            results.push(result);
            if result.0 != Verdict::AC && !rule.on_reject_continue {
                break;
            }
        }
        let (verdict, score) = default_grader(&results, &rule.flags);
        let (low, high) = rule.range;
        if !(low..=high).contains(&score) {
            scores.faults.push(format!(
                "group {} got score {score}, outside its range [{low}, {high}]",
                node.id
            ));
        }
        scores.groups.push((node.id.clone(), score, Some(high)));
        Ok((verdict, score))
    }
}

/// The verdict and score the format's default grader gives a group's results with `flags`.
fn default_grader(results: &[(Verdict, f64)], flags: &[String]) -> (Verdict, f64) {
    let has = |flag: &str| flags.iter().any(|f| f == flag);
    let mut results = results;
    if has("ignore_sample") && (1..=2).contains(&results.len()) {
        results = &results[results.len() - 1..];
    }
    if results.is_empty() {
        return (Verdict::AC, 0.0);
    }
    let scores = results.iter().map(|r| r.1);
    // The last of these flags given wins, as with the grader's own reading of its arguments.
    let score_flag = flags
        .iter()
        .rev()
        .find(|f| ["sum", "avg", "max", "min"].contains(&f.as_str()));
    let score = match score_flag.map(String::as_str) {
        Some("avg") => scores.sum::<f64>() / results.len() as f64,
        Some("max") => scores.fold(f64::NEG_INFINITY, f64::max),
        Some("min") => scores.fold(f64::INFINITY, f64::min),
        _ => scores.sum(),
    };
    let verdicts = results.iter().map(|r| r.0);
    let verdict_flag = flags.iter().rev().find(|f| {
        ["worst_error", "no_errors", "first_error", "always_accept"].contains(&f.as_str())
    });
    let verdict = if has("accept_if_any_accepted") && verdicts.clone().any(|v| v == Verdict::AC) {
        Verdict::AC
    } else {
        match verdict_flag.map(String::as_str) {
            Some("first_error") => verdicts
                .clone()
                .find(|v| *v != Verdict::AC)
                .unwrap_or(Verdict::AC),
            Some("always_accept") => Verdict::AC,
            // The worst: a run-time error before a timeout before a wrong answer.
            _ => verdicts
                .clone()
                .min_by_key(|v| severity(*v))
                .unwrap_or(Verdict::AC),
        }
    };
    (verdict, score)
}

fn severity(verdict: Verdict) -> u8 {
    match verdict {
        Verdict::RTE => 0,
        Verdict::TLE => 1,
        Verdict::WA => 2,
        Verdict::AC => 3,
    }
}

/// A case's verdict in the format's words and its run, or why it has none.
fn judged(runs: &[Option<CaseRun>], c: usize) -> Result<(Verdict, &CaseRun), NoScore> {
    let run = runs
        .get(c)
        .and_then(Option::as_ref)
        .ok_or(NoScore::Unjudged)?;
    match format_verdict(run.verdict) {
        Some(verdict) => Ok((verdict, run)),
        None if run.verdict == RunVerdict::JE => Err(judge_error(
            c,
            run.message.as_deref().unwrap_or("judge error"),
        )),
        None => Err(NoScore::Unjudged),
    }
}

fn judge_error(case: usize, why: &str) -> NoScore {
    NoScore::JudgeError {
        case,
        why: why.to_string(),
    }
}

impl Scheme {
    /// A 2025-09 group's score.
    fn spec(
        &self,
        node: &Node,
        runs: &[Option<CaseRun>],
        scores: &mut Scores,
    ) -> Result<f64, NoScore> {
        let Rule::Spec(rule) = &node.rule else {
            unreachable!("a 2025-09 tree has 2025-09 rules")
        };
        let cases: Vec<usize> = node
            .children
            .iter()
            .filter_map(|c| match c {
                Child::Case(c) => Some(*c),
                Child::Group(_) => None,
            })
            .collect();
        let mut parts = vec![];
        let mut all_accepted = true;
        for child in &node.children {
            match child {
                Child::Group(group) => {
                    parts.push(self.spec(group, runs, scores)?);
                    all_accepted &= group_accepted(group, runs)?;
                }
                Child::Case(c) => {
                    let (verdict, run) = judged(runs, *c)?;
                    all_accepted &= verdict == Verdict::AC;
                    let case_max = match rule.aggregation {
                        Aggregation::PassFail => {
                            if run.score.is_some() {
                                return Err(judge_error(*c, "the output validator wrote a score file for a case of a pass-fail group"));
                            }
                            continue;
                        }
                        Aggregation::Min => rule.max,
                        Aggregation::Sum => rule.max.map(|m| m / cases.len() as f64),
                    };
                    parts.push(case_score(*c, verdict, run.score, case_max)?);
                }
            }
        }
        let mut score = match rule.aggregation {
            Aggregation::PassFail if all_accepted => rule.max.unwrap_or(0.0),
            Aggregation::PassFail => 0.0,
            Aggregation::Sum => parts.iter().sum(),
            Aggregation::Min if parts.is_empty() => 0.0,
            Aggregation::Min => parts.iter().copied().fold(f64::INFINITY, f64::min),
        };
        for required in &rule.require_pass {
            if !cases_accepted(runs, &self.cases, required)? {
                score = 0.0;
            }
        }
        scores.groups.push((node.id.clone(), score, rule.max));
        Ok(score)
    }
}

/// The score of an accepted or failed case whose maximum is `max` (`None`: unbounded).
fn case_score(
    c: usize,
    verdict: Verdict,
    file: Option<ValidatorScore>,
    max: Option<f64>,
) -> Result<f64, NoScore> {
    if verdict != Verdict::AC {
        return Ok(0.0);
    }
    match (file, max) {
        (None, Some(max)) => Ok(max),
        (None, None) => Err(judge_error(
            c,
            "the output validator wrote no score.txt for a case of unbounded score",
        )),
        (Some(ValidatorScore::Score(s)), Some(max)) if s > max * (1.0 + 1e-9) + 1e-9 => {
            Err(judge_error(
                c,
                &format!(
                    "the output validator's score.txt gives {s}, over the case's maximum of {max}"
                ),
            ))
        }
        (Some(ValidatorScore::Score(s)), _) => Ok(s),
        (Some(ValidatorScore::Multiplier(m)), Some(max)) if m <= 1.0 => Ok(m * max),
        (Some(ValidatorScore::Multiplier(m)), Some(_)) => Err(judge_error(
            c,
            &format!("the output validator's score_multiplier.txt gives {m}, over 1"),
        )),
        (Some(ValidatorScore::Multiplier(_)), None) => Err(judge_error(
            c,
            "the output validator wrote score_multiplier.txt for a case of unbounded score",
        )),
    }
}

/// Whether every case of a group was accepted.
fn group_accepted(node: &Node, runs: &[Option<CaseRun>]) -> Result<bool, NoScore> {
    let mut accepted = true;
    for child in &node.children {
        accepted &= match child {
            Child::Group(group) => group_accepted(group, runs)?,
            Child::Case(c) => judged(runs, *c)?.0 == Verdict::AC,
        };
    }
    Ok(accepted)
}

/// Whether every case in the group `id` (`sample`, `secret/group1`) was accepted.
fn cases_accepted(runs: &[Option<CaseRun>], ids: &[String], id: &str) -> Result<bool, NoScore> {
    let prefix = format!("{id}/");
    let mut accepted = true;
    for (c, case) in ids.iter().enumerate() {
        if case.starts_with(&prefix) {
            accepted &= judged(runs, c)?.0 == Verdict::AC;
        }
    }
    Ok(accepted)
}

/// The group holding a case (`secret/group1` of `secret/group1/03`).
fn group_of(case: &str) -> &str {
    case.rsplit_once('/').map_or("", |(group, _)| group)
}

fn settings_of<'a>(data: &'a TestData, id: &str) -> &'a Settings {
    data.groups
        .iter()
        .find(|g| g.id == id)
        .map_or(&data.root, |g| &g.settings)
}

/// The legacy tree: `data` and every folder below it, each case in its folder; `problem`'s
/// deprecated keys hold for every group over its own.
fn legacy_tree(
    data: &TestData,
    cases: &[String],
    problem: &ProblemGrading,
) -> Result<Node, SchemeError> {
    let rule = |id: &str| -> Result<Rule, SchemeError> {
        let grading = &settings_of(data, id).grading;
        if grading.custom_grader {
            return Err(SchemeError::Unsupported(format!(
                "`grading: custom` in the settings of {id} asks for a custom grader (graders/), \
                 which grundy does not run; the scores are not checked"
            )));
        }
        Ok(Rule::Legacy(Legacy {
            on_reject_continue: problem
                .on_reject_continue
                .unwrap_or(grading.on_reject_continue),
            accept: problem.accept_score.or(grading.accept_score).unwrap_or(1.0),
            reject: problem.reject_score.or(grading.reject_score).unwrap_or(0.0),
            range: (problem.range.or(grading.range)).unwrap_or((f64::NEG_INFINITY, f64::INFINITY)),
            flags: grading.grader_flags.clone(),
        }))
    };
    let mut root = Node {
        id: "data".into(),
        rule: rule("data")?,
        children: vec![],
    };
    for (c, case) in cases.iter().enumerate() {
        let mut node = &mut root;
        let mut id = String::new();
        for part in group_of(case).split('/').filter(|p| !p.is_empty()) {
            if !id.is_empty() {
                id.push('/');
            }
            id.push_str(part);
            let found = node
                .children
                .iter()
                .position(|child| matches!(child, Child::Group(g) if g.id == id));
            let at = match found {
                Some(at) => at,
                None => {
                    node.children.push(Child::Group(Node {
                        id: id.clone(),
                        rule: rule(&id)?,
                        children: vec![],
                    }));
                    node.children.len() - 1
                }
            };
            let Child::Group(next) = &mut node.children[at] else {
                unreachable!("found or pushed a group")
            };
            node = next;
        }
        node.children.push(Child::Case(c));
    }
    Ok(root)
}

/// The 2025-09 tree: `secret`, and its test data groups (its folders with a settings file of
/// their own) with every case below them, or the cases below `secret` when it has none.
fn spec_tree(data: &TestData, cases: &[String]) -> Result<Node, SchemeError> {
    let invalid = |why: String| Err(SchemeError::Invalid(why));
    let rule = |id: &str, secret: bool| -> Result<Spec, SchemeError> {
        let grading = &settings_of(data, id).grading;
        let aggregation = match grading.score_aggregation.as_deref() {
            Some("sum") => Aggregation::Sum,
            Some("min") => Aggregation::Min,
            Some(_) => Aggregation::PassFail,
            None if secret => Aggregation::Sum,
            None => Aggregation::PassFail,
        };
        let max = match grading.max_score {
            Some(MaxScore::Points(points)) => Some(points),
            Some(MaxScore::Unbounded) => None,
            None if secret => Some(100.0),
            None => None,
        };
        if aggregation == Aggregation::PassFail && max.is_none() {
            return Err(SchemeError::Invalid(format!(
                "{id}: a pass-fail group needs a bounded max_score"
            )));
        }
        Ok(Spec {
            aggregation,
            max,
            require_pass: grading.require_pass.clone(),
        })
    };
    let secret = rule("secret", true)?;
    let groups: Vec<&str> = data
        .groups
        .iter()
        .filter(|g| g.configured && group_of(&g.id) == "secret")
        .map(|g| g.id.as_str())
        .collect();
    let under = |id: &str, c: &String| c.starts_with(&format!("{id}/"));
    let mut children = vec![];
    if groups.is_empty() {
        children.extend(
            (0..cases.len())
                .filter(|c| under("secret", &cases[*c]))
                .map(Child::Case),
        );
    } else {
        if let Some(stray) = cases
            .iter()
            .find(|c| under("secret", c) && !groups.iter().any(|g| under(g, c)))
        {
            return invalid(format!(
                "secret has test data groups, so the case {stray} must be in one of them"
            ));
        }
        for id in groups {
            let spec = rule(id, false)?;
            if spec.max.is_none() && secret.max.is_some() {
                return invalid(format!(
                    "{id}: max_score is unbounded (the default), but secret's is not; give the \
                     group a max_score"
                ));
            }
            children.push(Child::Group(Node {
                id: id.to_string(),
                rule: Rule::Spec(spec),
                children: (0..cases.len())
                    .filter(|c| under(id, &cases[*c]))
                    .map(Child::Case)
                    .collect(),
            }));
        }
    }
    Ok(Node {
        id: "secret".into(),
        rule: Rule::Spec(secret),
        children,
    })
}

#[cfg(test)]
#[path = "scoring_tests.rs"]
mod tests;
