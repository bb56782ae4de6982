//! `grundy report merge`: the shards of a partitioned `verify` (each `verify --partition I/N
//! --format json`) read back into the events they were written from ([`read`], [`lines`]) and
//! combined into the stream one run on one machine would have made: every package once, in the
//! shards' order, with its heading, its submissions from every shard in the package's order,
//! and its findings the union of the shards' but for the time limit's margins, which depend on
//! runs of several shards and are computed again from all their facts. Refused, saying which
//! file and what: shards that are not the buckets of one partition, a bucket missing or given
//! twice, a submission in two shards. A package whose shards judged it with different time
//! limits is merged, and invalid for it (one package never sinks the merged report). The
//! command replays what this returns through the dispatcher and the reporters of any run.

mod lines;
mod read;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::discovery::{LeftOut, Partition};
use crate::reporting::findings::{margin_findings, Fault, Unreadable};
use crate::reporting::verified::{ProblemHeading, ProblemOutcome, SubmissionRow};
pub use read::{shard, Bad};

/// A shard read back.
pub struct Shard {
    pub file: PathBuf,
    packages: Vec<ShardPackage>,
    summary: lines::SummaryLine,
}

/// A package of a shard: its heading, the submissions the shard judged, its outcome.
struct ShardPackage {
    heading: ProblemHeading,
    rows: Vec<SubmissionRow>,
    outcome: Option<ProblemOutcome>,
}

/// A package of the merged run, as its events carry it.
pub struct MergedPackage {
    pub heading: ProblemHeading,
    pub rows: Vec<SubmissionRow>,
    pub outcome: ProblemOutcome,
}

/// The merged run: what its `RunStarted` and `RunFinished` say, and every package.
pub struct Merged {
    pub unreadable: Vec<Unreadable>,
    pub left_out: LeftOut,
    pub packages: Vec<MergedPackage>,
    /// The slowest shard's wall time: the merged run's, as the shards ran side by side.
    pub wall_time: Duration,
}

/// Why shards cannot be merged: what is wrong at a line of one, or between them.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("{}{}: {bad}", file.display(), at_line(*line))]
    Line {
        file: PathBuf,
        line: usize,
        bad: Bad,
    },
    #[error(
        "{} is a whole run (no --partition), and merges with nothing: give it alone, or the \
         shards of one partition", file.display()
    )]
    WholeAmongShards { file: PathBuf },
    #[error(
        "{} is bucket {bucket} and {} bucket {other_bucket}: not the buckets of one partition \
         (or of runs that selected different submissions)",
        file.display(), other.display()
    )]
    OtherPartition {
        file: PathBuf,
        bucket: String,
        other: PathBuf,
        other_bucket: String,
    },
    #[error("{} and {} are both bucket {bucket}: give each bucket once", file.display(), other.display())]
    SameBucket {
        file: PathBuf,
        other: PathBuf,
        bucket: String,
    },
    #[error("bucket {bucket} is missing: no shard given holds it; add its report")]
    MissingBucket { bucket: String },
    #[error(
        "{} holds packages {packages}, but {} holds {other_packages}: shards of different \
         contests or runs", file.display(), other.display()
    )]
    OtherPackages {
        file: PathBuf,
        packages: String,
        other: PathBuf,
        other_packages: String,
    },
    #[error(
        "submission {package}/{submission} is in both {} and {}: the shards overlap",
        .first.display(), .second.display()
    )]
    Overlap {
        package: String,
        submission: String,
        first: PathBuf,
        second: PathBuf,
    },
    #[error("the shards hold {held} submissions, but their runs selected {selected}")]
    Count { held: usize, selected: usize },
}

/// ` line N`, or nothing for the file as a whole.
fn at_line(line: usize) -> String {
    match line {
        0 => String::new(),
        line => format!(":{line}"),
    }
}

