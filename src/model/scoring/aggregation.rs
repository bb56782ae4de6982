//! 2025-09 scores (and 2023-07 packages using `max_score`/`score_aggregation`): `secret` and its
//! test data groups added up by `score_aggregation` (`pass-fail`, `sum`, `min`) under
//! `max_score`, a case's maximum its group's (`min`) or an equal share of it (`sum`),
//! `require_pass`. The scheme around it is [`super::Scheme`]'s.

use super::*;

impl Scheme {
    /// A 2025-09 group's score.
    pub(super) fn spec(
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

/// The 2025-09 tree: `secret`, and its test data groups (its folders with a settings file of
/// their own) with every case below them, or the cases below `secret` when it has none.
pub(super) fn spec_tree(data: &TestData, cases: &[String]) -> Result<Node, SchemeError> {
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
