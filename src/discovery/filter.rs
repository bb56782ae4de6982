//! Selecting cases from the command line: `PROBLEM` or `PROBLEM/CASE-GLOB` filters, and the one
//! path every command takes from filter texts to the cases they select, with the errors a user
//! can cause (a filter leaving the root, a filter that matches nothing, a mistyped problem);
//! then [`Judged`], the one rule for which selected cases a program is judged on by default
//! (not the `invalid/` groups, not the cases beyond the original limits) and what was left out.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::str::FromStr;

use anyhow::{bail, Context, Result};
use globset::{GlobBuilder, GlobMatcher};

use grundy_problems::Constraints;

use super::case::EXTENDED_GROUP;
use super::case::{Case, Expects, INVALID_GROUP};
use super::packages::PackageCases;
use super::walk::discover_with;

/// A command-line selection: `PROBLEM` or `PROBLEM/CASE-GLOB`. The glob matches a case's path
/// below the problem folder or any group folder above it, so `s-nim/large` selects the group.
#[derive(Debug)]
pub struct Filter {
    text: String,
    pub problem: String,
    glob: Option<GlobMatcher>,
}

impl FromStr for Filter {
    type Err = anyhow::Error;

    fn from_str(text: &str) -> Result<Self> {
        let path = Path::new(text);
        if path.is_absolute()
            || path
                .components()
                .any(|c| !matches!(c, Component::Normal(_)))
        {
            bail!(
                "filter `{text}` must be PROBLEM or PROBLEM/CASE-GLOB inside the fixtures root \
                 (no absolute paths, no `..` or `.`)"
            );
        }
        let (problem, glob) = match text.split_once('/') {
            // `s-nim/` is the whole problem, as a shell's completion writes it.
            Some((problem, "")) => (problem, None),
            Some((problem, glob)) => {
                let glob = glob.trim_end_matches('/');
                let matcher = GlobBuilder::new(glob)
                    .literal_separator(true)
                    .build()
                    .with_context(|| format!("filter `{text}` has an invalid glob"))?
                    .compile_matcher();
                (problem, Some(matcher))
            }
            None => (text, None),
        };
        Ok(Filter {
            text: text.to_string(),
            problem: problem.to_string(),
            glob,
        })
    }
}

impl Filter {
    /// Whether the glob part names the group folder `group` outright (as in `nim/invalid/*`).
    pub fn names_group(&self, group: &str) -> bool {
        self.text.split('/').skip(1).any(|part| part == group)
    }

    pub fn matches(&self, case: &Case) -> bool {
        if case.problem != self.problem {
            return false;
        }
        let Some(glob) = &self.glob else {
            return true;
        };
        let name = case.name();
        glob.is_match(name)
            || name
                .match_indices('/')
                .any(|(slash, _)| glob.is_match(&name[..slash]))
    }
}

/// The cases at least one filter selects (all when there are none). Every filter must select
/// something: a mistyped filter must not let a CI gate pass on fewer cases than meant. `problems`
/// (the folders that exist) give a did-you-mean for a mistyped problem.
fn select_among(cases: Vec<Case>, filters: &[Filter], problems: &[String]) -> Result<Vec<Case>> {
    if filters.is_empty() {
        return Ok(cases);
    }
    for filter in filters {
        if !cases.iter().any(|c| filter.matches(c)) {
            let known = problems.contains(&filter.problem);
            let hint = if known {
                // A mistyped case or group: the closest of the problem's cases and groups.
                let mut names: Vec<&str> = vec![];
                for case in cases.iter().filter(|c| c.problem == filter.problem) {
                    let name = case.name();
                    names.extend(name.match_indices('/').map(|(at, _)| &name[..at]));
                    names.push(name);
                }
                names.sort_unstable();
                names.dedup();
                let typed = filter.text.split_once('/').map_or("", |(_, rest)| rest);
                crate::suggest::closest(typed, names.into_iter())
                    .map(|name| format!(" (did you mean `{}/{name}`?)", filter.problem))
                    .unwrap_or_default()
            } else if problems.is_empty() {
                String::new()
            } else {
                crate::suggest::did_you_mean(&filter.problem, problems.iter().map(String::as_str))
            };
            bail!(
                "no case matches `{}`{hint}; `grundy list --cases` shows the problems and their \
                 cases",
                filter.text
            );
        }
    }
    Ok(cases
        .into_iter()
        .filter(|c| filters.iter().any(|f| f.matches(c)))
        .collect())
}

/// What the filters of a command selected below a fixtures root.
#[derive(Debug)]
pub struct Selection {
    /// The selected cases, sorted by id.
    pub cases: Vec<Case>,
    pub filters: Vec<Filter>,
    /// Every problem folder of the root, sorted (also those without selected cases).
    pub problems: Vec<String>,
    /// Symbolic links found and not followed.
    pub skipped_links: Vec<PathBuf>,
    root: PathBuf,
}

