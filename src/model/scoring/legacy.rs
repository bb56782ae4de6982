//! Legacy `grading` (problemtools' rules, and 2023-07 packages that keep its keys): the tree of
//! groups from `data/` down, each group's verdict and score from its children in order by the
//! default grader's flags, stopping at the first rejection unless `on_reject: continue`, within
//! its `range`. The scheme around it is [`super::Scheme`]'s.

use super::*;

impl Scheme {
    /// A legacy group's verdict and score.
    pub(super) fn legacy(
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
            scores.faults.push(OutOfRange {
                group: node.id.clone(),
                score,
                range: rule.range,
            });
        }
        scores.groups.push((node.id.clone(), score, Some(high)));
        Ok((verdict, score))
    }
}

/// The verdict and score the format's default grader gives a group's results with `flags`.
pub(super) fn default_grader(results: &[(Verdict, f64)], flags: &[String]) -> (Verdict, f64) {
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

/// The legacy tree: `data` and every folder below it, each case in its folder; `problem`'s
/// deprecated keys hold for every group over its own.
pub(super) fn legacy_tree(
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
