//! `grundy verify PKG` on scoring packages the tests write, through the real binary: `tasks`
//! (legacy `grading`, in the shape of problemtools' `oddecho`: groups, `on_reject: continue`,
//! `accept_if_any_accepted`, `ignore_sample`) and `points` (2025-09: `max_score` and each
//! `score_aggregation`, a custom output validator writing `score.txt`, `submissions.yaml` score
//! ranges), and `golf` (legacy `objective: min`: a lower score is better). Every expected score below is worked out by hand from the format's rules, in the
//! comment beside it. Programs and validators are Python.

use crate::common;

use std::process::Output;

use common::{code, dump, row, stdout, verify_json as json, Project};
use serde_json::{json, Value};

/// Every case's input is one integer; the answer is that integer.
const ECHO: &str = "print(input())\n";

/// Legacy `tasks`. Cases (judging order): sample/1 (1), secret/group1/{a,b,c} (11, 12, 13),
/// secret/group2/{a,b} (21, 22). A legacy group takes its settings whole from the nearest
/// `testdata.yaml`, so every group states its own.
fn tasks(project: &Project) {
    let files: &[(&str, &str)] = &[
        ("problem.yaml", "name: Tasks\ntype: scoring\n"),
        (
            "data/testdata.yaml",
            "on_reject: continue\nrange: 0 100\ngrader_flags: ignore_sample\n",
        ),
        (
            "data/sample/testdata.yaml",
            "on_reject: continue\nrange: 0 0\naccept_score: 0\ngrader_flags: first_error\n",
        ),
        (
            "data/secret/testdata.yaml",
            "on_reject: continue\nrange: 0 100\ngrader_flags: first_error accept_if_any_accepted\n",
        ),
        // Each case 10; every case judged.
        (
            "data/secret/group1/testdata.yaml",
            "on_reject: continue\naccept_score: 10\nrange: 0 30\n",
        ),
        // Each case 35; the group stops at its first rejection (`on_reject: break`).
        (
            "data/secret/group2/testdata.yaml",
            "accept_score: 35\nrange: 0 70\n",
        ),
        ("data/sample/1.in", "1\n"),
        ("data/sample/1.ans", "1\n"),
        ("data/secret/group1/a.in", "11\n"),
        ("data/secret/group1/a.ans", "11\n"),
        ("data/secret/group1/b.in", "12\n"),
        ("data/secret/group1/b.ans", "12\n"),
        ("data/secret/group1/c.in", "13\n"),
        ("data/secret/group1/c.ans", "13\n"),
        ("data/secret/group2/a.in", "21\n"),
        ("data/secret/group2/a.ans", "21\n"),
        ("data/secret/group2/b.in", "22\n"),
        ("data/secret/group2/b.ans", "22\n"),
        ("submissions/accepted/echo.py", ECHO),
        // Right below 20 only.
        (
            "submissions/partially_accepted/small.py",
            "x = int(input())\nprint(x if x < 20 else 0)\n",
        ),
        // Wrong on 12 only.
        (
            "submissions/partially_accepted/skip12.py",
            "x = int(input())\nprint(0 if x == 12 else x)\n",
        ),
        ("submissions/wrong_answer/zero.py", "input()\nprint(0)\n"),
    ];
    for (path, text) in files {
        project.file(&format!("tasks/{path}"), text);
    }
}

/// Legacy `golf`, where a lower score is better: print a number at least the input; the
/// validator scores the number printed. Cases secret/1 (3) and secret/2 (4); the full score is
/// the bottom of the range, 3 + 4 = 7.
fn golf(project: &Project) {
    let validator = r#"import sys
n = int(open(sys.argv[1]).read())
output = sys.stdin.read().split()
if len(output) != 1 or not output[0].isdigit() or int(output[0]) < n:
    sys.exit(43)
open(sys.argv[3] + 'score.txt', 'w').write(output[0])
sys.exit(42)
"#;
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "name: Golf\ntype: scoring\nvalidation: custom score\ngrading:\n  objective: min\n",
        ),
        ("data/testdata.yaml", "range: 7 100\n"),
        ("data/secret/1.in", "3\n"),
        ("data/secret/1.ans", "3\n"),
        ("data/secret/2.in", "4\n"),
        ("data/secret/2.ans", "4\n"),
        ("output_validators/check.py", validator),
        ("submissions/accepted/exact.py", ECHO),
        (
            "submissions/partially_accepted/double.py",
            "print(2 * int(input()))\n",
        ),
        ("submissions/partially_accepted/exact_too.py", ECHO),
    ];
    for (path, text) in files {
        project.file(&format!("golf/{path}"), text);
    }
}