/// Parses `filter_texts`, walks the problem folders they name (all without filters), each
/// package's cases taken from `packages`, and selects the cases: the one path from a command
/// line to a case list.
pub fn select_cases(
    root: &Path,
    filter_texts: &[String],
    packages: &dyn PackageCases,
) -> Result<Selection> {
    let filters: Vec<Filter> = filter_texts
        .iter()
        .map(|f| f.parse())
        .collect::<Result<_>>()?;
    let wanted: BTreeSet<&str> = filters.iter().map(|f| f.problem.as_str()).collect();
    let fixtures = discover_with(root, |p| wanted.is_empty() || wanted.contains(p), packages)?;
    let cases = select_among(fixtures.cases, &filters, &fixtures.problems)?;
    Ok(Selection {
        cases,
        filters,
        problems: fixtures.problems,
        skipped_links: fixtures.skipped_links,
        root: root.to_path_buf(),
    })
}

impl Selection {
    /// An error when nothing is selected: a command with nothing to do must not pass. `what`
    /// says what was looked for (`case to judge`, `input to validate`).
    pub fn require_some(&self, what: &str) -> Result<()> {
        if self.cases.is_empty() {
            bail!(
                "no {what}: there is no `.in` file below `{}`{}",
                self.root.display(),
                if self.filters.is_empty() {
                    ""
                } else {
                    " for the given filters"
                }
            );
        }
        Ok(())
    }

    /// The distinct problems of the selected cases, sorted.
    pub fn case_problems(&self) -> BTreeSet<&str> {
        // A problem's cases are next to each other (sorted by id): one insert per problem.
        self.cases
            .chunk_by(|a, b| a.problem == b.problem)
            .map(|cases| cases[0].problem.as_str())
            .collect()
    }
}

/// Who a run judges, which decides the cases it judges by default ([`Judged::split`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judged {
    /// A built-in solver: every selected case, `invalid/` and `extended/` groups alike (they
    /// test its exact rejections and its reach beyond the original limits).
    BuiltIn,
    /// A program (`--exec`, a package's submission): the cases a solution written for the
    /// original judge can pass. `extended` is `--extended`.
    Program { extended: bool },
}

/// Why a selected case is not judged by default when a program is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeftOutReason {
    /// A deliberately invalid input: it expects grundy's own error message, which a program
    /// cannot know.
    Invalid,
    /// An input beyond the original judge's limits, which a solution written for those limits
    /// need not handle.
    BeyondOriginalLimits,
}

/// How many selected cases a run left out, by reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LeftOut {
    pub invalid: usize,
    pub beyond_original_limits: usize,
}

impl LeftOut {
    pub fn total(&self) -> usize {
        self.invalid + self.beyond_original_limits
    }

    fn count(&mut self, reason: LeftOutReason) {
        match reason {
            LeftOutReason::Invalid => self.invalid += 1,
            LeftOutReason::BeyondOriginalLimits => self.beyond_original_limits += 1,
        }
    }
}

impl Judged {
    /// Why `case` is left out, or `None` when it is judged. A program is not judged on an
    /// `invalid/` case unless a filter naming the `invalid` group selects it, nor on a case
    /// beyond the original limits unless `--extended` is given or a filter naming the `extended`
    /// group selects it (`s-nim/extended`, `s-nim/extended/*`): naming a group is asking for it.
    pub fn left_out(self, case: &Case, filters: &[Filter]) -> Option<LeftOutReason> {
        let Judged::Program { extended } = self else {
            return None;
        };
        let asked = |group: &str| {
            filters
                .iter()
                .any(|filter| filter.names_group(group) && filter.matches(case))
        };
        if case.expects == Expects::Rejection && !asked(INVALID_GROUP) {
            Some(LeftOutReason::Invalid)
        } else if case.constraints == Constraints::Extended && !extended && !asked(EXTENDED_GROUP) {
            Some(LeftOutReason::BeyondOriginalLimits)
        } else {
            None
        }
    }