/// The shards merged into one run.
pub fn merge(shards: Vec<Shard>) -> Result<Merged, MergeError> {
    let selected = buckets(&shards)?;
    let first = &shards[0];
    let names = |shard: &Shard| -> Vec<String> {
        (shard.packages.iter())
            .map(|p| p.heading.name.clone())
            .collect()
    };
    for shard in &shards[1..] {
        if names(shard) != names(first) {
            let list = |shard| names(shard).join(", ");
            return Err(MergeError::OtherPackages {
                file: first.file.clone(),
                packages: list(first),
                other: shard.file.clone(),
                other_packages: list(shard),
            });
        }
    }
    let summary = &first.summary;
    let unreadable = (summary.unreadable.iter().zip(&summary.unreadable_packages))
        .map(|(said, package)| Unreadable::Reported {
            package: package.clone(),
            said: said.clone(),
        })
        .collect();
    let left_out = summary
        .left_out
        .as_ref()
        .map_or(LeftOut::default(), |l| LeftOut {
            invalid: l.invalid,
            beyond_original_limits: l.beyond_original_limits,
        });
    let wall_time = (shards.iter())
        .filter_map(|s| lines::duration(s.summary.time_ms).ok())
        .max()
        .unwrap_or_default();
    let mut packages: Vec<MergedPackage> = vec![];
    let files: Vec<PathBuf> = shards.iter().map(|s| s.file.clone()).collect();
    let mut columns: Vec<_> = (shards.into_iter())
        .map(|s| s.packages.into_iter())
        .collect();
    loop {
        let row: Vec<ShardPackage> = columns.iter_mut().filter_map(Iterator::next).collect();
        if row.is_empty() {
            break;
        }
        packages.push(package(row, &files)?);
    }
    let held: usize = packages.iter().map(|p| p.rows.len()).sum();
    match selected {
        Some(selected) if held != selected => Err(MergeError::Count { held, selected }),
        _ => Ok(Merged {
            unreadable,
            left_out,
            packages,
            wall_time,
        }),
    }
}

/// Checks that the shards are one whole run, or every bucket of one partition once; returns
/// how many submissions the partitioned runs selected.
fn buckets(shards: &[Shard]) -> Result<Option<usize>, MergeError> {
    let partition = |shard: &Shard| {
        let text = shard.summary.partition.as_deref()?;
        Some(text.parse::<Partition>().map_err(|e| MergeError::Line {
            file: shard.file.clone(),
            line: 0,
            bad: Bad::Field(lines::Wrong::from(e).at("partition")),
        }))
    };
    let mut seen: BTreeMap<usize, &Path> = BTreeMap::new();
    let mut first: Option<(Partition, &Shard)> = None;
    for shard in shards {
        let Some(bucket) = partition(shard) else {
            if shards.len() > 1 {
                return Err(MergeError::WholeAmongShards {
                    file: shard.file.clone(),
                });
            }
            return Ok(None);
        };
        let bucket = bucket?;
        let (one, one_shard) = *first.get_or_insert((bucket, shard));
        let differs = with_index(bucket, 1) != with_index(one, 1)
            || shard.summary.suite_total != one_shard.summary.suite_total;
        if differs {
            return Err(MergeError::OtherPartition {
                file: one_shard.file.clone(),
                bucket: one.to_string(),
                other: shard.file.clone(),
                other_bucket: bucket.to_string(),
            });
        }
        if let Some(earlier) = seen.insert(index_count(bucket).0, &shard.file) {
            return Err(MergeError::SameBucket {
                file: earlier.to_path_buf(),
                other: shard.file.clone(),
                bucket: bucket.to_string(),
            });
        }
    }
    let (one, one_shard) = first.expect("at least one shard");
    if let Some(index) = (1..=index_count(one).1).find(|i| !seen.contains_key(i)) {
        let bucket = with_index(one, index).to_string();
        return Err(MergeError::MissingBucket { bucket });
    }
    Ok(one_shard.summary.suite_total)
}

/// A bucket's index and how many buckets its partition has.
fn index_count(partition: Partition) -> (usize, usize) {
    match partition {
        Partition::Slice { index, count } | Partition::Hash { index, count } => (index, count),
    }
}

