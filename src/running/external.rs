//! External programs (`check --exec`, `--isolate`): splitting the command line, and turning the
//! sandbox's account of a run into a [`Run`]. The sandbox crate does the process work.

use std::ffi::OsString;
use std::path::Path;

use anyhow::{bail, Context, Result};
use grundy_sandbox::{End, Limits, Program, SpawnError};

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
        let argument = index > 0 && !word.starts_with('-') && path.is_relative();
        if argument && looks_like_a_file(&word) && !path.exists() {
            bail!(
                "`{word}` in the command `{command}` does not exist: the program runs in an \
                 empty folder, so every file it is given must exist (relative to {})",
                std::env::current_dir()
                    .map_or_else(|_| "this folder".into(), |d| d.display().to_string())
            );
        }
        let names_a_file = argument && path.exists();
        match names_a_file.then(|| std::path::absolute(path)) {
            Some(Ok(absolute)) => argv.push(absolute.into()),
            _ => argv.push(word.into()),
        }
    }
    Ok(Program { argv })
}

/// Whether a relative command-line word names a file rather than a plain word or number: it has
/// a folder part, or a source or script extension (`sol.py`, `Main.class`, `build/run`).
fn looks_like_a_file(word: &str) -> bool {
    const EXTENSIONS: &[&str] = &[
        "py", "pyc", "js", "mjs", "ts", "rb", "pl", "php", "lua", "sh", "bash", "jar", "class",
        "kt", "kts", "java", "c", "cc", "cpp", "cs", "go", "rs", "hs", "ml", "scala", "swift",
        "exe", "bin", "out", "r", "jl",
    ];
    let path = Path::new(word);
    word.contains('/')
        || path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
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
    let outcome = grundy_sandbox::run(program, input, &limits)?;
    let failure = match outcome.end {
        End::Exited(0) => None,
        End::Exited(code) => Some(Failure::ExitCode(code)),
        End::Signaled { name, .. } => Some(Failure::Signal(name.to_string())),
        End::TimeLimit => Some(Failure::TimeLimit),
        End::MemoryLimit => Some(Failure::MemoryLimit {
            limit_mb: settings.memory_limit_mb,
        }),
        End::OutputLimit => Some(Failure::OutputLimit {
            limit_mb: settings.output_limit_mb,
        }),
        End::ProcessLimit => Some(Failure::ProcessLimit),
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
        let program = parse_command(r#"run "my words" --flag='a b' x\ y"#).unwrap();
        let argv: Vec<&str> = program.argv.iter().map(|a| a.to_str().unwrap()).collect();
        assert_eq!(argv, ["run", "my words", "--flag=a b", "x y"]);
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

    #[test]
    fn a_missing_script_is_an_error_before_anything_runs() {
        let error = parse_command("python3 missing.py").unwrap_err().to_string();
        assert!(
            error.contains("`missing.py`") && error.contains("does not exist"),
            "{error}"
        );
        assert!(parse_command("java -cp no/such/dir Main").is_err());
        // Plain words and numbers are not files.
        assert!(parse_command("./a.out fast 3 x.y").is_ok());
    }
}
