//! The `summary` line read back, as it is: what `report merge` checks of each shard (its
//! command, schema, partition, whether it was cancelled) and what the merged run's summary
//! adds up (the packages that could not be read, what was left out, the wall time).

use serde::Deserialize;

#[derive(Deserialize)]
pub(in crate::reporting::merge) struct SummaryLine {
    pub command: String,
    pub schema: Option<u64>,
    pub cancelled: bool,
    pub partition: Option<String>,
    pub suite_total: Option<usize>,
    #[serde(default)]
    pub unreadable: Vec<String>,
    #[serde(default)]
    pub unreadable_packages: Vec<String>,
    pub left_out: Option<LeftOutLine>,
    pub time_ms: f64,
}

#[derive(Deserialize)]
pub(in crate::reporting::merge) struct LeftOutLine {
    pub invalid: usize,
    pub beyond_original_limits: usize,
}