/// The bucket `index` of `partition`'s partition.
fn with_index(partition: Partition, index: usize) -> Partition {
    match partition {
        Partition::Slice { count, .. } => Partition::Slice { index, count },
        Partition::Hash { count, .. } => Partition::Hash { index, count },
    }
}

/// One package from every shard (in the shards' order): the first shard's heading, with every
/// shard's submissions; the rows in the package's order; the union of the findings.
fn package(parts: Vec<ShardPackage>, files: &[PathBuf]) -> Result<MergedPackage, MergeError> {
    let mut parts = parts.into_iter().zip(files);
    let (first, first_file) = parts.next().expect("a package of the first shard");
    let mut heading = first.heading;
    let mut outcome = first
        .outcome
        .expect("a package line closes every package read");
    let mut rows: Vec<(SubmissionRow, &PathBuf)> =
        first.rows.into_iter().map(|r| (r, first_file)).collect();
    let mut held: HashMap<String, &PathBuf> = (rows.iter())
        .map(|(row, file)| (row.submission.clone(), *file))
        .collect();
    // Each distinct limit the shards judged with, with the first shard that did.
    let mut limits = vec![(heading.time_limit.limit.clone(), first_file.clone())];
    for (part, file) in parts {
        let limit = part.heading.time_limit.limit.clone();
        if limits.iter().all(|(other, _)| *other != limit) {
            limits.push((limit, file.clone()));
        }
        for row in part.rows {
            if let Some(earlier) = held.insert(row.submission.clone(), file) {
                return Err(MergeError::Overlap {
                    package: heading.name,
                    submission: row.submission,
                    first: earlier.clone(),
                    second: file.clone(),
                });
            }
            rows.push((row, file));
        }
        union(&mut heading.submissions, part.heading.submissions);
        union(&mut heading.warnings, part.heading.warnings);
        let other = part
            .outcome
            .expect("a package line closes every package read");
        union(&mut outcome.warnings, other.warnings);
        union_by_line(&mut outcome.judging_warnings, other.judging_warnings);
        union_by_line(&mut outcome.errors, other.errors);
        union_by_line(&mut outcome.unchecked, other.unchecked);
        union_by_line(&mut outcome.judge_errors, other.judge_errors);
        outcome.margins = match (outcome.margins, other.margins) {
            (Some(facts), Some(more)) => Some(facts.combine(more)),
            // A shard from before reports carried the facts: its findings stay its lines.
            (facts, more) => facts.or(more),
        };
    }
    margins(&mut outcome);
    if limits.len() > 1 {
        outcome.errors.push(Fault::ShardLimits(limits));
    }
    // The package's order: its submissions folder by folder, each folder's by name.
    rows.sort_by(|(a, _), (b, _)| Path::new(&a.submission).cmp(Path::new(&b.submission)));
    heading
        .submissions
        .sort_by(|(a, _), (b, _)| Path::new(a).cmp(Path::new(b)));
    Ok(MergedPackage {
        heading,
        rows: rows.into_iter().map(|(row, _)| row).collect(),
        outcome,
    })
}

/// The time-limit findings of `outcome`'s facts (from every shard), where one run puts them:
/// the error after the others, the warning before the close calls.
fn margins(outcome: &mut ProblemOutcome) {
    let (Some(facts), Ok(limit)) = (&outcome.margins, &outcome.time_limit.limit) else {
        return;
    };
    let (error, thin) = margin_findings(facts, *limit);
    outcome.errors.extend(error);
    if let Some(thin) = thin {
        outcome.judging_warnings.insert(0, thin);
    }
}

/// `more` added to `found`, each once.
fn union<T: PartialEq>(found: &mut Vec<T>, more: Vec<T>) {
    for item in more {
        if !found.contains(&item) {
            found.push(item);
        }
    }
}

/// `more` added to `found`, each line once: findings read back are their lines.
fn union_by_line<T: std::fmt::Display>(found: &mut Vec<T>, more: Vec<T>) {
    for item in more {
        let line = item.to_string();
        if !found.iter().any(|f| f.to_string() == line) {
            found.push(item);
        }
    }
}

#[cfg(test)]
mod tests;
