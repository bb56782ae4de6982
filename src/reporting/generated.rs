//! What generating a package's data (or a built-in problem's fixtures) did, as the events of
//! `generate` and `verify` carry it: the counts, and what was not made, is invalid or is warned
//! of. Generation keeps its findings as its own types (`generation::findings`), which sit above
//! the reporters; this borrows them as what they are to a report, each a line its `Display`
//! says, rendered only by a reporter.

use std::fmt;

use super::findings::Fault;

/// A finding of generation, as a report shows it: its one line (or lines).
pub type Said<'a> = &'a dyn fmt::Display;

/// What generating one package's data did.
pub struct DataMade<'a> {
    pub package: &'a str,
    /// Cases made (again) this run.
    pub made: usize,
    /// Cases whose files were up to date.
    pub unchanged: usize,
    /// Included cases copied (again).
    pub included: usize,
    /// Each case (or file) not made, and why.
    pub failed: Vec<(&'a str, Said<'a>)>,
    /// What the validators found wrong in what was made.
    pub invalid: &'a [Fault],
    /// Files no rule describes, and whether they were removed (`--clean`).
    pub unlisted: &'a [String],
    pub removed: bool,
    pub warnings: Vec<Said<'a>>,
}

impl DataMade<'_> {
    /// Every case made or up to date, and nothing invalid.
    pub fn ok(&self) -> bool {
        self.failed.is_empty() && self.invalid.is_empty()
    }

    /// `pkg: 4 made, 0 unchanged, 1 included, 0 failed: ok` (or `FAILED`).
    pub fn counts(&self) -> String {
        let outcome = if self.ok() { "ok" } else { "FAILED" };
        format!(
            "{}: {} made, {} unchanged, {} included, {} failed: {outcome}",
            crate::escape::visible_line(self.package),
            self.made,
            self.unchanged,
            self.included,
            self.failed.len()
        )
    }
}

impl fmt::Debug for DataMade<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DataMade")
            .field("package", &self.package)
            .field("made", &self.made)
            .field("unchanged", &self.unchanged)
            .field("included", &self.included)
            .field("failed", &self.failed.len())
            .finish_non_exhaustive()
    }
}
