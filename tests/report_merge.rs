//! `grundy report merge` through the real binary: the shards of `verify --partition` (slice and
//! hash, N = 1 to 4) merged give what one run on one machine gives (the human report with its
//! timings and build lines set aside, the JUnit cases and their outcomes, the JSON submission
//! lines without their timings, the HTML page's matrices and failure details with their numbers
//! masked, the exit status), a whole run merged alone is itself again, and
//! shards that cannot be merged (one cut short, a bucket missing, a bucket twice, a submission
//! in two, a field naming nothing grundy knows) are refused with the file, and the line and
//! field where there are.

use std::path::Path;
use std::process::Output;

use crate::common;
use crate::html_report::{failure_lines, matrix, visible_text, Row};

use common::{code, dump, stdout, Project};
use serde_json::Value;

/// A contest of two tiny packages: `apple` with an accepted, a wrong-answer, a time-limit and a
/// wrong-answer submission that passes (not as expected: the run fails); `zebra` with an
/// accepted, a wrong-answer one, and one that crashes with a line on stderr (a failure with a
/// detail).
fn contest() -> Project {
    let project = Project::new();
    for (name, submissions) in [
        (
            "apple",
            &[
                ("accepted/ok.py", "print(1)\n"),
                ("wrong_answer/two.py", "print(2)\n"),
                ("time_limit_exceeded/spin.py", "while True:\n    pass\n"),
                ("wrong_answer/lucky.py", "print(1)\n"),
            ][..],
        ),
        (
            "zebra",
            &[
                ("accepted/ok.py", "print(1)\n"),
                ("wrong_answer/three.py", "print(3)\n"),
                (
                    "run_time_error/crash.py",
                    "import sys\nsys.stderr.write('boom\\n')\nsys.exit(3)\n",
                ),
            ][..],
        ),
    ] {
        project.file(
            &format!("contest/{name}/problem.yaml"),
            "problem_format_version: 2023-07-draft\nname: P\nlimits:\n  time_limit: 0.2\n",
        );
        for group in ["sample", "secret"] {
            project.file(&format!("contest/{name}/data/{group}/1.in"), "");
            project.file(&format!("contest/{name}/data/{group}/1.ans"), "1\n");
        }
        for (path, source) in submissions {
            project.file(&format!("contest/{name}/submissions/{path}"), source);
        }
    }
    project
}

/// `report merge ARGS` in the project.
fn merge(project: &Project, args: &[&str]) -> Output {
    project.grundy(&[&["report", "merge"][..], args].concat())
}

/// The human report with what differs between runs of the same work set aside: times, the
/// column widths they make, and the build line (what came from the cache differs by machine).
fn human(output: &Output) -> Vec<String> {
    stdout(output)
        .lines()
        .filter(|line| !line.trim_start().starts_with("build:"))
        .map(
            |line| match line.trim_start().strip_prefix("likely because: ") {
                // Why a run was over time (the limit, the wall clock, a busy machine) is the
                // machine's doing as much as the program's: that a reason is given is compared.
                Some(why) if why.contains("limit") || why.contains("wall time") => {
                    "likely because: (timing)".to_string()
                }
                _ => {
                    let words: Vec<String> = line.split_whitespace().map(timeless).collect();
                    words.join(" ")
                }
            },
        )
        .collect()
}

/// A text with each number set aside (`0.042s` and `0.31s` read alike, `#.#s`).
fn timeless(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c.is_ascii_digit() {
            true if out.ends_with('#') => {}
            true => out.push('#'),
            false => out.push(c),
        }
    }
    out
}

/// The submission lines of a JSON report, without what timing decides.
fn submissions(output: &Output) -> Vec<Value> {
    let mut lines = vec![];
    for line in stdout(output).lines() {
        let mut value: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        if value["type"] == "submission" {
            untimed(&mut value);
            lines.push(value);
        }
    }
    lines
}

