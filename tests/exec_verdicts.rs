//! `check --exec` through the real binary: the verdicts of programs that answer, answer wrongly
//! or fail, what the report shows of them, how the command is split, and commands that cannot
//! be started. Each run also holds ordinary cases, which must still be judged correctly.

use crate::common;
use crate::exec_support;

use common::{case_block, closing_line, code, dump, stderr, stdout, verdict_of};
use exec_support::*;

#[test]
fn a_correct_program_is_accepted_on_every_case() {
    let project = fixture();
    let program = c_program(&project, "correct", "");
    let judged = check_json(&project, &["check", "--exec", &exec_arg(&program)]);
    judged.assert_verdicts("AC");
    for id in judged.order.iter() {
        assert!(
            judged.case(id).get("message").is_none(),
            "{}",
            judged.dump()
        );
    }
}

#[test]
fn a_wrong_answer_is_wa_with_a_diff() {
    let project = fixture();
    // The hostile case is 777777 4 5: Cici Kiki Kiki. Answer Kiki three times.
    let program = c_program(
        &project,
        "wrong",
        r#"puts("Kiki"); puts("Kiki"); puts("Kiki"); exit(0);"#,
    );
    let judged = check_json(&project, &["check", "--exec", &exec_arg(&program)]);
    judged.assert_verdicts("WA");
    let message = judged.message(HOSTILE);
    assert!(
        message.contains("Cici") && message.contains("Kiki"),
        "{message}"
    );
    let diff = judged.case(HOSTILE)["diff"].as_str().unwrap_or_default();
    assert!(diff.contains("-Cici"), "{}", judged.dump());
    assert!(diff.contains("+Kiki"), "{}", judged.dump());

    // The human report shows the same diff under the failure.
    let output = project.grundy(&["check", "--exec", &exec_arg(&program)]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let block = case_block(&output, HOSTILE);
    assert!(block.starts_with("FAIL WA"), "{block}");
    assert!(
        block.contains("-Cici") && block.contains("+Kiki"),
        "{block}"
    );
    assert_eq!(closing_line(&output), "3 passed, 1 failed");
}

#[test]
fn a_non_zero_exit_is_re_with_the_status() {
    let project = fixture();
    let program = sh_program(&project, "exit3", "exit 3");
    let judged = check_json(&project, &["check", "--exec", &exec_arg(&program)]);
    judged.assert_verdicts("RE");
    assert!(
        judged.message(HOSTILE).contains("status 3"),
        "{}",
        judged.dump()
    );
}

#[test]
fn abort_is_re_naming_sigabrt() {
    let project = fixture();
    let program = c_program(&project, "aborts", "abort();");
    let judged = check_json(&project, &["check", "--exec", &exec_arg(&program)]);
    judged.assert_verdicts("RE");
    assert!(
        judged.message(HOSTILE).contains("SIGABRT"),
        "{}",
        judged.dump()
    );
}

#[test]
fn the_start_of_stderr_is_shown_on_failure_and_the_report_stays_small() {
    let project = fixture();
    // About 100 KiB of stderr, then a failure.
    let program = sh_program(
        &project,
        "chatty",
        r#"i=0
while [ $i -lt 5000 ]; do echo "debug line $i: the quick brown fox jumps" >&2; i=$((i + 1)); done
exit 1"#,
    );
    let exec = exec_arg(&program);

    let output = project.grundy(&["check", "-v", "--exec", &exec]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    for id in ORDINARY {
        assert_eq!(verdict_of(&output, id), "AC", "{}", dump(&output));
    }
    let block = case_block(&output, HOSTILE);
    assert!(block.starts_with("FAIL RE"), "{block}");
    assert!(block.contains("status 1"), "{block}");
    assert!(block.contains("      stderr:\n"), "{block}");
    assert!(block.contains("| debug line 0: the quick"), "{block}");
    assert!(block.contains("| debug line 1: the quick"), "{block}");
    assert!(!block.contains("debug line 4999"), "{block}");
    assert!(
        stdout(&output).len() < 16 << 10,
        "the report is {} bytes",
        stdout(&output).len()
    );

    let judged = check_json(&project, &["check", "--exec", &exec]);
    judged.assert_verdicts("RE");
    let kept = judged.case(HOSTILE)["stderr"].as_str().unwrap_or_default();
    assert!(kept.starts_with("debug line 0: "), "{}", judged.dump());
    assert!(
        (1 << 10..=16 << 10).contains(&kept.len()),
        "{} bytes of stderr kept",
        kept.len()
    );
    for id in ORDINARY {
        assert!(judged.case(id).get("stderr").is_none(), "{}", judged.dump());
    }
}

#[test]
fn sh_c_with_quotes_is_split_like_a_shell() {
    let project = fixture();
    // A quoted shell program with its own quotes inside; no shell splits it but grundy.
    let command = r#"sh -c 'for n in $(cat); do if [ "$n" = "777777" ]; then echo "Kiki"; elif [ $((n % 3)) -eq 0 ]; then echo "Cici"; else echo Kiki; fi; done'"#;
    let judged = check_json(&project, &["check", "--exec", command]);
    // The marker gets Kiki although 3 divides it: WA there, AC elsewhere.
    judged.assert_verdicts("WA");

    // A program in a folder with a space, given an argument with a space and a quote.
    let dir = project.path().join("my programs");
    std::fs::create_dir_all(&dir).unwrap();
    let program = script_file(
        &project,
        "my programs/args.sh",
        r#"#!/bin/sh
[ "$#" = 2 ] && [ "$1" = "two words" ] && [ "$2" = "it's" ] || { echo "argv: $*" >&2; exit 9; }
for n in $(cat); do
    if [ $((n % 3)) -eq 0 ]; then echo Cici; else echo Kiki; fi
done
"#,
    );
    let command = format!(
        r#""{}" 'two words' "it's""#,
        program.display().to_string().replace('"', r#"\""#)
    );
    let judged = check_json(&project, &["check", "--exec", &command]);
    judged.assert_verdicts("AC");
}

#[test]
fn code_given_to_a_shell_is_its_code_and_files_after_it_are_still_found() {
    let project = fixture();
    c_program(&project, "correct", "");
    // The script starts the program through `$0`, which grundy makes absolute and shows it.
    let command = r#"sh -c 'exec "$0"' ./programs/correct"#;
    check_json(&project, &["check", "--exec", command]).assert_verdicts("AC");
    // A redirect and slashes inside the script: words of the script, not files.
    let command = r#"sh -c 'cat > ./in && exec "$0" < ./in 2>/dev/null' ./programs/correct"#;
    check_json(&project, &["check", "--exec", command]).assert_verdicts("AC");
    // Handed to the shell as written, and run in the program's own empty folder, where no
    // `./programs/correct` is: a failure of the program, not a refused command.
    let judged = check_json(
        &project,
        &["check", "--exec", "sh -c 'exec ./programs/correct'"],
    );
    assert_eq!(judged.code(), 1, "{}", judged.dump());
    for id in ORDINARY {
        assert_eq!(judged.verdict(id), "RE", "{}", judged.dump());
    }
    // A real file that is missing is still refused before anything runs.
    let judged = check_json(
        &project,
        &["check", "--exec", "sh -c 'exit 0' sh missing.sh"],
    );
    assert_eq!(judged.code(), 2, "{}", judged.dump());
    assert!(
        stderr(&judged.output).contains("`missing.sh`"),
        "{}",
        judged.dump()
    );
}

#[test]
fn relative_paths_name_files_in_the_folder_grundy_runs_in() {
    // The program runs in a fresh temporary folder, yet `./programs/x` and `sh programs/y.sh`
    // (a script given to an interpreter) are found where grundy was started.
    let project = fixture();
    c_program(&project, "correct", "");
    sh_program(
        &project,
        "wrong.sh",
        r#"echo Kiki; echo Kiki; echo Kiki; exit 0"#,
    );
    let judged = check_json(
        &project,
        &["check", "-j", "4", "--exec", "./programs/correct"],
    );
    judged.assert_verdicts("AC");
    let judged = check_json(&project, &["check", "--exec", "sh programs/wrong.sh"]);
    judged.assert_verdicts("WA");
}

#[test]
fn a_program_that_closes_stdout_early_is_judged_on_what_it_wrote() {
    let project = fixture();
    // On the hostile case: the right answer, then stdout closed, then more work and status 0.
    let program = c_program(
        &project,
        "closer",
        r#"puts("Cici"); puts("Kiki"); puts("Kiki");
fflush(stdout);
close(1);
usleep(200000);
exit(0);"#,
    );
    let judged = check_json(&project, &["check", "--exec", &exec_arg(&program)]);
    judged.assert_verdicts("AC");
}

#[test]
fn a_command_that_cannot_start_is_exit_2_naming_it() {
    let project = fixture();
    // Not executable, and in no language grundy builds (a source would be built and judged).
    let not_executable = project.file("programs/solution", "#!/bin/sh\necho Kiki\n");
    let folder = project.path().join("programs");
    let commands = [
        "no-such-judge-program-4821".to_string(),
        "./programs/missing-solution".to_string(),
        exec_arg(&not_executable),
        exec_arg(&folder),
    ];
    for command in commands {
        let judged = check_json(&project, &["check", "--exec", &command]);
        assert_eq!(judged.code(), 2, "`{command}`\n{}", judged.dump());
        // The run is meaningless: nothing is reported as judged.
        assert!(judged.cases.is_empty(), "`{command}`\n{}", judged.dump());
        let named = command.trim_matches('\'');
        let message = stderr(&judged.output);
        assert!(
            message.contains(&format!("`{named}`")),
            "`{command}`:\n{message}"
        );
    }
}

#[test]
fn peak_memory_is_reported_in_json_for_every_case() {
    let project = fixture();
    // 40 MiB touched on the hostile case, within the 64 MiB limit: accepted, and measured.
    let program = c_program(
        &project,
        "forty",
        r#"size_t size = (size_t)40 << 20;
char *block = malloc(size);
if (!block) exit(5);
touch(block, size);"#,
    );
    let judged = check_json(
        &project,
        &[
            "check",
            "--memory-limit",
            "64",
            "--exec",
            &exec_arg(&program),
        ],
    );
    judged.assert_verdicts("AC");
    let peak = |id: &str| {
        judged.case(id)["peak_memory_bytes"]
            .as_u64()
            .unwrap_or_else(|| panic!("no peak_memory_bytes for `{id}`\n{}", judged.dump()))
    };
    let hostile = peak(HOSTILE);
    // Where a cgroup measures the run, up to a charge batch per CPU (256 KiB) may have been
    // charged before it began: the 40 MiB can show a little under.
    assert!(
        (39 << 20..64 << 20).contains(&hostile),
        "peak {hostile}\n{}",
        judged.dump()
    );
    // Where a cgroup measures runs it counts in charge batches (up to 256 KiB per CPU), so a
    // case this small may show 0; measured all the same.
    for id in ORDINARY {
        assert!(
            (..16 << 20).contains(&peak(id)),
            "`{id}`\n{}",
            judged.dump()
        );
    }
    let summary = judged.summary.as_ref().unwrap();
    assert_eq!(summary["peak_memory_bytes"], hostile, "{}", judged.dump());
}

#[test]
fn verbose_prints_the_containment_line_on_stderr() {
    let project = fixture();
    let program = c_program(&project, "correct", "");
    let judged = check_json(&project, &["check", "-v", "--exec", &exec_arg(&program)]);
    judged.assert_verdicts("AC");
    let notes = stderr(&judged.output);
    let line = notes
        .lines()
        .find(|l| l.starts_with("containment: "))
        .unwrap_or_else(|| panic!("no containment line\n{}", judged.dump()));
    assert!(
        ["PID namespace", "cgroup", "process group"]
            .iter()
            .any(|m| line.contains(m)),
        "{line}"
    );
    // Only JSON on stdout (parsing it above would have failed otherwise), and no containment
    // line without -v.
    let quiet = check_json(&project, &["check", "--exec", &exec_arg(&program)]);
    quiet.assert_verdicts("AC");
    assert!(
        !stderr(&quiet.output).contains("containment:"),
        "{}",
        quiet.dump()
    );
}

/// A solution written for s-nim's original limits (heaps up to 10^4; its statement): a table of
/// Grundy values per test case up to its largest heap, which cannot be allocated for heaps of
/// 10^18. Written here, not derived from grundy's solver.
const S_NIM_ORIGINAL_LIMITS: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    int k;
    while (scanf("%d", &k) == 1 && k != 0) {
        long long takes[100];
        for (int i = 0; i < k; i++) scanf("%lld", &takes[i]);
        int m;
        scanf("%d", &m);
        static long long heaps[100][100];
        static int counts[100];
        long long largest = 0;
        for (int p = 0; p < m; p++) {
            scanf("%d", &counts[p]);
            for (int i = 0; i < counts[p]; i++) {
                scanf("%lld", &heaps[p][i]);
                if (heaps[p][i] > largest) largest = heaps[p][i];
            }
        }
        int *g = calloc((size_t)largest + 1, sizeof *g);
        if (!g) return 3;
        for (long long h = 1; h <= largest; h++) {
            char seen[102] = {0};
            for (int i = 0; i < k; i++)
                if (takes[i] <= h && g[h - takes[i]] <= k) seen[g[h - takes[i]]] = 1;
            while (seen[g[h]]) g[h]++;
        }
        for (int p = 0; p < m; p++) {
            int x = 0;
            for (int i = 0; i < counts[p]; i++) x ^= g[heaps[p][i]];
            putchar(x ? 'W' : 'L');
        }
        putchar('\n');
        free(g);
    }
    return 0;
}
"#;

#[test]
fn a_solution_for_the_original_limits_passes_by_default_and_fails_the_extended_cases() {
    let project = common::Project::new();
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/s-nim");
    common::copy_tree(&shipped, &project.path().join("fixtures/s-nim"));
    let program = compile(&project, "s-nim-original", S_NIM_ORIGINAL_LIMITS);
    let exec = exec_arg(&program);

    let judged = check_json(&project, &["check", "--exec", &exec]);
    assert_eq!(judged.code(), 0, "{}", judged.dump());
    assert!(
        judged.order.iter().all(|id| !id.contains("/extended/")),
        "{}",
        judged.dump()
    );
    let summary = judged.summary.as_ref().unwrap();
    let extended = std::fs::read_dir(shipped.join("extended"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().unwrap() == "in")
        .count();
    assert!(extended > 0);
    assert_eq!(
        summary["left_out"]["beyond_original_limits"],
        extended,
        "{}",
        judged.dump()
    );
    assert_eq!(summary["passed"], judged.order.len(), "{}", judged.dump());
    let human = project.grundy(&["check", "--exec", &exec]);
    assert!(
        stdout(&human).contains(&format!(
            "\n{extended} cases beyond the original limits left out (--extended to judge them)\n"
        )),
        "{}",
        dump(&human)
    );

    // A selection with nothing a program is judged on is an error, not a pass.
    let none = project.grundy(&["check", "--exec", &exec, "s-nim/ext*"]);
    assert_eq!(code(&none), 2, "{}", dump(&none));
    assert!(
        stderr(&none).contains("no case to judge") && stderr(&none).contains("--extended"),
        "{}",
        dump(&none)
    );

    // Asked for, by the flag or by a filter naming the group, the extended cases fail it.
    for asked in [&["s-nim", "--extended"][..], &["s-nim/extended"]] {
        let mut args = vec!["check", "--exec", &exec];
        args.extend(asked);
        let judged = check_json(&project, &args);
        assert_eq!(judged.code(), 1, "{asked:?}\n{}", judged.dump());
        let failed: Vec<&String> = judged
            .order
            .iter()
            .filter(|id| judged.verdict(id) != "AC")
            .collect();
        assert!(
            !failed.is_empty() && failed.iter().all(|id| id.contains("/extended/")),
            "{asked:?}\n{}",
            judged.dump()
        );
    }
}
