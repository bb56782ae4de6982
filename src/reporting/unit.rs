//! What a run counts and how it names what it counts: the kind of unit a summary counts
//! ([`Unit`]: cases, submissions, packages, mutants), a unit's name, the same in every run and every shard
//! of one ([`UnitId`]: its problem, the subject judged, its case), how it ended ([`Outcome`]),
//! and the totals kept per kind ([`Totals`]). Every judging command counts one kind of unit in
//! its summary and says which; what it finds of the other kinds stays apart in the totals.

/// What a summary counts: each judging command counts one kind ([`super::RunKind::unit`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Unit {
    /// A case judged (`check`, `stress`) or an input validated (`validate`).
    #[default]
    Case,
    /// A submission judged on every case of its problem (`verify`).
    Submission,
    /// A package as a whole: valid or not (`verify`, `validate`), its data generated
    /// (`generate`), its time limit found (`timelimit`).
    Package,
    /// A mutant of a submission (`mutants`): passed when a case killed it, failed when it
    /// survived, skipped when it was stillborn, not judged or likely equivalent.
    Mutant,
}

impl Unit {
    /// Every kind, in the order the reports list them.
    pub const ALL: [Unit; 4] = [Unit::Case, Unit::Submission, Unit::Package, Unit::Mutant];

    /// Its name in the reports (the JSON lines' `type` and the summary's `unit`).
    pub fn name(self) -> &'static str {
        match self {
            Unit::Case => "case",
            Unit::Submission => "submission",
            Unit::Package => "package",
            Unit::Mutant => "mutant",
        }
    }
}

/// The subject of a built-in problem's own solver, in the unit ids of `check` and `stress`.
pub const BUILT_IN: &str = "built-in";

/// One unit, named the same way in every run: its problem (a built-in problem's id or a
/// package's name), the subject judged (the built-in solver, `--exec`'s command, a
/// submission's path below `submissions/`; none for a package's own data), and the case (its
/// path within the problem; none for a unit that is not one case). Borrowed from what the
/// event carries, so naming a unit allocates nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitId<'a> {
    pub problem: &'a str,
    pub subject: Option<&'a str>,
    pub case: Option<&'a str>,
}

impl<'a> UnitId<'a> {
    /// The unit of a whole problem or package.
    pub fn problem(problem: &'a str) -> UnitId<'a> {
        UnitId {
            problem,
            subject: None,
            case: None,
        }
    }

    /// The case `id` (`problem/path`) of `problem`, judging `subject`.
    pub fn case(problem: &'a str, subject: Option<&'a str>, id: &'a str) -> UnitId<'a> {
        UnitId {
            problem,
            subject,
            case: Some(within(problem, id)),
        }
    }
}

/// The path within `problem` of its case `id` (`problem/path`): what follows the problem's
/// name.
pub fn within<'a>(problem: &str, id: &'a str) -> &'a str {
    id.strip_prefix(problem)
        .and_then(|rest| rest.strip_prefix('/'))
        .unwrap_or(id)
}

/// How a unit ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It is what it must be: a case accepted, a submission that got a verdict it may get, a
    /// package valid, data made.
    Passed,
    Failed,
    /// Not judged: left for `--fail-fast` or Ctrl-C, or a submission that could not be.
    Skipped,
}

impl Outcome {
    /// `Passed` when `passed`, else `Failed`.
    pub fn of(passed: bool) -> Outcome {
        match passed {
            true => Outcome::Passed,
            false => Outcome::Failed,
        }
    }
}

/// The counts of one kind of unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

impl Tally {
    pub fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Passed => self.passed += 1,
            Outcome::Failed => self.failed += 1,
            Outcome::Skipped => self.skipped += 1,
        }
    }
}

/// The counts of a run, per kind of unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub cases: Tally,
    pub submissions: Tally,
    pub packages: Tally,
    pub mutants: Tally,
}

impl Totals {
    pub fn of(&self, unit: Unit) -> &Tally {
        match unit {
            Unit::Case => &self.cases,
            Unit::Submission => &self.submissions,
            Unit::Package => &self.packages,
            Unit::Mutant => &self.mutants,
        }
    }

    pub fn of_mut(&mut self, unit: Unit) -> &mut Tally {
        match unit {
            Unit::Case => &mut self.cases,
            Unit::Submission => &mut self.submissions,
            Unit::Package => &mut self.packages,
            Unit::Mutant => &mut self.mutants,
        }
    }

    /// Whether any unit of any kind failed; a mutant that survived is a finding about the
    /// data, not a failure of the run.
    pub fn any_failed(&self) -> bool {
        let fails = Unit::ALL.iter().filter(|unit| **unit != Unit::Mutant);
        fails.into_iter().any(|unit| self.of(*unit).failed > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_is_named_by_its_path_within_its_problem() {
        let id = UnitId::case("nim", Some(BUILT_IN), "nim/large/a");
        assert_eq!((id.problem, id.case), ("nim", Some("large/a")));
        // A problem whose name starts another's is not taken for it.
        let id = UnitId::case("nim", None, "nimble/a");
        assert_eq!(id.case, Some("nimble/a"));
    }

    #[test]
    fn each_kind_is_counted_apart() {
        let mut totals = Totals::default();
        totals.of_mut(Unit::Submission).add(Outcome::Passed);
        totals.of_mut(Unit::Package).add(Outcome::Failed);
        totals.of_mut(Unit::Submission).add(Outcome::Skipped);
        assert_eq!(
            *totals.of(Unit::Submission),
            Tally {
                passed: 1,
                failed: 0,
                skipped: 1
            }
        );
        assert_eq!(totals.of(Unit::Package).failed, 1);
        assert!(totals.any_failed());
        assert!(!Totals::default().any_failed());
        let mut survivor = Totals::default();
        survivor.of_mut(Unit::Mutant).add(Outcome::Failed);
        assert!(!survivor.any_failed(), "a survivor fails no run");
    }
}