fn untimed(value: &mut Value) {
    match value {
        Value::Object(fields) => {
            for key in [
                "time_ms",
                "cpu_ms",
                "wall_ms",
                "slowest_case",
                "peak_memory_bytes",
            ] {
                fields.remove(key);
            }
            // A reason's evidence is the slowest run: which case that is, timing decides.
            if let Some(Value::Object(reason)) = fields.get_mut("reason") {
                reason.remove("case");
            }
            // Whether CPU time or, on a busy machine, the wall clock stopped a run first is the
            // machine's doing: a TLE's message says which.
            if fields.get("verdict").and_then(Value::as_str) == Some("TLE") {
                fields.remove("message");
                // And so is why it was over time (the limit, the wall clock, a busy machine).
                if let Some(Value::Object(reason)) = fields.get_mut("reason") {
                    for key in ["kind", "line"] {
                        reason.remove(key);
                    }
                }
            }
            fields.values_mut().for_each(untimed);
        }
        Value::Array(items) => items.iter_mut().for_each(untimed),
        Value::String(text) => *text = timeless(text),
        _ => {}
    }
}

/// The JUnit file's cases: suite (classname), name, and how each ended.
fn junit_cases(file: &Path) -> Vec<(String, String, &'static str)> {
    let xml = std::fs::read_to_string(file).unwrap();
    let attribute = |tag: &str, name: &str| {
        let start = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        tag[start..][..tag[start..].find('"').unwrap()].to_string()
    };
    xml.split("<testcase")
        .skip(1)
        .map(|chunk| {
            let tag = &chunk[..chunk.find('>').unwrap()];
            let body = &chunk[..chunk.find("</testcase>").unwrap_or(chunk.len())];
            let ended = if body.contains("<failure") {
                "failure"
            } else if body.contains("<error") {
                "error"
            } else if body.contains("<skipped") {
                "skipped"
            } else {
                "passed"
            };
            (attribute(tag, "classname"), attribute(tag, "name"), ended)
        })
        .collect()
}

/// A matrix of a page: each submission's row by name, and its cases in column order.
type Matrix = (Vec<(String, Row)>, Vec<String>);

/// Each matrix of the page at `file` (its cases, each submission's row: its state, what it got,
/// each case's verdict class), then each failure's line and detail with their numbers masked
/// (the times, which differ between runs).
fn page(file: &Path) -> (Vec<Matrix>, Vec<String>) {
    let html = std::fs::read_to_string(file).unwrap();
    let matrices = (html.match_indices("class=matrix"))
        .map(|(at, _)| matrix(&html[at..]))
        .collect();
    let details = html.split("<pre>").skip(1).map(|pre| {
        let pre = &pre[..pre.find("</pre>").unwrap()];
        visible_text(pre)
    });
    // What stopped a TLE first, CPU time or (on a busy machine) the wall clock, is the
    // machine's doing: only the verdict and where it happened are compared.
    let failures = (failure_lines(&html).into_iter().chain(details))
        .map(|text| match text.starts_with("TLE ") {
            true => text.split(": ").next().unwrap_or_default().to_string(),
            false => text,
        })
        .map(|text| timeless(&text))
        .collect();
    (matrices, failures)
}

/// `verify contest` (with `extra`) in both formats, the JUnit file at `junit`, the JSON run's
/// HTML page beside it (`.html` for `.xml`).
fn verified(project: &Project, extra: &[&str], junit: &str) -> (Output, Output) {
    let html = junit.replace(".xml", ".html");
    let json = project.verify(
        &[
            &[
                "contest", "--format", "json", "--junit", junit, "--html", &html,
            ][..],
            extra,
        ]
        .concat(),
    );
    let human = project.verify(&[&["contest"][..], extra].concat());
    (human, json)
}

