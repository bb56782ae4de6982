//! The lines of `verify --format json` as `report merge` reads them back, and each made the
//! typed event payload it was written from: a `heading` line a [`ProblemHeading`], a
//! `submission` line a [`SubmissionRow`], a `package` line a [`ProblemOutcome`]. Findings come
//! back as the lines they were reported as (`Reported`): every reporter shows a finding by its
//! one line; but the time limit's margins, which a package line's `margins` marks, come back as
//! the facts they were computed from, for the merge to compute them once. Fields the reader
//! does not know are ignored, so later additions read.
//!
//! This module owns which line is which (`Line`, by its `type`); each kind is read in its own
//! module, the fields several share and what is wrong with a field in [`fields`]. Where the
//! lines must stand in a shard, and how shards combine, is not read here (`read`, `merge`).
//!
//! [`ProblemHeading`]: crate::reporting::verified::ProblemHeading
//! [`SubmissionRow`]: crate::reporting::verified::SubmissionRow
//! [`ProblemOutcome`]: crate::reporting::verified::ProblemOutcome

mod fields;
mod heading;
mod package;
mod submission;
mod summary;

use serde::Deserialize;

pub(super) use fields::duration;
pub use fields::{BadField, Wrong};
use heading::HeadingLine;
use package::PackageLine;
use submission::SubmissionLine;
pub(super) use summary::SummaryLine;

/// One line of a report, by its `type`.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(super) enum Line {
    Heading(Box<HeadingLine>),
    Submission(Box<SubmissionLine>),
    Package(Box<PackageLine>),
    /// Made again from the merged stream.
    Contest {},
    Summary(Box<SummaryLine>),
    /// Lines of the other commands: named, to say whose report it is.
    Case {},
    Counterexample {},
    Problem {},
}
