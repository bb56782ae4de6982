//! `runner.toml` as written, before defaults are applied: the fields its keys are read into
//! (and checked against before it is read, `invalid.rs`). Resolving them into the settings of
//! each problem is the parent module's; the user's own settings among them, `privileged.rs`'s.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

/// The file as written, before defaults are applied. Its keys and its tables' are checked
/// against these fields before it is read ([`RunnerFile::parse`]).
#[derive(Deserialize, Default)]
pub(super) struct RunnerFile {
    pub(super) fixtures: Option<String>,
    pub(super) jobs: Option<Spanned<usize>>,
    /// `true`, `false`, `"strict"` or `"off"`.
    pub(super) isolate: Option<Spanned<toml::Value>>,
    /// The uids of judged programs when grundy runs as root: `box_uids` of them from
    /// `first_box_uid` (one per concurrent box).
    pub(super) first_box_uid: Option<Spanned<u32>>,
    pub(super) box_uids: Option<Spanned<u32>>,
    pub(super) time_limit_ms: Option<Spanned<u64>>,
    pub(super) wall_time_limit_ms: Option<Spanned<u64>>,
    pub(super) memory_limit_mb: Option<Spanned<u64>>,
    pub(super) output_limit_mb: Option<Spanned<u64>>,
    pub(super) checker: Option<Spanned<String>>,
    pub(super) interactor: Option<Spanned<String>>,
    pub(super) judge_time_limit_ms: Option<Spanned<u64>>,
    #[serde(default)]
    pub(super) problems: BTreeMap<Spanned<String>, ProblemTable>,
}

/// The keys a `[problems.<id>]` table may set; the top level sets them for every problem.
#[derive(Deserialize, Default)]
pub(super) struct ProblemTable {
    pub(super) time_limit_ms: Option<Spanned<u64>>,
    pub(super) wall_time_limit_ms: Option<Spanned<u64>>,
    pub(super) memory_limit_mb: Option<Spanned<u64>>,
    pub(super) output_limit_mb: Option<Spanned<u64>>,
    pub(super) checker: Option<Spanned<String>>,
    pub(super) interactor: Option<Spanned<String>>,
    pub(super) judge_time_limit_ms: Option<Spanned<u64>>,
}
