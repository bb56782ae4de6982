//! A command line as grundy runs it (`check --exec`, a checker or interactor runner.toml names,
//! `stress --exec`): split as a shell splits words without starting one, code given inline to
//! a shell or an interpreter told apart from files, the paths among its words made absolute;
//! and whether its program can start at all ([`startable`]). Below `checking` and `running`,
//! which both start programs from command lines; running them is `running`'s.

use std::ffi::OsString;
use std::path::Path;

use anyhow::{bail, Context, Result};
use grundy_sandbox::Program;

/// Splits `command` as a shell splits words (quotes and backslashes), without starting a shell.
/// An argument after the first word that names an existing file or folder relative to the
/// current directory is made absolute: the program runs in a fresh temporary folder, where
/// `python3 sol.py` would find no `sol.py`.
pub fn parse_command(command: &str) -> Result<Program> {
    let here = std::env::current_dir().context("cannot read the working directory")?;
    parse_command_in(command, &here)
}

/// [`parse_command`] with relative paths taken from `base` (a runner.toml's folder for the
/// checkers it names): the program itself when it has a folder part (`./a.out`), and every
/// argument that names an existing file or folder there.
pub fn parse_command_in(command: &str, base: &Path) -> Result<Program> {
    let words = shell_words::split(command)
        .with_context(|| format!("cannot split the command `{command}` into words"))?;
    if words.is_empty() {
        bail!("a command is needed, e.g. './a.out' or 'python3 sol.py'");
    }
    let code = inline_code(&words, |word| {
        looks_like_a_file(word) || base.join(word).symlink_metadata().is_ok()
    });
    let mut argv: Vec<OsString> = Vec::with_capacity(words.len());
    for (index, word) in words.into_iter().enumerate() {
        let path = Path::new(&word);
        if !path.is_relative() || word.starts_with('-') || code.contains(&index) {
            argv.push(word.into());
            continue;
        }
        // Absolute, with `..` resolved, for an existing file: the sandbox shows a program only
        // the absolute paths among its arguments.
        let joined = base.join(path);
        let here = std::fs::canonicalize(&joined)
            .or_else(|_| std::path::absolute(&joined))
            .unwrap_or(joined);
        if index == 0 {
            // A bare name is looked up in PATH; a relative path is taken from `base` (kept as
            // typed when that is the working directory, so messages show what the user wrote).
            let elsewhere = std::env::current_dir().is_ok_and(|cwd| cwd != base);
            argv.push(if word.contains('/') && elsewhere {
                here.into()
            } else {
                word.into()
            });
            continue;
        }
        if looks_like_a_file(&word) && !here.exists() {
            bail!(
                "`{word}` in the command `{command}` does not exist: the program runs in an \
                 empty folder, so every file it is given must exist (relative to {})",
                base.display()
            );
        }
        argv.push(if here.exists() {
            here.into()
        } else {
            word.into()
        });
    }
    Ok(Program::new(argv))
}

/// Why a program cannot be started, found before judging.
#[derive(Debug, thiserror::Error)]
pub enum NotStartable {
    #[error("`{}`: {error}", path.display())]
    Unreadable {
        path: std::path::PathBuf,
        error: std::io::Error,
    },
    #[error("`{}` is a folder", .0.display())]
    Folder(std::path::PathBuf),
    #[error(
        "`{}` is not executable (chmod +x it, or run it through its interpreter)",
        .0.display()
    )]
    NotExecutable(std::path::PathBuf),
    /// A bare name found in no folder of PATH; `here` when the current folder has a file of
    /// that name (which a command names by its path, `./a.out`).
    #[error(
        "`{}` is not found in PATH{}",
        name.display(),
        match here {
            true => format!(" (did you mean `./{}`? a program in this folder is named by its path)", name.display()),
            false => String::new(),
        }
    )]
    NotInPath {
        name: std::path::PathBuf,
        here: bool,
    },
}