#[test]
fn merged_shards_are_one_run_for_every_partition() {
    let project = contest();
    let (human_one, json_one) = verified(&project, &[], "one.xml");
    assert_eq!(code(&json_one), 1, "{}", dump(&json_one));
    assert_eq!(code(&human_one), 1, "{}", dump(&human_one));
    let one = (human(&human_one), submissions(&json_one));
    assert_eq!(one.1.len(), 7, "{}", dump(&json_one));
    let one_junit = junit_cases(&project.path().join("one.xml"));
    let one_page = page(&project.path().join("one.html"));
    assert_eq!(one_page.0.len(), 2, "a matrix per problem");
    assert!(
        one_page.1.iter().any(|text| text.contains("stderr:\nboom")),
        "the crash's detail: {:?}",
        one_page.1
    );

    for strategy in ["slice", "hash"] {
        for count in 1..=4 {
            let mut shards = vec![];
            for index in 1..=count {
                let bucket = format!("{strategy}:{index}/{count}");
                let shard =
                    project.verify(&["contest", "--partition", &bucket, "--format", "json"]);
                let file = format!("{strategy}-{index}-of-{count}.json");
                project.file(&file, &shard.stdout);
                shards.push(file);
            }
            let shards: Vec<&str> = shards.iter().map(String::as_str).collect();
            let html = format!("{strategy}-{count}.html");
            let merged_human = merge(&project, &[&shards[..], &["--html", &html]].concat());
            let merged_json = merge(
                &project,
                &[&shards[..], &["--format", "json", "--junit", "merged.xml"]].concat(),
            );
            let what = format!("{strategy} in {count}: {}", dump(&merged_human));
            assert_eq!(code(&merged_human), 1, "{what}");
            assert_eq!(code(&merged_json), 1, "{what}");
            assert_eq!(human(&merged_human), one.0, "{what}");
            assert_eq!(submissions(&merged_json), one.1, "{what}");
            assert_eq!(
                junit_cases(&project.path().join("merged.xml")),
                one_junit,
                "{what}"
            );
            assert_eq!(page(&project.path().join(&html)), one_page, "{what}");
        }
    }
}

#[test]
fn a_whole_run_merged_alone_is_itself() {
    let project = contest();
    let (human_one, json_one) = verified(&project, &[], "one.xml");
    project.file("whole.json", &json_one.stdout);
    let merged = merge(&project, &["whole.json"]);
    assert_eq!(code(&merged), code(&human_one), "{}", dump(&merged));
    assert_eq!(human(&merged), human(&human_one), "{}", dump(&merged));
    let merged_json = merge(&project, &["whole.json", "--format", "json"]);
    assert_eq!(submissions(&merged_json), submissions(&json_one));
}

#[test]
fn shards_that_cannot_be_merged_are_refused_where_they_are_wrong() {
    let project = contest();
    for index in 1..=3 {
        let bucket = format!("slice:{index}/3");
        let shard = project.verify(&["contest", "--partition", &bucket, "--format", "json"]);
        project.file(&format!("s{index}.json"), &shard.stdout);
    }
    let refused = |args: &[&str], said: &str| {
        let output = merge(&project, args);
        assert_eq!(code(&output), 2, "{}", dump(&output));
        assert!(
            common::stderr(&output).contains(said),
            "want `{said}`: {}",
            dump(&output)
        );
        assert!(stdout(&output).is_empty(), "{}", dump(&output));
    };
    // A shard whose summary line was lost: truncated, said past its last line.
    let whole = project.read("s2.json");
    let lines: Vec<&str> = whole.lines().collect();
    let cut = lines[..lines.len() - 1].join("\n") + "\n";
    project.file("cut.json", &cut);
    let after = lines.len();
    refused(
        &["s1.json", "cut.json", "s3.json"],
        &format!("cut.json:{after}: truncated: the report ends without its summary line"),
    );
    // Cut inside a line: that line is not JSON.
    project.file("torn.json", &whole[..whole.len() / 2]);
    refused(&["s1.json", "torn.json", "s3.json"], "torn.json:");
    refused(&["s1.json", "s3.json"], "bucket slice:2/3 is missing");
    refused(
        &["s1.json", "s2.json", "s1.json"],
        "s1.json and s1.json are both bucket slice:1/3",
    );
    // Bucket 1 again, claiming to be bucket 2: its submissions are in two shards.
    let s1 = project.read("s1.json");
    project.file(
        "again.json",
        s1.replace("\"partition\":\"slice:1/3\"", "\"partition\":\"slice:2/3\""),
    );
    refused(
        &["s1.json", "again.json", "s3.json"],
        "is in both s1.json and again.json",
    );
    // Another command's report (its summary says whose).
    let other = s1.replace("\"command\":\"verify\"", "\"command\":\"check\"");
    project.file("check.json", &other);
    let last = s1.lines().count();
    refused(
        &["check.json"],
        &format!("check.json:{last}: a report of `check`, not of verify"),
    );
    // An older schema.
    project.file("old.json", s1.replace("\"schema\":1", "\"schema\":99"));
    refused(&["old.json"], "schema 99");
    // A field JSON reads but grundy does not: its line and its field named.
    let lines: Vec<Value> = (s1.lines())
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let bad_field = |file: &str, kind: &str, field: &str, value: Value, said: &str| {
        let mut lines = lines.clone();
        let at = lines.iter().position(|line| line["type"] == kind).unwrap();
        lines[at][field] = value;
        let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
        project.file(file, &text);
        refused(
            &[file],
            &format!("{file}:{}: field `{field}`: {said}", at + 1),
        );
    };
    bad_field(
        "verdict.json",
        "submission",
        "verdict",
        "XX".into(),
        "`XX` is no verdict",
    );
    bad_field(
        "limit.json",
        "heading",
        "time_limit_ms",
        (-5.0).into(),
        "-5 is no time in milliseconds",
    );
}

