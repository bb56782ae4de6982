//! `--partition slice:I/N | hash:I/N`: one bucket of N of the selected cases, for splitting a
//! suite across CI machines. The N buckets together hold every case exactly once.

use std::hash::Hasher;
use std::str::FromStr;

use super::case::Case;

/// One bucket of N, for splitting a suite across CI machines (`--partition`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Partition {
    /// Round-robin over the sorted case ids.
    Slice { index: usize, count: usize },
    /// By a stable hash of the case id, so a case keeps its bucket when others are added.
    Hash { index: usize, count: usize },
}

/// A `--partition` value that names no bucket.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("partition `{0}` must be slice:I/N or hash:I/N with 1 <= I <= N")]
pub struct NoBucket(String);

impl FromStr for Partition {
    type Err = NoBucket;

    fn from_str(text: &str) -> Result<Self, NoBucket> {
        let usage = || NoBucket(text.to_string());
        let (kind, bucket) = text.split_once(':').ok_or_else(usage)?;
        let (index, count) = bucket.split_once('/').ok_or_else(usage)?;
        let (index, count): (usize, usize) = match (index.parse(), count.parse()) {
            (Ok(i), Ok(n)) if i >= 1 && i <= n => (i, n),
            _ => return Err(usage()),
        };
        match kind {
            "slice" => Ok(Partition::Slice { index, count }),
            "hash" => Ok(Partition::Hash { index, count }),
            _ => Err(usage()),
        }
    }
}

impl std::fmt::Display for Partition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Partition::Slice { index, count } => write!(f, "slice:{index}/{count}"),
            Partition::Hash { index, count } => write!(f, "hash:{index}/{count}"),
        }
    }
}

impl Partition {
    /// The cases of this bucket, from cases sorted by id.
    pub fn apply(&self, cases: Vec<Case>) -> Vec<Case> {
        cases
            .into_iter()
            .enumerate()
            .filter(|(position, case)| self.keeps(*position, &case.id))
            .map(|(_, case)| case)
            .collect()
    }

    /// Whether this bucket holds the unit named `id` at `position` of the sorted units.
    pub fn keeps(&self, position: usize, id: &str) -> bool {
        match *self {
            Partition::Slice { index, count } => position % count == index - 1,
            Partition::Hash { index, count } => stable_hash(id) % count as u64 == index as u64 - 1,
        }
    }
}

/// FNV-1a: fixed by its definition, so buckets are the same on every machine and release.
fn stable_hash(id: &str) -> u64 {
    let mut hasher = fnv::FnvHasher::default();
    hasher.write(id.as_bytes());
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::beneath::TreePath;

    #[test]
    fn partitions_cover_every_case_exactly_once() {
        let cases: Vec<Case> = (0..97)
            .map(|i| {
                Case::fixture(
                    format!("p/case-{i:03}"),
                    "p".into(),
                    TreePath::in_memory(""),
                    None,
                )
            })
            .collect();
        for kind in ["slice", "hash"] {
            for count in 1..=5 {
                let mut seen: Vec<String> = (1..=count)
                    .flat_map(|i| {
                        let partition: Partition = format!("{kind}:{i}/{count}").parse().unwrap();
                        partition.apply(cases.clone())
                    })
                    .map(|c| c.id)
                    .collect();
                seen.sort();
                let all: Vec<String> = cases.iter().map(|c| c.id.clone()).collect();
                assert_eq!(seen, all, "{kind} into {count}");
            }
        }
    }

    #[test]
    fn hash_buckets_do_not_move_when_cases_are_added() {
        let case = |id: &str| Case::fixture(id.into(), "p".into(), TreePath::in_memory(""), None);
        let mut before: Vec<Case> = (0..50).map(|i| case(&format!("p/c{i}"))).collect();
        before.sort_by(|a, b| a.id.cmp(&b.id));
        let mut after = before.clone();
        after.push(case("p/new-one"));
        after.sort_by(|a, b| a.id.cmp(&b.id));
        let partition: Partition = "hash:2/3".parse().unwrap();
        let old: Vec<String> = partition.apply(before).into_iter().map(|c| c.id).collect();
        let new: Vec<String> = partition
            .apply(after)
            .into_iter()
            .map(|c| c.id)
            .filter(|id| id != "p/new-one")
            .collect();
        assert_eq!(old, new);
    }

    #[test]
    fn partition_syntax() {
        assert_eq!(
            "slice:1/3".parse::<Partition>(),
            Ok(Partition::Slice { index: 1, count: 3 })
        );
        for bad in ["slice:0/3", "hash:4/3", "mod:1/2", "hash:1", "slice:a/b"] {
            assert!(bad.parse::<Partition>().is_err(), "{bad}");
        }
    }
}
