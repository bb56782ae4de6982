//! A package's counterexample shown (how to find it again, the generator command and seed, the
//! input, the reference's answer, the output and the diff, as `check` shows a failure), and
//! saved into the package as `data/secret/stress-<seed>.in` and `.ans` (or, for `mutants --add`,
//! `mutant-<n>`), never replacing a file.

use anyhow::Result;

use super::super::report::{block, shrinking, verdict_line};
use super::sizes::Shrunk;
use super::trial::Found;
use crate::diffing::Paint;
use crate::files::beneath::{Tree, TreePath};
use crate::files::{Entry, Existing};
use crate::judging::Verdict;
use crate::reporting::stressed::Kept;

/// The group saved cases go to, below `data/`.
pub const SAVED_GROUP: &str = "secret";

pub struct Counterexample {
    /// `grundy stress PKG --seed S --exec ...`: the run that finds it again.
    pub rerun: String,
    pub number: u64,
    /// The generator command before and after shrinking, seed in place.
    pub unshrunk: String,
    pub command: String,
    pub seed: u32,
    /// The reference solution's path from the package root.
    pub reference: String,
    pub unshrunk_input: Vec<u8>,
    pub shrunk: Shrunk<Box<Found>>,
}

impl Counterexample {
    pub fn render(&self, color: bool) -> String {
        let paint = if color {
            Paint::colored()
        } else {
            Paint::plain()
        };
        let found = &self.shrunk.failure;
        let result = &found.result;
        let mut out = format!("counterexample: case {} of `{}`\n", self.number, self.rerun);
        let how = match result.verdict {
            Verdict::WA | Verdict::PE => "disagrees with the reference solution",
            _ => "fails on a valid input",
        };
        out += &format!(
            "  the program {how}\n  input made by `{}` (seed {}), in generators/\n",
            self.command, self.seed
        );
        if self.shrunk.steps > 0 || self.shrunk.cut_short {
            out += &format!(
                "  shrunk from `{}`: {}\n",
                self.unshrunk,
                shrinking(
                    &self.unshrunk_input,
                    &found.input,
                    self.shrunk.steps,
                    self.shrunk.attempts,
                    self.shrunk.cut_short
                )
            );
        }
        out += &verdict_line(result);
        out += &block("input", &found.input);
        out += &block(
            &format!("expected output (/{})", self.reference),
            &found.answer,
        );
        out += &block("actual output (program)", &found.output);
        if let Some(stderr) = &result.stderr {
            out += &block("stderr (program)", stderr.as_bytes());
        }
        if let Some(diff) = &result.diff {
            out += "diff (- expected, + actual):\n";
            out += &diff.render(&paint, "  ");
        }
        out
    }
}

/// Where case `name` is saved in the package `tree`: its `.in` and `.ans`.
pub fn saved_files(tree: &Tree, name: &str) -> (TreePath, TreePath) {
    let stem = format!("data/{SAVED_GROUP}/{name}");
    (
        tree.join(format!("{stem}.in")),
        tree.join(format!("{stem}.ans")),
    )
}

/// What became of a case to be saved: written (its `.in` and `.ans` as shown), or not, since
/// the file shown was already there.
#[derive(Debug, PartialEq, Eq)]
pub enum Saved {
    Written { input: String, answer: String },
    Kept(Kept),
}

impl std::fmt::Display for Saved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Saved::Written { input, answer } => write!(
                f,
                "saved as `{input}` and `{answer}`; `grundy verify` now judges every submission \
                 on it"
            ),
            Saved::Kept(kept) => std::fmt::Display::fmt(kept, f),
        }
    }
}

/// The file of case `name` in the package `tree` that is already there, if one is.
pub fn already_there(tree: &Tree, name: &str) -> Result<Option<Kept>> {
    let (input, answer) = saved_files(tree, name);
    for file in [input, answer] {
        if file.entry()? != Entry::Missing {
            return Ok(Some(Kept(shown(&file))));
        }
    }
    Ok(None)
}

/// A saved file's path as the report shows it.
fn shown(file: &TreePath) -> String {
    crate::escape::visible(&file.relative().display().to_string()).into_owned()
}

/// Saves the case into the package as `data/secret/<name>`, the `.ans` first and the `.in`
/// last (a case is there once its `.in` is), each atomically and beneath the package's
/// descriptor, never through a link; a file already there is kept and the case not saved.
pub fn save(tree: &Tree, name: &str, found: &Found) -> Result<Saved> {
    if let Some(kept) = already_there(tree, name)? {
        return Ok(Saved::Kept(kept));
    }
    let (input, answer) = saved_files(tree, name);
    answer.write(&found.answer, Existing::Keep)?;
    input.write(&found.input, Existing::Keep)?;
    Ok(Saved::Written {
        input: shown(&input),
        answer: shown(&answer),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_is_saved_once_and_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let found = Found {
            input: b"3\n".to_vec(),
            answer: b"6\n".to_vec(),
            output: b"7\n".to_vec(),
            result: crate::judging::CaseResult::new(
                crate::discovery::Case::fixture(
                    "p/stress".into(),
                    "p".into(),
                    crate::files::beneath::TreePath::in_memory("<stdin>"),
                    None,
                ),
                Verdict::WA,
                None,
            ),
        };
        let tree = Tree::open(dir.path(), crate::files::beneath::Scope::Package).unwrap();
        let said = save(&tree, "stress-12", &found).unwrap().to_string();
        assert!(
            said.starts_with("saved as `data/secret/stress-12.in`"),
            "{said}"
        );
        let (input, answer) = saved_files(&tree, "stress-12");
        assert_eq!(std::fs::read(input.path()).unwrap(), b"3\n");
        assert_eq!(std::fs::read(answer.path()).unwrap(), b"6\n");
        let other = Found {
            input: b"4\n".to_vec(),
            ..found
        };
        let said = save(&tree, "stress-12", &other).unwrap().to_string();
        assert!(
            said.starts_with("not saved: `data/secret/stress-12.in`"),
            "{said}"
        );
        assert_eq!(std::fs::read(input.path()).unwrap(), b"3\n");
    }
}