/// A submission nothing says the verdict of is skipped with its reason; the reason is the same
/// line in the report of the run, in its JSON line, and in the report merged from that line
/// (read back as the shard said it, in every format).
#[test]
fn a_skipped_submission_keeps_its_reason_when_merged() {
    let project = Project::new();
    project.file(
        "p/problem.yaml",
        "problem_format_version: 2023-07-draft\nname: P\nlimits:\n  time_limit: 0.5\n",
    );
    project.file("p/data/secret/1.in", "");
    project.file("p/data/secret/1.ans", "1\n");
    project.file("p/submissions/accepted/ok.py", "print(1)\n");
    project.file("p/submissions/untagged/odd.py", "print(1)\n");
    let why = "skipped: nothing says what it must get (its folder is not one the format knows, \
               and no submissions.yaml glob or @EXPECTED_RESULTS@ tag says)";
    let line = format!("    - untagged/odd.py: {why}");
    let live = project.verify(&["p"]);
    assert!(stdout(&live).lines().any(|l| l == line), "{}", dump(&live));
    let json = project.verify(&["p", "--format", "json"]);
    let odd = |output: &Output| {
        (submissions(output).into_iter())
            .find(|row| row["submission"] == "untagged/odd.py")
            .map(|row| row["skipped"].clone())
    };
    assert_eq!(odd(&json), Some(Value::from(why)), "{}", dump(&json));
    project.file("shard.json", &json.stdout);
    let merged = merge(&project, &["shard.json", "--junit", "merged.xml"]);
    assert_eq!(code(&merged), 0, "{}", dump(&merged));
    assert!(
        stdout(&merged).lines().any(|l| l == line),
        "{}",
        dump(&merged)
    );
    let merged_json = merge(&project, &["shard.json", "--format", "json"]);
    assert_eq!(odd(&merged_json), Some(Value::from(why)));
    let junit = project.read("merged.xml");
    assert!(
        junit.contains(&format!("<skipped message=\"{why}\"")),
        "{junit}"
    );
}

/// A CPU burner: spins until its own CPU clock reaches `seconds`, then answers.
fn burner(seconds: f64) -> String {
    format!("import time\nwhile time.process_time() < {seconds}:\n    pass\nprint(1)\n")
}

/// The package line of a JSON report.
fn package_line(output: &Output) -> Value {
    (stdout(output).lines())
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .find(|line| line["type"] == "package")
        .unwrap_or_else(|| panic!("no package line: {}", dump(output)))
}

