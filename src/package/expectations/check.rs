//! Checking a submission's outcomes against its expectation: the first-error verdict, a legacy
//! folder's verdict, each rule's `permitted`/`required` verdicts over its cases, its `score`
//! range and judge `message`, and a scoring folder's demand on the score. What an expectation
//! is, and where it comes from, is [`super`]'s.

use super::*;

/// A scoring problem's result for one submission, as its expectation looks at it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scored {
    pub total: f64,
    /// The lowest and the highest score.
    pub range: (f64, f64),
    /// Legacy `objective: min`: the lowest score is the full one, not the highest.
    pub minimize: bool,
    /// Legacy: the verdict the grading gave (which may accept what some case rejected).
    pub verdict: Option<Verdict>,
    /// Each group's id and score.
    pub groups: Vec<(String, f64)>,
}

impl Scored {
    /// What is wrong with this score for `demand`, in one line (`from`: whose demand).
    fn short_of(&self, demand: ScoreDemand, from: &str) -> Option<String> {
        let (low, high) = self.range;
        let total = self.total;
        // Measured from the worst score towards the full one, whichever way is better.
        let (worst, full, better) = if self.minimize {
            (high, low, "below")
        } else {
            (low, high, "above")
        };
        let (towards, beyond) = (total - worst, full - total);
        let (towards, beyond) = if self.minimize {
            (-towards, -beyond)
        } else {
            (towards, beyond)
        };
        match demand {
            ScoreDemand::Full if full.is_finite() && !close(total, full) => Some(format!(
                "expected the full score {full}, got {total} ({from})"
            )),
            ScoreDemand::Partial if towards <= 0.0 || close(total, worst) => Some(format!(
                "expected a partial score ({better} {worst}), got {total} ({from})"
            )),
            ScoreDemand::Partial if beyond <= 0.0 || close(total, full) => Some(format!(
                "expected a partial score (short of the full {full}), got {total} ({from})"
            )),
            _ => None,
        }
    }
}

/// Scores equal up to rounding (they are sums of decimal fractions).
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1.0)
}

/// One judged (or unjudged) case of a submission, in judging order.
#[derive(Clone, Copy, Debug)]
pub struct Outcome<'a> {
    pub case: &'a str,
    /// `None` when the case was not judged (judging stopped earlier).
    pub verdict: Option<Verdict>,
    /// The output validator's judge message, if any.
    pub message: Option<&'a str>,
}

/// The result of checking a submission against its expectation.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// The submission's verdict: its first non-AC verdict, AC if none.
    pub verdict: Verdict,
    /// What was not as expected, in one line; `None` when the result is allowed.
    pub problem: Option<String>,
}

impl Check {
    pub fn ok(&self) -> bool {
        self.problem.is_none()
    }
}

impl Expectation {
    /// Checks a submission's case outcomes (in judging order) and its scores, when it has them.
    pub fn check(&self, outcomes: &[Outcome], scored: Option<&Scored>) -> Check {
        let first_error = outcomes
            .iter()
            .find(|o| o.verdict.is_some_and(|v| v != Verdict::AC));
        let verdict = scored
            .and_then(|s| s.verdict)
            .or(first_error.and_then(|o| o.verdict))
            .unwrap_or(Verdict::AC);
        let problem = match self {
            Expectation::Final(expected, demand) if verdict == *expected => demand
                .zip(scored)
                .and_then(|(demand, scored)| scored.short_of(demand, "its folder's demand")),
            Expectation::Final(expected, _) => Some(match first_error {
                Some(o) if scored.is_some_and(|s| s.verdict.is_some()) => format!(
                    "expected {expected}, but the grading gave {verdict} (the first case that \
                     failed: {})",
                    o.case
                ),
                Some(o) => format!(
                    "expected {expected}, got {verdict} on {} (the first case that failed)",
                    o.case
                ),
                None => format!("expected {expected}, but every judged case was accepted"),
            }),
            Expectation::Rules(rules) => {
                rules.iter().find_map(|rule| broken(rule, outcomes, scored))
            }
        };
        Check { verdict, problem }
    }
}

/// The first way `outcomes` (and `scored`) break `rule`, in one line.
fn broken(rule: &Rule, outcomes: &[Outcome], scored: Option<&Scored>) -> Option<String> {
    let scope: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| rule.cases.as_ref().is_none_or(|g| g.matches(o.case)))
        .collect();
    let from = &rule.origin;
    let place = rule
        .cases
        .as_ref()
        .map_or(String::new(), |g| format!(" on {}", g.pattern));
    if rule.cases.is_some()
        && scope.is_empty()
        && (rule.permitted.is_some() || rule.required.is_some() || rule.message.is_some())
    {
        return Some(format!(
            "no case matches `{}` ({from})",
            rule.cases.as_ref().map_or("", |g| &g.pattern)
        ));
    }
    if let Some(permitted) = &rule.permitted {
        if let Some(o) = scope
            .iter()
            .find(|o| o.verdict.is_some_and(|v| !permitted.contains(&v)))
        {
            let v = o.verdict.expect("judged");
            return Some(format!(
                "{} got {v}, but only {} is permitted{place} ({from})",
                o.case,
                show(permitted)
            ));
        }
    }
    if let Some(required) = &rule.required {
        if !scope
            .iter()
            .any(|o| o.verdict.is_some_and(|v| required.contains(&v)))
        {
            let unjudged = scope.iter().filter(|o| o.verdict.is_none()).count();
            let judged = scope.len() - unjudged;
            let tail = if unjudged > 0 {
                format!(", and {unjudged} were not judged")
            } else {
                String::new()
            };
            return Some(format!(
                "no case got {}{place}: {judged} judged{tail} ({from})",
                show(required)
            ));
        }
    }
    if let Some((low, high)) = rule.score {
        // Over a group, the group's own score (the one the glob names, or the first it matches).
        let (score, of) = match &rule.cases {
            None => (scored.map(|s| s.total), String::new()),
            Some(glob) => (
                scored.and_then(|s| {
                    let named = s.groups.iter().find(|(id, _)| *id == glob.pattern);
                    named
                        .or_else(|| s.groups.iter().find(|(id, _)| glob.matches(id)))
                        .map(|(_, score)| *score)
                }),
                format!(" of {}", glob.pattern),
            ),
        };
        let inside = |s: f64| (s >= low || close(s, low)) && (s <= high || close(s, high));
        match score {
            Some(s) if inside(s) => {}
            Some(s) => return Some(format!("score{of} {s} is outside [{low}, {high}] ({from})")),
            None => {
                return Some(format!(
                    "a score{of} in [{low}, {high}] is expected, but the run gave none ({from})"
                ))
            }
        }
    }
    if let (Some(demand), Some(scored)) = (rule.demand, scored) {
        if let Some(short) = scored.short_of(demand, from) {
            return Some(short);
        }
    }
    if let Some(message) = &rule.message {
        if !scope
            .iter()
            .any(|o| o.message.is_some_and(|m| m.contains(message.as_str())))
        {
            return Some(format!(
                "no judge message{place} contains {message:?} ({from})"
            ));
        }
    }
    None
}
