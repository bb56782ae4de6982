//! Showing a counterexample (how to rebuild it, the shrunk input, both outputs, the verdict and
//! the diff) and saving it as a fixture with a `.gen` note of where it came from.

use anyhow::{anyhow, Result};

use super::schedule::{CaseInput, Schedule};
use super::shrinking::Shrunk;
use crate::config::Config;
use crate::diffing::Paint;
use crate::files::store::Writer;
use crate::judging::Verdict;
use crate::new_case::NewCase;

/// Lines and bytes of an input or output shown before it is cut with a note.
const SHOWN_LINES: usize = 40;
const SHOWN_BYTES: usize = 4096;

pub struct Counterexample {
    pub problem: &'static str,
    /// `the built-in solver of nim` or `the program `./a.out``.
    pub program: String,
    /// `solver` or `program`.
    pub role: &'static str,
    /// `--exec`: the program's command line.
    pub exec: Option<String>,
    pub schedule: Schedule,
    pub case: CaseInput,
    /// The input as generated, before shrinking.
    pub unshrunk: Vec<u8>,
    pub shrunk: Shrunk,
}

/// `grundy stress nim --seed 42 [--scale 8] [--exec 'CMD']`: the command that repeats a run.
pub fn rerun_command(problem: &str, schedule: &Schedule, exec: Option<&str>) -> String {
    let mut command = format!("grundy stress {problem} --seed {}", schedule.seed);
    if let Some(scale) = schedule.scale {
        let scale = if scale == u64::MAX {
            "max".to_string()
        } else {
            scale.to_string()
        };
        command += &format!(" --scale {scale}");
    }
    if let Some(exec) = exec {
        command += &format!(" --exec {}", shell_words::quote(exec));
    }
    command
}

impl Counterexample {
    /// `grundy stress nim --seed 42 [--scale 8] [--exec 'CMD']`: the run that finds this case
    /// again.
    pub fn stress_command(&self) -> String {
        rerun_command(self.problem, &self.schedule, self.exec.as_deref())
    }

    /// `grundy gen nim CASE --seed 123 --scale 8`: rebuilds the input before shrinking.
    pub fn gen_command(&self, case: &str) -> String {
        format!(
            "grundy gen {} {case} --seed {} --scale {}",
            self.problem, self.case.seed, self.case.scale
        )
    }

    pub fn render(&self, color: bool) -> String {
        let paint = if color {
            Paint::colored()
        } else {
            Paint::plain()
        };
        let shrunk = &self.shrunk;
        let result = &shrunk.trial.result;
        let mut out = format!(
            "counterexample: case {} of `{}`\n",
            self.case.number,
            self.stress_command()
        );
        // A wrong output disagrees; a crash, a timeout or a rejected valid input just fails.
        let how = match result.verdict {
            Verdict::WA | Verdict::PE => "disagrees with the brute force",
            _ => "fails on a valid input",
        };
        out += &format!(
            "  {} {how}\n  the input before shrinking: `{}`\n",
            self.program,
            self.gen_command("CASE")
        );
        out += &format!(
            "  shrunk from {}\n",
            shrinking(
                &self.unshrunk,
                &shrunk.input,
                shrunk.steps,
                shrunk.attempts,
                shrunk.cut_short
            )
        );
        out += &verdict_line(result);
        out += &block("input", &shrunk.input);
        out += &block("expected output (brute force)", &shrunk.trial.expected);
        out += &block(
            &format!("actual output ({})", self.role),
            &shrunk.trial.output,
        );
        if let Some(stderr) = &result.stderr {
            out += &block(&format!("stderr ({})", self.role), stderr.as_bytes());
        }
        if let Some(diff) = &result.diff {
            out += "diff (- expected, + actual):\n";
            out += &diff.render(&paint, "  ");
        }
        out
    }
}

/// How a counterexample was shrunk: `12 bytes to 5 bytes in 2 steps (9 candidates tried)`, and
/// whether the budget cut the search short.
pub(super) fn shrinking(
    before: &[u8],
    after: &[u8],
    steps: usize,
    attempts: usize,
    cut_short: bool,
) -> String {
    format!(
        "{} to {} in {} ({} tried{})",
        size(before),
        size(after),
        plural(steps, "step"),
        plural(attempts, "candidate"),
        if cut_short {
            "; stopped by the shrinking budget, a smaller one may exist"
        } else {
            ""
        }
    )
}