/// Whether `program` can be started: its path names an executable file, or its bare name is
/// found in PATH. Checked before judging, so a program that cannot start is one clear error
/// rather than a failure per case.
pub fn startable(program: &Program) -> Result<(), NotStartable> {
    use std::os::unix::fs::PermissionsExt;
    let name = program.argv.first().map(Path::new).unwrap_or(Path::new(""));
    let executable = |path: &Path| {
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if name.as_os_str().as_encoded_bytes().contains(&b'/') {
        return match std::fs::metadata(name) {
            Err(error) => Err(NotStartable::Unreadable {
                path: name.to_path_buf(),
                error,
            }),
            Ok(meta) if meta.is_dir() => Err(NotStartable::Folder(name.to_path_buf())),
            Ok(_) if !executable(name) => Err(NotStartable::NotExecutable(name.to_path_buf())),
            Ok(_) => Ok(()),
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    if std::env::split_paths(&path).any(|dir| executable(&dir.join(name))) {
        Ok(())
    } else {
        Err(NotStartable::NotInPath {
            name: name.to_path_buf(),
            here: name.symlink_metadata().is_ok(),
        })
    }
}

/// Shells, whose code is given inline by an option cluster holding `c` (`sh -c`, `bash -ec`).
const SHELLS: &[&str] = &["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash"];

/// Interpreters (named without their version: `python3.12` is `python`) and the options after
/// which they take code inline.
const CODE_OPTIONS: &[(&str, &[&str])] = &[
    ("python", &["-c"]),
    ("pypy", &["-c"]),
    ("perl", &["-e", "-E"]),
    ("ruby", &["-e"]),
    ("node", &["-e", "--eval", "-p", "--print"]),
    ("nodejs", &["-e", "--eval", "-p", "--print"]),
    ("php", &["-r"]),
    ("lua", &["-e"]),
    ("luajit", &["-e"]),
];

/// The positions of the words of a command that are code given inline to a shell or an
/// interpreter (`sh -c 'exec ./a.out > out/log'`, `python3 -c 'CODE'`, `perl -e 'CODE'`, also
/// after `env`): they are text for the interpreter, never names of files, whatever slashes or
/// dots they hold. The words after the code (a shell's `$0` and arguments, an interpreter's
/// `sys.argv`) are ordinary arguments again, and so is every word once a script file is named
/// (`python3 sol.py -c x`: `-c` is the script's); `names_a_file` tells a word that does.
fn inline_code(words: &[String], names_a_file: impl Fn(&str) -> bool) -> Vec<usize> {
    let name = |word: &str| -> String {
        let base = word.rsplit('/').next().unwrap_or(word);
        base.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.')
            .to_string()
    };
    // `env [-OPTION | NAME=VALUE]... PROGRAM ...`: the program is the first other word.
    let start = if name(&words[0]) == "env" {
        match words
            .iter()
            .skip(1)
            .position(|w| !w.starts_with('-') && !w.contains('='))
        {
            Some(position) => position + 1,
            None => return vec![],
        }
    } else {
        0
    };
    let interpreter = name(&words[start]);
    let rest = words.iter().enumerate().skip(start + 1);
    if SHELLS.contains(&interpreter.as_str()) {
        // `sh [-abc...] [-o NAME]... [--] OPERAND`: the first operand is the code when an
        // option cluster held `c`, else the script file.
        let mut given_inline = false;
        let mut takes_value = false;
        for (index, word) in rest {
            if takes_value {
                takes_value = false;
            } else if word == "--" {
                continue;
            } else if ["-o", "+o", "-O", "+O"].contains(&word.as_str()) {
                takes_value = true;
            } else if word.len() > 1 && (word.starts_with('-') || word.starts_with('+')) {
                given_inline |=
                    !word.starts_with("--") && word.starts_with('-') && word.contains('c');
            } else {
                return if given_inline { vec![index] } else { vec![] };
            }
        }
        return vec![];
    }
    let Some((_, options)) = CODE_OPTIONS.iter().find(|(n, _)| *n == interpreter) else {
        return vec![];
    };
    let mut code = vec![];
    let mut next_is_code = false;
    for (index, word) in rest {
        if next_is_code {
            code.push(index);
            next_is_code = false;
        } else if options.contains(&word.as_str()) {
            next_is_code = true;
        } else if !word.starts_with('-') && names_a_file(word) {
            break;
        }
    }
    code
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
        let here = std::fs::canonicalize(here).unwrap();
        let expected: Vec<OsString> = vec![
            "python3".into(),
            here.join("Cargo.toml").into(),
            "-x".into(),
            here.join("src").into(),
            "no-such-file".into(),
            "/etc".into(),
        ];
        assert_eq!(program.argv, expected);
        // A bare program name is left to the sandbox, which finds it on PATH; a path is
        // taken from here.
        assert_eq!(parse_command("Cargo.toml").unwrap().argv, ["Cargo.toml"]);
        assert_eq!(parse_command("./target/x").unwrap().argv, ["./target/x"]);
    }

    #[test]
    fn paths_can_be_taken_from_another_folder() {
        let base = std::env::current_dir().unwrap();
        let base = std::fs::canonicalize(base).unwrap();
        let program = parse_command_in("./check src -x", &base.join("..")).unwrap();
        assert_eq!(
            program.argv[0],
            base.join("../check"),
            "no such file: made absolute only"
        );
        assert_eq!(program.argv[1], "src", "no `src` next to the parent folder");
        let program = parse_command_in("./check src", &base).unwrap();
        assert_eq!(program.argv[1], base.join("src"));
    }

    #[test]
    fn code_given_inline_is_never_taken_for_a_file() {
        let argv = |command: &str| -> Vec<String> {
            let program = parse_command(command).unwrap_or_else(|e| panic!("{command}: {e:#}"));
            let argv = program.argv.iter();
            argv.map(|a| a.to_string_lossy().into_owned()).collect()
        };
        let here = std::fs::canonicalize(std::env::current_dir().unwrap()).unwrap();
        let src = here.join("src").display().to_string();
        assert_eq!(
            argv("sh -c 'exec ./prog > out/log'"),
            ["sh", "-c", "exec ./prog > out/log"]
        );
        // The shell's `$0` and arguments after the code are files again.
        assert_eq!(
            argv(r#"bash -ec 'cat "$1"/x.py' sh src"#),
            ["bash", "-ec", r#"cat "$1"/x.py"#, "sh", &src]
        );
        assert!(parse_command("sh -c 'exit 0' sh missing.py").is_err());
        assert_eq!(
            argv("/bin/dash -o errexit -c ./x.sh"),
            ["/bin/dash", "-o", "errexit", "-c", "./x.sh"]
        );
        assert_eq!(
            argv(r#"env LANG=C python3.12 -W error -c 'open("/a/b.py")' src"#),
            [
                "env",
                "LANG=C",
                "python3.12",
                "-W",
                "error",
                "-c",
                r#"open("/a/b.py")"#,
                &src
            ]
        );
        assert_eq!(
            argv("perl -e 'print 1/2' -e 'x.pl'"),
            ["perl", "-e", "print 1/2", "-e", "x.pl"]
        );
        assert_eq!(argv("node --eval a/b.js"), ["node", "--eval", "a/b.js"]);
        // A script file is one still: checked, and what follows is its arguments.
        assert!(parse_command("sh missing.sh").is_err());
        assert!(parse_command("zsh -x missing/script").is_err());
        assert!(parse_command("python3 missing.py -c x").is_err());
        assert!(parse_command("python3 src -c no/such.py").is_err());
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
