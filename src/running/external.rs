//! External programs (`check --exec`, `--isolate`): splitting the command line, and turning the
//! sandbox's account of a run into a [`Run`]. The sandbox crate does the process work.

use std::ffi::OsString;
use std::path::Path;

use anyhow::{bail, Context, Result};
use grundy_sandbox::{End, Limits, Program, SpawnError, Spec, Stdin};

use super::{Failure, Run};
use crate::config::Settings;

/// Splits `command` as a shell splits words (quotes and backslashes), without starting a shell.
/// An argument after the first word that names an existing file or folder relative to the
/// current directory is made absolute: the program runs in a fresh temporary folder, where
/// `python3 sol.py` would find no `sol.py`.
pub fn parse_command(command: &str) -> Result<Program> {
    let words = shell_words::split(command)
        .with_context(|| format!("cannot split the command `{command}` into words"))?;
    if words.is_empty() {
        bail!("--exec needs a command, e.g. --exec './a.out' or --exec 'python3 sol.py'");
    }
    let mut argv: Vec<OsString> = Vec::with_capacity(words.len());
    for (index, word) in words.into_iter().enumerate() {
        let path = Path::new(&word);
        let names_a_file =
            index > 0 && !word.starts_with('-') && path.is_relative() && path.exists();
        match names_a_file.then(|| std::path::absolute(path)) {
            Some(Ok(absolute)) => argv.push(absolute.into()),
            _ => argv.push(word.into()),
        }
    }
    Ok(Program { argv })
}

/// This very binary as `grundy solve PROBLEM`, for `--isolate`.
pub fn built_in_as_process(problem: &str) -> Result<Program> {
    let exe = std::env::current_exe().context("cannot find the grundy executable")?;
    Ok(Program {
        argv: vec![exe.into(), "solve".into(), problem.into()],
    })
}

/// Runs `program` on the case input at `input` under the limits of `settings`.
pub fn run_external(
    program: &Program,
    input: &Path,
    settings: &Settings,
) -> Result<Run, SpawnError> {
    let limits = Limits {
        time: settings.time_limit,
        memory_bytes: settings.memory_limit_mb << 20,
        output_bytes: settings.output_limit_mb << 20,
    };
    let spec = Spec::new(program, &limits).stdin(Stdin::File(input.to_path_buf()));
    let outcome = grundy_sandbox::run(spec)?;
    let failure = match outcome.end {
        End::Exited(0) => None,
        End::Exited(code) => Some(Failure::ExitCode(code)),
        End::Signaled { name, .. } => Some(Failure::Signal(name.to_string())),
        End::TimeLimit => Some(Failure::TimeLimit),
        End::MemoryLimit => Some(Failure::MemoryLimit),
        End::OutputLimit => Some(Failure::OutputLimit),
        End::ProcessLimit => Some(Failure::ProcessLimit),
        // Nothing here cancels a run; kill_all_running (Ctrl-C) ends runs with SIGKILL.
        End::Cancelled => Some(Failure::Signal("SIGKILL".to_string())),
    };
    Ok(Run {
        output: outcome.stdout,
        stderr: outcome.stderr,
        time: outcome.wall_time,
        peak_memory_bytes: outcome.peak_memory_bytes,
        failure,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_like_a_shell_without_one() {
        let program = parse_command(r#"python3 "my sol.py" --flag='a b' x\ y"#).unwrap();
        let argv: Vec<&str> = program.argv.iter().map(|a| a.to_str().unwrap()).collect();
        assert_eq!(argv, ["python3", "my sol.py", "--flag=a b", "x y"]);
        assert!(parse_command("   ").is_err());
        assert!(parse_command("echo 'unterminated").is_err());
    }

    #[test]
    fn arguments_naming_files_here_become_absolute() {
        // Tests run in the package folder, which holds Cargo.toml and src/.
        let here = std::env::current_dir().unwrap();
        let program = parse_command("python3 Cargo.toml -x src no-such-file /etc").unwrap();
        let expected: Vec<OsString> = vec![
            "python3".into(),
            here.join("Cargo.toml").into(),
            "-x".into(),
            here.join("src").into(),
            "no-such-file".into(),
            "/etc".into(),
        ];
        assert_eq!(program.argv, expected);
        // The program itself is left to the sandbox, which finds it on PATH or relative to here.
        assert_eq!(parse_command("Cargo.toml").unwrap().argv, ["Cargo.toml"]);
    }
}