/// The output validator of `points`: the first word must be the answer; a second word, when
/// given, is written to `score.txt` as the case's score.
const SCORING_VALIDATOR: &str = r#"import sys
answer = open(sys.argv[2]).read().split()
output = sys.stdin.read().split()
if output[:1] != answer:
    sys.exit(43)
if len(output) > 1:
    open(sys.argv[3] + 'score.txt', 'w').write(output[1])
sys.exit(42)
"#;

/// 2025-09 `points`. Cases: sample/1 (1), secret/group1/a (11) in a pass-fail group worth 20,
/// secret/group2/{a,b} (21, 22) summed, worth 30 (15 a case), secret/group3/{a,b} (31, 32) by
/// their minimum, worth 50 (50 a case).
fn points(project: &Project) {
    // Echoes, then a score for the cases of groups 2 and 3: 10 and 10 (of 15 each), 25 and 40
    // (of 50 each).
    let scored = "x = int(input())\nprint(x, {21: 10, 22: 10, 31: 25, 32: 40}.get(x, ''))\n";
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "problem_format_version: 2025-09\nname: Points\ntype: scoring\n",
        ),
        ("data/secret/test_group.yaml", "max_score: 100\n"),
        ("data/secret/group1/test_group.yaml", "max_score: 20\n"),
        (
            "data/secret/group2/test_group.yaml",
            "max_score: 30\nscore_aggregation: sum\n",
        ),
        (
            "data/secret/group3/test_group.yaml",
            "max_score: 50\nscore_aggregation: min\n",
        ),
        ("data/sample/1.in", "1\n"),
        ("data/sample/1.ans", "1\n"),
        ("data/secret/group1/a.in", "11\n"),
        ("data/secret/group1/a.ans", "11\n"),
        ("data/secret/group2/a.in", "21\n"),
        ("data/secret/group2/a.ans", "21\n"),
        ("data/secret/group2/b.in", "22\n"),
        ("data/secret/group2/b.ans", "22\n"),
        ("data/secret/group3/a.in", "31\n"),
        ("data/secret/group3/a.ans", "31\n"),
        ("data/secret/group3/b.in", "32\n"),
        ("data/secret/group3/b.ans", "32\n"),
        ("output_validator/validate.py", SCORING_VALIDATOR),
        ("submissions/accepted/echo.py", ECHO),
        ("submissions/mixed/scored.py", scored),
        ("submissions/mixed/hoped.py", scored),
        ("submissions/wrong_answer/zero.py", "input()\nprint(0)\n"),
        (
            "submissions/submissions.yaml",
            "mixed/scored.py:\n  permitted: [AC]\n  score: [60, 70]\n  secret/group3:\n    score: 25\n\
             mixed/hoped.py:\n  permitted: [AC]\n  score: [70, 100]\n",
        ),
    ];
    for (path, text) in files {
        project.file(&format!("points/{path}"), text);
    }
}

/// A row's total, full score and group scores (`[group, score, max_score]`) from the JSON.
fn scores(row: &Value) -> (Value, Value, Vec<Value>) {
    let groups = row["group_scores"]
        .as_array()
        .unwrap_or_else(|| panic!("no group_scores: {row}"))
        .iter()
        .map(|g| json!([g["group"], g["score"], g["max_score"]]))
        .collect();
    (row["score"].clone(), row["max_score"].clone(), groups)
}