/// A fixed limit of 0.25 s that two time-limit-exceeded submissions, one per shard, are both
/// too near (1.3 and 1.6 times it, under `time_limit_to_tle` 2): merged, the package has the
/// one time-limit error one run has, from the faster of the two, and not each shard's (in the
/// JSON line, the JUnit file and the HTML page).
#[test]
fn time_limit_margins_are_computed_once_from_every_shard() {
    let project = Project::new();
    project.file(
        "contest/p/problem.yaml",
        "problem_format_version: 2023-07-draft\nname: P\nlimits:\n  time_limit: 0.25\n  \
         time_multipliers:\n    time_limit_to_tle: 2\n",
    );
    project.file("contest/p/data/secret/1.in", "");
    project.file("contest/p/data/secret/1.ans", "1\n");
    project.file("contest/p/submissions/accepted/ok.py", "print(1)\n");
    let (fast, slow) = ("time_limit_exceeded/fast.py", "time_limit_exceeded/slow.py");
    project.file(&format!("contest/p/submissions/{fast}"), burner(0.325));
    project.file(&format!("contest/p/submissions/{slow}"), burner(0.4));
    let one = project.verify(&[
        "contest", "--format", "json", "--junit", "one.xml", "--html", "one.html",
    ]);
    assert_eq!(code(&one), 1, "{}", dump(&one));
    let one_line = package_line(&one);
    assert_eq!(
        one_line["errors"].as_array().unwrap().len(),
        1,
        "{one_line}"
    );
    assert_eq!(one_line["margins"]["error"], 0, "{one_line}");
    assert_eq!(one_line["margins"]["fastest_tle"]["submission"], fast);
    let mut shards = vec![];
    for index in 1..=2 {
        let shard = project.verify(&[
            "contest",
            "--partition",
            &format!("slice:{index}/2"),
            "--format",
            "json",
        ]);
        let file = format!("shard-{index}.json");
        project.file(&file, &shard.stdout);
        // Each shard holds one of the two, and finds the limit too near it by itself.
        let line = package_line(&shard);
        assert_eq!(line["errors"].as_array().unwrap().len(), 1, "{line}");
        let tle = line["margins"]["fastest_tle"]["submission"].clone();
        shards.push((file, tle));
    }
    let held: Vec<&Value> = shards.iter().map(|(_, tle)| tle).collect();
    assert!(held.contains(&&Value::from(fast)) && held.contains(&&Value::from(slow)));
    let files: Vec<&str> = shards.iter().map(|(file, _)| file.as_str()).collect();
    let merged = merge(
        &project,
        &[
            &files[..],
            &[
                "--format",
                "json",
                "--junit",
                "merged.xml",
                "--html",
                "merged.html",
            ],
        ]
        .concat(),
    );
    assert_eq!(code(&merged), 1, "{}", dump(&merged));
    let line = package_line(&merged);
    assert_eq!(line["errors"].as_array().unwrap().len(), 1, "{line}");
    assert_eq!(line["margins"]["error"], 0, "{line}");
    assert_eq!(line["margins"]["fastest_tle"]["submission"], fast, "{line}");
    assert_eq!(
        timeless(&line["errors"][0].to_string()),
        timeless(&one_line["errors"][0].to_string())
    );
    // The JUnit file tells the package's error once (its failure's message and text), as one
    // run's does.
    let told = |file: &str| project.read(file).matches("time_limit_to_tle").count();
    assert_eq!(told("one.xml"), 2, "{}", project.read("one.xml"));
    assert_eq!(told("merged.xml"), 2, "{}", project.read("merged.xml"));
    // And the HTML page as often as one run's.
    assert_ne!(told("one.html"), 0, "{}", project.read("one.html"));
    assert_eq!(told("merged.html"), told("one.html"));
}

/// A package whose time limit is computed from its accepted submissions: the fast one in shard
/// 1, the slow one (0.8 s of CPU, × 2 rounded up to 2 s) in shard 2. Each shard times the other's
/// too, so both judge with the 2 s one run computes (shard 1 alone would compute 1 s from its
/// fast one) and report only their own; merged, one limit.
#[test]
fn every_shard_computes_a_computed_time_limit_from_all_the_accepted_submissions() {
    let project = Project::new();
    project.file(
        "contest/p/problem.yaml",
        "problem_format_version: 2023-07-draft\nname: P\n",
    );
    project.file("contest/p/data/secret/1.in", "");
    project.file("contest/p/data/secret/1.ans", "1\n");
    project.file("contest/p/submissions/accepted/fast.py", "print(1)\n");
    project.file("contest/p/submissions/accepted/slow.py", burner(0.8));
    let limit_of = |output: &Output| {
        let heading = (stdout(output).lines())
            .map(|line| serde_json::from_str::<Value>(line).unwrap())
            .find(|line| line["type"] == "heading")
            .unwrap_or_else(|| panic!("no heading: {}", dump(output)));
        heading["time_limit_ms"].clone()
    };
    let one = project.verify(&["contest", "--format", "json"]);
    assert_eq!(code(&one), 0, "{}", dump(&one));
    assert_eq!(limit_of(&one), Value::from(2000.0), "{}", dump(&one));
    let mut files = vec![];
    for (index, own) in [(1, "accepted/fast.py"), (2, "accepted/slow.py")] {
        let bucket = format!("slice:{index}/2");
        let shard = project.verify(&["contest", "--partition", &bucket, "--format", "json"]);
        assert_eq!(code(&shard), 0, "{}", dump(&shard));
        assert_eq!(limit_of(&shard), Value::from(2000.0), "{}", dump(&shard));
        let held: Vec<Value> = (submissions(&shard).iter())
            .map(|row| row["submission"].clone())
            .collect();
        assert_eq!(held, [Value::from(own)], "{}", dump(&shard));
        let file = format!("shard-{index}.json");
        project.file(&file, &shard.stdout);
        files.push(file);
    }
    let merged = merge(
        &project,
        &[files[0].as_str(), &files[1], "--format", "json"],
    );
    assert_eq!(code(&merged), 0, "{}", dump(&merged));
    assert_eq!(limit_of(&merged), Value::from(2000.0), "{}", dump(&merged));
}