    /// The cases judged, in their order, and how many were left out and why.
    pub fn split(self, cases: Vec<Case>, filters: &[Filter]) -> (Vec<Case>, LeftOut) {
        let mut left_out = LeftOut::default();
        let judged = cases
            .into_iter()
            .filter(|case| match self.left_out(case, filters) {
                Some(reason) => {
                    left_out.count(reason);
                    false
                }
                None => true,
            })
            .collect();
        (judged, left_out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discovery::discover;
    use crate::discovery::packages::ReadEach;
    use crate::discovery::walk::tests::tree;

    #[test]
    fn filters_select_problems_globs_and_groups() {
        let dir = tree(&[
            "nim/sample-1.in",
            "nim/sample-2.in",
            "nim/large/max.in",
            "nim/large/max-2.in",
            "s-nim/sample-1.in",
        ]);
        let cases = discover(dir.path(), |_| true).unwrap().cases;
        let pick = |filters: &[&str]| -> Vec<String> {
            let filters: Vec<Filter> = filters.iter().map(|f| f.parse().unwrap()).collect();
            select_among(cases.clone(), &filters, &[])
                .unwrap()
                .into_iter()
                .map(|c| c.id)
                .collect()
        };
        assert_eq!(pick(&["s-nim"]), ["s-nim/sample-1"]);
        assert_eq!(pick(&["s-nim/"]), ["s-nim/sample-1"]);
        assert_eq!(pick(&["nim/sample-*"]), ["nim/sample-1", "nim/sample-2"]);
        assert_eq!(pick(&["nim/large"]), ["nim/large/max", "nim/large/max-2"]);
        assert_eq!(pick(&["nim/large/*"]), ["nim/large/max", "nim/large/max-2"]);
        assert_eq!(
            pick(&["nim/*"]).len(),
            4,
            "`*` matches a case or a whole group"
        );
        assert_eq!(
            pick(&["nim/*-2"]),
            ["nim/sample-2"],
            "`*` does not cross folders"
        );
        assert_eq!(pick(&["nim/**"]).len(), 4);
        assert_eq!(pick(&[]).len(), 5);
        let none: Vec<Filter> = vec!["nim/nothing-*".parse().unwrap()];
        assert!(select_among(cases.clone(), &none, &[])
            .unwrap_err()
            .to_string()
            .contains("nim/nothing-*"));
    }

    #[test]
    fn a_mistyped_problem_gets_a_suggestion() {
        let dir = tree(&["s-nim/a.in", "nim/b.in"]);
        let err = select_cases(dir.path(), &["snim".into()], &ReadEach)
            .unwrap_err()
            .to_string();
        assert!(err.contains("no case matches `snim`"), "{err}");
        assert!(err.contains("did you mean `s-nim`?"), "{err}");
        let err = select_cases(dir.path(), &["s-nim/zzz".into()], &ReadEach)
            .unwrap_err()
            .to_string();
        assert!(!err.contains("did you mean"), "nothing close: {err}");
    }

    #[test]
    fn a_mistyped_case_or_group_gets_a_suggestion() {
        let dir = tree(&[
            "nim/sample-1.in",
            "nim/edge/max-heaps.in",
            "s-nim/sample-2.in",
        ]);
        let error = |filter: &str| {
            select_cases(dir.path(), &[filter.into()], &ReadEach)
                .unwrap_err()
                .to_string()
        };
        assert!(
            error("nim/sampel-1").contains("(did you mean `nim/sample-1`?)"),
            "{}",
            error("nim/sampel-1")
        );
        assert!(error("nim/egde").contains("(did you mean `nim/edge`?)"));
        assert!(error("nim/edge/max-heap").contains("(did you mean `nim/edge/max-heaps`?)"));
    }

    #[test]
    fn programs_leave_out_invalid_and_extended_groups_unless_asked() {
        let dir = tree(&[
            "nim/sample-1.in",
            "nim/extended/big.in",
            "nim/extended/bigger.in",
            "nim/invalid/bad.in",
            "nim/invalid/bad.err",
            "s-nim/extended/huge.in",
        ]);
        let cases = discover(dir.path(), |_| true).unwrap().cases;
        let split = |judged: Judged, filters: &[&str]| -> (Vec<String>, LeftOut) {
            let filters: Vec<Filter> = filters.iter().map(|f| f.parse().unwrap()).collect();
            let selected = select_among(cases.clone(), &filters, &[]).unwrap();
            let (judged, left_out) = judged.split(selected, &filters);
            (judged.into_iter().map(|c| c.id).collect(), left_out)
        };
        let program = Judged::Program { extended: false };
        let left_out = |invalid, beyond_original_limits| LeftOut {
            invalid,
            beyond_original_limits,
        };
        assert_eq!(split(Judged::BuiltIn, &[]).0.len(), 5);
        assert_eq!(split(Judged::BuiltIn, &[]).1, LeftOut::default());
        assert_eq!(
            split(program, &[]),
            (vec!["nim/sample-1".into()], left_out(1, 3))
        );
        assert_eq!(
            split(Judged::Program { extended: true }, &["nim"]).0,
            ["nim/extended/big", "nim/extended/bigger", "nim/sample-1"]
        );
        // Naming a group asks for its cases, and only for those the naming filter selects.
        assert_eq!(
            split(program, &["nim/extended/big", "s-nim"]),
            (vec!["nim/extended/big".into()], left_out(0, 1))
        );
        assert_eq!(
            split(program, &["nim/invalid", "nim/sample-*"]),
            (
                vec!["nim/invalid/bad".into(), "nim/sample-1".into()],
                left_out(0, 0)
            )
        );
        // A glob that does not spell the group out is no request for it.
        assert_eq!(split(program, &["nim/*"]).1, left_out(1, 2));
    }

    #[test]
    fn filters_refuse_to_leave_the_root() {
        for bad in ["../etc", "nim/../../x", "/etc/passwd", "./nim"] {
            assert!(bad.parse::<Filter>().is_err(), "{bad}");
        }
    }
}