/// The failing case's verdict line: `  WA wrong answer: <the checker's message>`.
pub(super) fn verdict_line(result: &crate::judging::CaseResult) -> String {
    format!(
        "  {} {}: {}\n",
        result.verdict,
        result.verdict.meaning(),
        result.message.as_deref().unwrap_or("")
    )
}

/// `1 step`, `2 steps`.
pub(super) fn plural(count: usize, noun: &str) -> String {
    let s = if count == 1 { "" } else { "s" };
    format!("{count} {noun}{s}")
}

/// `1 line (6 bytes)`.
pub(super) fn size(text: &[u8]) -> String {
    let lines = text
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .count();
    format!("{} ({} bytes)", plural(lines, "line"), text.len())
}

/// A titled, indented copy of `text`, cut after [`SHOWN_LINES`] lines or [`SHOWN_BYTES`] bytes.
pub(super) fn block(title: &str, text: &[u8]) -> String {
    let mut out = format!("{title}:\n");
    if text.is_empty() {
        out += "  (empty)\n";
        return out;
    }
    let text = String::from_utf8_lossy(text);
    let mut shown_bytes = 0;
    let lines: Vec<&str> = text.lines().collect();
    for (index, line) in lines.iter().enumerate() {
        if index == SHOWN_LINES || shown_bytes + line.len() > SHOWN_BYTES {
            out += &format!(
                "  (… {} more lines, {} more bytes; --save writes the whole of it)\n",
                lines.len() - index,
                text.len() - shown_bytes
            );
            break;
        }
        shown_bytes += line.len() + 1;
        out += &format!("  {}\n", crate::escape::visible_line(line));
    }
    out
}

/// Writes the shrunk input under `<fixtures>/<problem>/stress/` with the brute force's output as
/// its expected file and a `.gen` note, under a name no file has yet; the lines naming them. The
/// name is chosen and written under the fixtures root's lock, so concurrent runs saving the same
/// case each get their own (`-2`, `-3`, ...).
pub fn save(config: &Config, found: &Counterexample) -> Result<String> {
    let base = format!(
        "stress/seed-{}-case-{}",
        found.schedule.seed, found.case.number
    );
    let note = format!(
        "{} --save\n# Case {} of that run, shrunk in {} steps from {} to {}: the .in file is \
         the shrunk input.\n# Before shrinking the input was: {}\n# The expected output is \
         the brute force's.\n",
        found.stress_command(),
        found.case.number,
        found.shrunk.steps,
        size(&found.unshrunk),
        size(&found.shrunk.input),
        found.gen_command("CASE"),
    );
    let writer = Writer::open(&config.fixtures)?;
    for attempt in 1..=100 {
        let name = match attempt {
            1 => base.clone(),
            n => format!("{base}-{n}"),
        };
        let new_case = NewCase::named(config, found.problem, &name)?;
        if new_case.taken()? {
            continue;
        }
        new_case.write_with(
            &writer,
            &found.shrunk.input,
            &found.shrunk.trial.expected,
            Some(note.as_bytes()),
        )?;
        drop(writer);
        return Ok(new_case.written(true));
    }
    Err(anyhow!(
        "every name from `{base}` to `{base}-100` is taken below `{}`; nothing was saved",
        config.fixtures.join(found.problem).display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_blocks_are_cut_with_a_note() {
        assert_eq!(block("input", b""), "input:\n  (empty)\n");
        assert_eq!(block("input", b"1 2\n3\n"), "input:\n  1 2\n  3\n");
        let long: String = (0..100).map(|i| format!("{i}\n")).collect();
        let shown = block("input", long.as_bytes());
        assert_eq!(shown.lines().count(), 1 + SHOWN_LINES + 1);
        assert!(
            shown.ends_with("(… 60 more lines, 180 more bytes; --save writes the whole of it)\n")
        );
    }
}
