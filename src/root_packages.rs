//! The packages of a fixtures root, for `check`, `list` and `validate`: each read once, whole
//! ([`crate::package::read_package`]), as the problem `verify` judges ([`Problem`]), or with why
//! it cannot be read and as much of its data as its format version reads. The walk of the
//! fixtures root takes a package's cases from here ([`PackageCases`]), so nothing of a package
//! is read twice; how its cases are judged is the plan's ([`crate::plan`]), which holds the same
//! problem (an `Arc`), so `check` and `verify` judge one type. Reading builds and
//! runs nothing, so `list` (and every command that only reads settings) works whatever the
//! packages' programs are.

use std::path::Path;
use std::sync::Arc;

use crate::discovery::{cases_of, Case, PackageCases};
use crate::files::beneath::TreePath;
use crate::model::{absolute, Problem};
use crate::package::yaml::Diagnostic;
use crate::package::{find, read_package, OutputValidator, Unreadable};

/// The packages of a fixtures root, read but not built: each package's name with its problem
/// (shared with the plan that judges it), or why it cannot be read.
#[derive(Default)]
pub struct RootPackages(Vec<(String, Read)>);

/// A package's problem, or why it cannot be read.
type Read = Result<Arc<Problem>, Box<Unreadable>>;

impl RootPackages {
    /// The packages of the fixtures root `fixtures` (none in a root of plain cases).
    pub fn read(fixtures: &Path) -> RootPackages {
        let Ok(found) = find::find(fixtures) else {
            return RootPackages::default();
        };
        let packages = found.packages.iter().map(|folder| {
            let name = find::name_of(folder);
            // Named as the walk reached it (a fixtures root that is a link to a package is
            // named by the link), so its cases are the walk's problem's.
            let problem = read_package(&absolute(folder)).map(|mut package| {
                package.name = name.clone();
                Arc::new(Problem::from_package(package))
            });
            (name, problem)
        });
        RootPackages(packages.collect())
    }

    /// The packages that cannot be read, each with why.
    pub fn unreadable(&self) -> impl Iterator<Item = (&str, &Diagnostic)> {
        let packages = self.0.iter();
        packages.filter_map(|(name, problem)| Some((name.as_str(), &problem.as_ref().err()?.why)))
    }

    /// Whether `name` is one of the packages.
    pub fn contains(&self, name: &str) -> bool {
        self.0.iter().any(|(n, _)| n == name)
    }

    /// Package `name`: its problem, or why it cannot be read; None when it is no package.
    pub fn get(&self, name: &str) -> Option<Result<&Arc<Problem>, &Diagnostic>> {
        let (_, problem) = self.0.iter().find(|(n, _)| n == name)?;
        Some(problem.as_ref().map_err(|unreadable| &unreadable.why))
    }

    /// The packages named in `names`, each with its problem or why it cannot be read.
    pub fn take(self, names: &[&str]) -> Vec<(String, Result<Problem, Diagnostic>)> {
        let named = self.0.into_iter();
        let named = named.filter(|(n, _)| names.contains(&n.as_str()));
        let owned = |(name, problem): (String, Read)| {
            (
                name,
                problem
                    .map(Arc::unwrap_or_clone)
                    .map_err(|unreadable| unreadable.why),
            )
        };
        named.map(owned).collect()
    }
}

impl PackageCases for RootPackages {
    /// The judged cases of the package as it was read; a package not read (one made since)
    /// is read now.
    fn cases(&self, name: &str, folder: &Path) -> Result<Vec<Case>, Diagnostic> {
        let Some((_, problem)) = self.0.iter().find(|(n, _)| n == name) else {
            return crate::discovery::ReadEach.cases(name, folder);
        };
        let cases = match problem {
            Ok(problem) => problem.cases.iter().map(|case| case.case.clone()).collect(),
            Err(unreadable) => match &unreadable.data {
                Ok(data) => cases_of(name, data),
                Err(why) => return Err(why.clone()),
            },
        };
        Ok(shown_as(cases, folder))
    }
}

/// `cases` of a package read by its absolute path, named below `folder`, the path the walk
/// reached it by.
fn shown_as(cases: Vec<Case>, folder: &Path) -> Vec<Case> {
    let Some(tree) = cases.first().map(|case| case.input.tree().shown_as(folder)) else {
        return cases;
    };
    let shown = |path: &TreePath| tree.join(path.relative());
    cases
        .into_iter()
        .map(|case| Case {
            input: shown(&case.input),
            expected: case.expected.as_ref().map(shown),
            ..case
        })
        .collect()
}

/// The name of a package's own output validator, if it has one.
pub fn custom_validator(problem: &Problem) -> Option<&str> {
    match &problem.judging {
        crate::model::Judging::Package {
            validator: OutputValidator::Custom(programs),
            ..
        } => programs.first().map(|program| program.name.as_str()),
        _ => None,
    }
}
