//! A case as every stage sees it: its files, opened only through the root they were found in,
//! and its meaning, decided once from the groups it lies in (a fixture's) or fixed (a package's):
//! what it expects of the program judged, and the limits its input is held to.

use std::path::PathBuf;

use grundy_problems::Constraints;

use crate::files::beneath::TreePath;

/// One case: an input and, normally, its expected output, each opened only through the root
/// of the tree it was found in (the fixtures root, or a package), with what it expects and the
/// limits its input is held to, decided once, here, from the groups it lies in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// `<problem>/<path below the problem folder, without extension>`.
    pub id: String,
    pub problem: String,
    pub input: TreePath,
    pub expected: Option<TreePath>,
    pub expects: Expects,
    pub constraints: Constraints,
}

/// What a case expects of the program it judges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expects {
    /// An output, judged against the expected file or by the checker.
    Output,
    /// A rejection: a deliberately invalid input (an `invalid/` group), which the built-in solver
    /// must reject with the message in the expected file (`.err`).
    Rejection,
}

impl Expects {
    /// What a case named `name` (its path below its problem folder) expects.
    pub fn of(name: &str) -> Expects {
        if in_group(name, INVALID_GROUP) {
            Expects::Rejection
        } else {
            Expects::Output
        }
    }
}

/// The limits a case named `name` is held to: the extended ones below an `extended/` group.
pub fn constraints_of(name: &str) -> Constraints {
    if in_group(name, EXTENDED_GROUP) {
        Constraints::Extended
    } else {
        Constraints::Original
    }
}

/// The group whose inputs must be rejected, each with the message in its `.err` file.
pub const INVALID_GROUP: &str = "invalid";
/// The group whose inputs are checked against the extended limits.
pub const EXTENDED_GROUP: &str = "extended";

impl Case {
    /// A case of a fixtures folder: what it expects and its limits follow from the groups its
    /// `id` (`problem/groups/name`) names.
    pub fn fixture(
        id: String,
        problem: String,
        input: TreePath,
        expected: Option<TreePath>,
    ) -> Case {
        let name = id.get(problem.len() + 1..).unwrap_or_default();
        let (expects, constraints) = (Expects::of(name), constraints_of(name));
        Case {
            id,
            problem,
            input,
            expected,
            expects,
            constraints,
        }
    }

    /// A case of a Kattis package: an output to judge, under the package's limits (its group
    /// names mean nothing more).
    pub fn of_package(
        id: String,
        problem: String,
        input: TreePath,
        expected: Option<TreePath>,
    ) -> Case {
        Case {
            id,
            problem,
            input,
            expected,
            expects: Expects::Output,
            constraints: Constraints::Original,
        }
    }

    /// The case's path below its problem folder: `large/max-n` of `lieges-of-legendre/large/max-n`.
    pub fn name(&self) -> &str {
        &self.id[self.problem.len() + 1..]
    }

    /// Where a missing expected output would be written.
    pub fn default_expected_path(&self) -> PathBuf {
        let extension = match self.expects {
            Expects::Rejection => "err",
            Expects::Output => "out",
        };
        self.input.path().with_extension(extension)
    }

    /// Whether the input is deliberately invalid: its expected file is the solver's error message.
    pub fn expects_error(&self) -> bool {
        self.expects == Expects::Rejection
    }
}

/// Whether a folder above the case `name` (`a/b/case`) is called `group`; the case's own name
/// does not count.
fn in_group(name: &str, group: &str) -> bool {
    name.rsplit_once('/')
        .is_some_and(|(folders, _)| folders.split('/').any(|folder| folder == group))
}

/// What discovery found.
#[derive(Debug, Default)]
pub struct Fixtures {
    /// Every case, sorted by id.
    pub cases: Vec<Case>,
    /// Problem folders, sorted, including those without cases.
    pub problems: Vec<String>,
    /// Links found and not followed (reported with `-v`).
    pub skipped_links: Vec<PathBuf>,
}
