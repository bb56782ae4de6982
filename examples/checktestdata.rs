//! The built-in checktestdata interpreter alone, as a command for timing it
//! (bench/checktestdata.sh): `checktestdata SCRIPT INPUT` exits 0 for an accepted input, 1 for a
//! rejected one (the message on stderr), 2 when the script is at fault or a file cannot be read.

// The interpreter is a module of the grundy binary that depends on nothing else there, so this
// example compiles it on its own; what only the binary uses is unused here.
#[allow(dead_code)]
#[path = "../src/checktestdata/mod.rs"]
mod checktestdata;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [script, input] = &args[..] else {
        eprintln!("usage: checktestdata SCRIPT INPUT");
        return ExitCode::from(2);
    };
    let read = |path: &str| std::fs::read(path).map_err(|e| format!("{path}: {e}"));
    let (script, input) = match (read(script), read(input)) {
        (Ok(script), Ok(input)) => (script, input),
        (Err(error), _) | (_, Err(error)) => {
            eprintln!("{error}");
            return ExitCode::from(2);
        }
    };
    let script = match checktestdata::Script::parse(&script) {
        Ok(script) => script,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::from(2);
        }
    };
    match script.check(&input, checktestdata::DEFAULT_HELD_BYTES) {
        Ok(()) => ExitCode::SUCCESS,
        Err(checktestdata::Failure::Rejected(rejection)) => {
            eprintln!("{rejection}");
            ExitCode::from(1)
        }
        Err(checktestdata::Failure::Script(error)) => {
            eprintln!("{error}");
            ExitCode::from(2)
        }
    }
}
