//! `grundy checktestdata SCRIPT [INPUT]`: one input (a file, or stdin) against a checktestdata
//! script, by the Kattis validator protocol: exit 42 valid, 43 invalid, the rejection (input line
//! and column, script line) on stderr; a script at fault (it does not parse, or fails or passes
//! a bound of the interpreter while running) exits 2 with its error on stderr. `verify` runs a
//! package's `.ctd` validators through this, contained like any validator program.

use std::io::Read;

use anyhow::{Context, Result};

use crate::checktestdata::{self, Failure, Script, INVALID, SCRIPT_FAULT, VALID};
use crate::cli::ChecktestdataArgs;
use crate::commands::error::CommandError;
use crate::escape::visible_line;
use crate::reporting::Ended;

pub fn run(args: ChecktestdataArgs) -> Result<Ended, CommandError> {
    let shown = args.script.display();
    let file = std::fs::File::open(&args.script).with_context(|| format!("cannot read {shown}"))?;
    let text = checktestdata::read_script(file).with_context(|| shown.to_string())?;
    let input = match &args.input {
        Some(path) => {
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?
        }
        None => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .context("cannot read standard input")?;
            bytes
        }
    };
    let checked = Script::parse(&text)
        .map_err(Failure::Script)
        .and_then(|script| script.check(&input, args.memory.saturating_mul(1 << 20)));
    let code = match &checked {
        Ok(()) => VALID,
        Err(Failure::Rejected(_)) => INVALID,
        Err(Failure::Script(_)) => SCRIPT_FAULT,
    };
    if let Err(failure) = checked {
        crate::reporting::notes::bare(visible_line(&failure.to_string()));
    }
    Ok(Ended::Protocol(code))
}
