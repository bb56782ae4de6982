//! What generating a package's data did, as data, its failures and warnings typed
//! ([`super::findings`]), and what of it the reporters show ([`DataMade`], borrowing it: the
//! reporters sit below generation and cannot name its types). `commands::generate` reports it
//! as its units, and `verify` as the data it generated first.

use super::findings::{Unmade, Warning};
use crate::reporting::findings::Fault;
use crate::reporting::generated::{DataMade, Said};

/// What generating one package did.
#[derive(Debug, Default)]
pub struct Generated {
    pub package: String,
    /// Cases made (again) this run.
    pub made: usize,
    /// Cases whose files were up to date.
    pub unchanged: usize,
    /// Included cases copied (again).
    pub included: usize,
    /// Case (or file) and why it failed.
    pub failed: Vec<(String, Unmade)>,
    /// Files no rule describes: a package's data files (`data/...`); the fixtures an earlier
    /// run made that the plan no longer lists.
    pub unlisted: Vec<String>,
    /// Whether they were removed (`--clean`).
    pub removed: bool,
    pub warnings: Vec<Warning>,
    /// Validator findings on the generated data.
    pub invalid: Vec<Fault>,
}

impl Generated {
    /// What the reporters show of it.
    pub fn made(&self) -> DataMade<'_> {
        DataMade {
            package: &self.package,
            made: self.made,
            unchanged: self.unchanged,
            included: self.included,
            failed: self
                .failed
                .iter()
                .map(|(case, why)| (case.as_str(), why as Said<'_>))
                .collect(),
            invalid: &self.invalid,
            unlisted: &self.unlisted,
            removed: self.removed,
            warnings: self.warnings.iter().map(|w| w as Said<'_>).collect(),
        }
    }
}
