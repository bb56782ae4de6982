//! What `list` reports: each problem with the settings in force for it ([`Listed`]), which the
//! human table (`human/list.rs`) and the JSON lines render. `list` judges nothing, so it has no
//! run and no summary: its report is rendered whole, once the problems are read
//! ([`super::list_report`]).

use crate::model::TimeLimit;

/// Where a problem's cases and judge come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A built-in problem: its solver, generator and checker are grundy's own.
    BuiltIn,
    /// A Kattis package of the fixtures root.
    Package,
    /// A folder of fixtures no built-in solver judges (`--exec` must give the program).
    Fixtures,
}

impl Kind {
    /// Its name in the JSON lines.
    pub fn name(self) -> &'static str {
        match self {
            Kind::BuiltIn => "built-in",
            Kind::Package => "package",
            Kind::Fixtures => "fixtures",
        }
    }
}

/// One problem as `list` shows it.
#[derive(Clone, Debug)]
pub struct Listed {
    pub problem: String,
    pub kind: Kind,
    /// The cases the filters select.
    pub cases: usize,
    /// Its time limit by the one rule, or none where a package's is computed from its accepted
    /// submissions and no command has timed them yet (`list` times nothing).
    pub time_limit: Option<TimeLimit>,
    pub memory_mib: u64,
    pub output_mib: u64,
    /// What judges its outputs: its checker, `interactor ...`, or a package's output validator
    /// (`kattis:NAME`).
    pub judge: String,
    /// A built-in problem's title.
    pub title: Option<&'static str>,
    /// Why the package cannot be read (its file, line and column), when it cannot.
    pub unreadable: Option<String>,
}
