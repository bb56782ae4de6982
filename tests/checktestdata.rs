//! The built-in checktestdata interpreter against an oracle: the checktestdata tool from PyPI
//! (`pip install checktestdata`, the command `pyctd`), on the scripts and inputs of
//! `tests/checktestdata/` (integers big and small, floats in every notation, FLOATP's decimals,
//! strings, regexes, arrays, UNIQUE and INARRAY, loops with separators, whitespace at every
//! edge). The oracle's verdicts are kept in `tests/checktestdata/expected.txt`, written by
//! `tests/checktestdata/oracle.sh` running the tool, so every `cargo test` checks them without it;
//! `cargo test --test cli checktestdata:: -- --ignored` runs the tool itself again, and fails if it is
//! missing.

// The interpreter is a module of the grundy binary; it depends on nothing else there, so this
// test compiles it on its own. What only the binary uses is unused here.
#[allow(dead_code)]
#[path = "../src/checktestdata/mod.rs"]
mod interpreter;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use interpreter::Script;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/checktestdata")
}

/// Each input of the corpus with the oracle's verdict (true: accepted), as kept.
fn expected() -> Vec<(String, bool)> {
    let text = fs::read_to_string(corpus().join("expected.txt")).unwrap();
    text.lines()
        .map(|line| {
            let (input, verdict) = line.split_once(' ').unwrap();
            assert!(verdict == "accept" || verdict == "reject", "{line}");
            (input.to_string(), verdict == "accept")
        })
        .collect()
}

/// The script an input belongs to: `ints.3.in` is checked by `ints.ctd`.
fn script_of(input: &str) -> PathBuf {
    let name = input.split('.').next().unwrap();
    corpus().join(format!("{name}.ctd"))
}

/// grundy's verdict on an input: accepted or not, or a fault of the script.
fn ours(input: &str) -> Result<bool, String> {
    let text = fs::read(script_of(input)).unwrap();
    let script = Script::parse(&text).map_err(|e| e.to_string())?;
    let bytes = fs::read(corpus().join(input)).unwrap();
    match script.check(&bytes, interpreter::DEFAULT_HELD_BYTES) {
        Ok(()) => Ok(true),
        Err(interpreter::Failure::Rejected(_)) => Ok(false),
        Err(interpreter::Failure::Script(error)) => Err(error.to_string()),
    }
}

fn verdict(accepted: bool) -> &'static str {
    if accepted {
        "accept"
    } else {
        "reject"
    }
}

#[test]
fn every_input_has_the_oracles_verdict() {
    let listed: BTreeSet<String> = expected().into_iter().map(|(input, _)| input).collect();
    let present: BTreeSet<String> = fs::read_dir(corpus())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".in"))
        .collect();
    assert_eq!(
        listed, present,
        "run tests/checktestdata/oracle.sh after changing the corpus"
    );
    let accepted = expected().iter().filter(|(_, ok)| *ok).count();
    assert!(
        accepted > 30 && present.len() - accepted > 30,
        "valid and invalid inputs both"
    );
}

#[test]
fn grundy_agrees_with_the_oracles_kept_verdicts() {
    let disagreements: Vec<String> = expected()
        .into_iter()
        .filter_map(|(input, oracle)| match ours(&input) {
            Ok(said) if said == oracle => None,
            said => Some(format!(
                "{input}: the oracle says {}, grundy {said:?}",
                verdict(oracle)
            )),
        })
        .collect();
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

#[test]
#[ignore = "runs the checktestdata tool from PyPI (pip install checktestdata), and fails without it"]
fn grundy_agrees_with_the_pypi_tool_run_now() {
    let found = Command::new("pyctd").arg("--version").output();
    assert!(
        found.is_ok_and(|output| output.status.success()),
        "pyctd is not installed: pip install checktestdata"
    );
    let mut disagreements = vec![];
    for (input, kept) in expected() {
        let status = Command::new("pyctd")
            .arg(script_of(&input))
            .arg(corpus().join(&input))
            .output()
            .unwrap()
            .status;
        let oracle = match status.code() {
            Some(0) => true,
            Some(1) => false,
            other => panic!("pyctd failed on {input}: {other:?}"),
        };
        if oracle != kept {
            disagreements.push(format!("{input}: expected.txt is stale, rerun oracle.sh"));
        }
        if ours(&input) != Ok(oracle) {
            disagreements.push(format!(
                "{input}: pyctd says {}, grundy {:?}",
                verdict(oracle),
                ours(&input)
            ));
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