/// Shards that judged a package with different time limits (as a computed limit timed either
/// side of a rounding step on two machines would): merged all the same, that package invalid
/// for it, naming each shard's limit and file, the other package untouched.
#[test]
fn a_package_judged_with_different_limits_in_two_shards_is_invalid_and_the_rest_merged() {
    let project = contest();
    for index in 1..=2 {
        let bucket = format!("slice:{index}/2");
        let shard = project.verify(&["contest", "--partition", &bucket, "--format", "json"]);
        project.file(&format!("s{index}.json"), &shard.stdout);
    }
    // Shard 2 says it judged `apple` with 0.4 s, not the 0.2 s of its problem.yaml.
    let s2: String = (project.read("s2.json").lines())
        .map(|line| {
            let mut value: Value = serde_json::from_str(line).unwrap();
            if value["type"] == "heading" && value["package"] == "apple" {
                value["time_limit_ms"] = 400.0.into();
            }
            format!("{value}\n")
        })
        .collect();
    project.file("s2.json", s2);
    let merged = merge(&project, &["s1.json", "s2.json", "--format", "json"]);
    assert_eq!(code(&merged), 1, "{}", dump(&merged));
    let packages: Vec<Value> = (stdout(&merged).lines())
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|line| line["type"] == "package")
        .collect();
    let apple = packages.iter().find(|p| p["package"] == "apple").unwrap();
    let zebra = packages.iter().find(|p| p["package"] == "zebra").unwrap();
    assert_eq!(apple["status"], "invalid", "{apple}");
    let said = apple["errors"].to_string();
    assert!(
        said.contains("different limits (0.2s in s1.json, 0.4s in s2.json)"),
        "{said}"
    );
    assert_eq!(zebra["errors"], Value::Array(vec![]), "{zebra}");
    // Every submission of both shards is there.
    assert_eq!(submissions(&merged).len(), 7, "{}", dump(&merged));
}

/// A package whose `generators.yaml` cannot be used is told with its plan's located errors, a
/// line each; merged, the report tells it the same way (the JSON keeps its lines, so the
/// merge reads back what one run said), in the human report and the JUnit file.
#[test]
fn an_unusable_plan_is_told_line_by_line_when_merged() {
    let project = contest();
    project.file(
        "contest/plan/problem.yaml",
        "problem_format_version: 2023-07-draft\nname: P\nlimits:\n  time_limit: 1\n",
    );
    project.file(
        "contest/plan/generators/generators.yaml",
        "solution: 5\ndata:\n  sample: 3\n",
    );
    let (human_one, json_one) = verified(&project, &[], "one.xml");
    assert_eq!(code(&human_one), 2, "{}", dump(&human_one));
    let summary: Value = serde_json::from_str(stdout(&json_one).lines().last().unwrap()).unwrap();
    let said = summary["unreadable"][0].as_str().unwrap();
    assert_eq!(
        said.lines().count(),
        3,
        "the heading and two located errors: {said}"
    );
    project.file("whole.json", &json_one.stdout);
    let merged = merge(&project, &["whole.json"]);
    assert_eq!(human(&merged), human(&human_one), "{}", dump(&merged));
    merge(&project, &["whole.json", "--junit", "merged.xml"]);
    let mask = |file: &str| {
        let text = project.read(file);
        let mut kept = String::new();
        for part in text.split(" time=\"") {
            match kept.is_empty() {
                true => kept.push_str(part),
                false => kept.push_str(part.split_once('"').map_or(part, |(_, rest)| rest)),
            }
        }
        kept
    };
    assert_eq!(mask("merged.xml"), mask("one.xml"));
}
