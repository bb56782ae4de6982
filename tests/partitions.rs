//! `check --partition` through the real binary: the buckets of a partition judge every case
//! exactly once, hash buckets stay put when a case is added, and the summary names the bucket.

use crate::common;
use crate::reports::{json_ids, json_lines};

use std::collections::{BTreeMap, BTreeSet};

use common::*;

/// A suite of 23 cases over two problems.
fn partition_project() -> Project {
    let project = Project::new();
    for i in 0..17 {
        project.powers(&format!("case-{i:02}"), &[i + 1]);
    }
    for i in 0..6 {
        project.case(
            &format!("lieges-of-legendre/g/s-{i}"),
            "1 2\n3\n",
            "Nicky\n",
        );
    }
    project
}

/// The cases bucket `kind:index/count` judges, and checks its summary.
fn bucket(project: &Project, kind: &str, index: usize, count: usize, suite: usize) -> Vec<String> {
    let partition = format!("{kind}:{index}/{count}");
    let output = project.grundy(&["check", "--format", "json", "--partition", &partition]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let ids = json_ids(&output);
    let summary = json_lines(&output).pop().unwrap();
    assert_eq!(summary["partition"], partition.as_str(), "{summary}");
    assert_eq!(summary["suite_total"], suite, "{summary}");
    assert_eq!(summary["total"], ids.len(), "{summary}");
    ids
}

#[test]
fn the_buckets_of_every_partition_judge_every_case_exactly_once() {
    let project = partition_project();
    let all = json_ids(&project.grundy(&["check", "--format", "json"]));
    assert_eq!(all.len(), 23);
    for kind in ["slice", "hash"] {
        for count in 1..=5 {
            let mut seen: Vec<String> = (1..=count)
                .flat_map(|index| bucket(&project, kind, index, count, all.len()))
                .collect();
            seen.sort();
            let unique: BTreeSet<&String> = seen.iter().collect();
            assert_eq!(
                unique.len(),
                seen.len(),
                "{kind}:?/{count} judged a case twice: {seen:?}"
            );
            assert_eq!(seen, all, "{kind}:?/{count}");
        }
    }
}

#[test]
fn hash_buckets_do_not_move_when_a_case_is_added() {
    let project = partition_project();
    let buckets = |project: &Project| -> BTreeMap<String, usize> {
        let suite = json_ids(&project.grundy(&["check", "--format", "json"])).len();
        (1..=3)
            .flat_map(|index| {
                bucket(project, "hash", index, 3, suite)
                    .into_iter()
                    .map(move |id| (id, index))
            })
            .collect()
    };
    let before = buckets(&project);
    project.powers("added-later", &[5]);
    project.powers("case-08b", &[7]);
    let after = buckets(&project);
    assert_eq!(after.len(), before.len() + 2);
    for (id, index) in &before {
        assert_eq!(after.get(id), Some(index), "{id} moved");
    }
}

#[test]
fn the_human_summary_names_the_bucket_even_when_quiet() {
    let project = partition_project();
    let output = project.grundy(&["check", "-q", "--partition", "slice:2/5"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let text = stdout(&output);
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(
        text.contains("; bucket slice:2/5 held 5 of the suite's 23 cases."),
        "{text}"
    );
}