/// The score line printed under a submission's row in the human report.
fn score_line(output: &Output, submission: &str) -> String {
    let text = stdout(output);
    let mut lines = text.lines().skip_while(|l| !l.contains(submission));
    lines
        .next()
        .unwrap_or_else(|| panic!("no row {submission}\n{text}"));
    lines
        .next()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

#[test]
fn legacy_grading_scores_every_group_and_the_folders_get_what_they_demand() {
    let project = Project::new();
    tasks(&project);
    let output = project.verify(&["tasks", "--format", "json"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let (rows, summary) = json(&output);
    let verdict = |id: &str| {
        (
            row(&rows, id)["verdict"].clone(),
            row(&rows, id)["ok"].clone(),
        )
    };
    for id in ["accepted/echo.py", "partially_accepted/small.py"] {
        assert_eq!(verdict(id), (json!("AC"), json!(true)), "{id}");
    }
    assert_eq!(
        verdict("partially_accepted/skip12.py"),
        (json!("AC"), json!(true))
    );
    assert_eq!(verdict("wrong_answer/zero.py"), (json!("WA"), json!(true)));
    // Group scores in the order grading finishes them: a group after its children, `data`
    // (whose score is the total) last.
    let groups = |sample, g1, g2, secret, data| {
        vec![
            json!(["sample", sample, 0.0]),
            json!(["secret/group1", g1, 30.0]),
            json!(["secret/group2", g2, 70.0]),
            json!(["secret", secret, 100.0]),
            json!(["data", data, 100.0]),
        ]
    };
    // All right: 3 × 10 + 2 × 35 = 100; sample scores 0 and `ignore_sample` drops it.
    assert_eq!(
        scores(row(&rows, "accepted/echo.py")),
        (
            json!(100.0),
            json!(100.0),
            groups(0.0, 30.0, 70.0, 100.0, 100.0)
        )
    );
    // Group 1 all right (30); group 2 stops at its first case (21, wrong): 0 and WA. secret
    // accepts because a child was accepted: AC with 30 + 0.
    assert_eq!(
        scores(row(&rows, "partially_accepted/small.py")),
        (
            json!(30.0),
            json!(100.0),
            groups(0.0, 30.0, 0.0, 30.0, 30.0)
        )
    );
    // Group 1 wrong on 12 but `on_reject: continue` judges 13: 10 + 0 + 10 = 20; group 2 70;
    // secret AC with 90.
    assert_eq!(
        scores(row(&rows, "partially_accepted/skip12.py")),
        (
            json!(90.0),
            json!(100.0),
            groups(0.0, 20.0, 70.0, 90.0, 90.0)
        )
    );
    // Nothing right: every group WA with 0; secret's first error is WA.
    assert_eq!(
        scores(row(&rows, "wrong_answer/zero.py")),
        (json!(0.0), json!(100.0), groups(0.0, 0.0, 0.0, 0.0, 0.0))
    );
    assert_eq!(
        (&summary["passed"], &summary["failed"]),
        (&json!(4), &json!(0)),
        "{summary}"
    );

    let human = project.verify(&["tasks"]);
    assert_eq!(code(&human), 0, "{}", dump(&human));
    assert_eq!(
        score_line(&human, "partially_accepted/skip12.py"),
        "score 90 of 100: sample 0/0, secret/group1 20/30, secret/group2 70/70, secret 90/100"
    );
}

#[test]
fn a_2025_09_package_scores_by_aggregation_validator_scores_and_submissions_yaml() {
    let project = Project::new();
    points(&project);
    let output = project.verify(&["points", "--format", "json"]);
    // mixed/hoped.py scores below its range: a failure.
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let (rows, summary) = json(&output);
    let groups = |g1, g2, g3, secret| {
        vec![
            json!(["secret/group1", g1, 20.0]),
            json!(["secret/group2", g2, 30.0]),
            json!(["secret/group3", g3, 50.0]),
            json!(["secret", secret, 100.0]),
        ]
    };
    // All right, no score files: each group its maximum, 20 + 30 + 50.
    let echo = row(&rows, "accepted/echo.py");
    assert_eq!(echo["ok"], true, "{echo}");
    assert_eq!(
        scores(echo),
        (json!(100.0), json!(100.0), groups(20.0, 30.0, 50.0, 100.0))
    );
    // Group 1 passes (20); group 2 sums 10 + 10; group 3 takes min(25, 40): 20 + 20 + 25 = 65.
    for id in ["mixed/scored.py", "mixed/hoped.py"] {
        assert_eq!(
            scores(row(&rows, id)),
            (json!(65.0), json!(100.0), groups(20.0, 20.0, 25.0, 65.0)),
            "{id}"
        );
    }
    // 65 is in [60, 70] and group 3's 25 is as demanded; 65 is not in [70, 100].
    assert_eq!(row(&rows, "mixed/scored.py")["ok"], true);
    let hoped = row(&rows, "mixed/hoped.py");
    assert_eq!(hoped["ok"], false, "{hoped}");
    let problem = hoped["problem"].as_str().unwrap_or_default();
    assert!(problem.contains("score 65 is outside [70, 100]"), "{hoped}");
    let zero = row(&rows, "wrong_answer/zero.py");
    assert_eq!(
        (&zero["verdict"], &zero["ok"]),
        (&json!("WA"), &json!(true))
    );
    assert_eq!(
        scores(zero),
        (json!(0.0), json!(100.0), groups(0.0, 0.0, 0.0, 0.0))
    );
    assert_eq!(
        (&summary["passed"], &summary["failed"]),
        (&json!(3), &json!(1)),
        "{summary}"
    );

    let junit = project.path().join("report.xml");
    let human = project.verify(&["points", "--junit", junit.to_str().unwrap()]);
    assert_eq!(code(&human), 1, "{}", dump(&human));
    assert_eq!(
        score_line(&human, "mixed/scored.py"),
        "score 65 of 100: secret/group1 20/20, secret/group2 20/30, secret/group3 25/50"
    );
    let text = stdout(&human);
    assert!(
        text.contains("mixed/hoped.py: score 65 is outside [70, 100]"),
        "{text}"
    );

    // JUnit: the score line as the test case's output, the numbers as its properties.
    let xml = std::fs::read_to_string(&junit).unwrap();
    let document = roxmltree::Document::parse(&xml).unwrap();
    let case = document
        .descendants()
        .find(|n| n.has_tag_name("testcase") && n.attribute("name") == Some("mixed/scored.py"))
        .unwrap_or_else(|| panic!("no mixed/scored.py\n{xml}"));
    let out = case
        .children()
        .find(|c| c.has_tag_name("system-out"))
        .and_then(|c| c.text())
        .unwrap_or_default();
    assert_eq!(
        out.trim(),
        "score 65 of 100: secret/group1 20/20, secret/group2 20/30, secret/group3 25/50"
    );
    let properties: Vec<(&str, &str)> = case
        .descendants()
        .filter(|n| n.has_tag_name("property"))
        .map(|p| (p.attribute("name").unwrap(), p.attribute("value").unwrap()))
        .collect();
    assert_eq!(properties, [("score", "65"), ("max_score", "100")]);
}

#[test]
fn with_objective_min_the_lowest_score_is_the_full_one() {
    let project = Project::new();
    golf(&project);
    let output = project.verify(&["golf", "--format", "json"]);
    // exact_too.py gets the full score where a partial one is due.
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let (rows, _) = json(&output);
    let min = |row: &Value| (row["objective"].clone(), row["min_score"].clone());
    // 3 + 4 = 7, the bottom of the range: full.
    let exact = row(&rows, "accepted/exact.py");
    assert_eq!((&exact["score"], &exact["ok"]), (&json!(7.0), &json!(true)));
    assert_eq!(min(exact), (json!("min"), json!(7.0)));
    assert_eq!(exact["max_score"], json!(100.0));
    // 6 + 8 = 14: worse than 7, better than 100.
    let double = row(&rows, "partially_accepted/double.py");
    assert_eq!(
        (&double["score"], &double["ok"]),
        (&json!(14.0), &json!(true))
    );
    let too = row(&rows, "partially_accepted/exact_too.py");
    assert_eq!((&too["score"], &too["ok"]), (&json!(7.0), &json!(false)));
    let problem = too["problem"].as_str().unwrap_or_default();
    assert!(problem.contains("short of the full 7"), "{too}");

    let human = project.verify(&["golf"]);
    assert_eq!(code(&human), 1, "{}", dump(&human));
    assert_eq!(
        score_line(&human, "partially_accepted/double.py"),
        "score 14, lower is better, full 7: secret 14"
    );
}
