//! A program given on the command line (`--exec` of `check` and `stress`): a command (`python3
//! sol.py`, `./a.out`, a name in PATH), or a source file or folder to build (`sol.cpp`,
//! `wrong.py`, `submissions/accepted/sol/`), which is built as `verify` builds a submission (by
//! the language table, contained, into the build cache) and then judged like any command, with
//! the words after it as its arguments.
//!
//! A word names a source when it is an existing folder, or an existing file that is not
//! executable; an executable file is run as it is. A bare name that is neither in PATH nor a
//! source, but a file of the current folder, gets "did you mean `./name`?".

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context};
use grundy_sandbox::Program as Command;

use super::error::{CommandError, DoesNotCompile};
use crate::build::{build_program, cache_folder, Build};
use crate::config::Isolate;
use crate::files::beneath::{Scope, Tree};
use crate::locate::Place;
use crate::package::programs::Program;
use crate::package::toolchains::is_executable;
use crate::running::Subject;

/// The subject `--exec TEXT` names (the built-in solvers without it, as processes under
/// `processes`); a source is built first, contained under `isolate`, with runs sized for
/// `memory_mib`, its compiler never shown the folders of `answers` (the caller hides them from
/// the program too: [`Subject::hide_answers`]).
pub fn subject(
    exec: Option<&str>,
    processes: bool,
    isolate: Isolate,
    memory_mib: u64,
    answers: &[PathBuf],
) -> Result<Subject, CommandError> {
    let Some(text) = exec else {
        return Ok(Subject::choose(None, processes)?);
    };
    let words = shell_words::split(text)
        .with_context(|| format!("cannot split the command `{text}` into words"))?;
    match words.split_first() {
        Some((first, rest)) if is_source(Path::new(first)) => {
            super::setup::containment_check(isolate)?;
            let mut program = build(Path::new(first), memory_mib, answers)?;
            program.argv.extend(rest.iter().map(Into::into));
            Ok(Subject::External {
                program,
                command: text.to_string(),
            })
        }
        _ => Ok(Subject::choose(Some(text), processes)?),
    }
}

/// Whether `path` names something to build: a folder, or a file that is not executable.
fn is_source(path: &Path) -> bool {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => true,
        Ok(meta) => meta.is_file() && !is_executable(path),
        Err(_) => false,
    }
}

/// Builds the source at `path` (or takes its build from the cache), its compiler never shown
/// `answers`: the command that runs it.
fn build(path: &Path, memory_mib: u64, answers: &[PathBuf]) -> Result<Command, CommandError> {
    let absolute = std::path::absolute(path)
        .with_context(|| format!("cannot tell where `{}` is", path.display()))?;
    let (Some(folder), Some(name)) = (absolute.parent(), absolute.file_name()) else {
        return Err(anyhow!("`{}` names no file or folder to build", path.display()).into());
    };
    let tree = Tree::open(folder, Scope::Program)?;
    let program = Program::new(&tree.join(name), None, None)?;
    let shown = path.display().to_string();
    match build_program(
        &program,
        &cache_for(&absolute),
        memory_mib,
        answers.to_vec(),
    ) {
        Build::Ready { command, .. } => Ok(command),
        Build::Failed(message) => Err(DoesNotCompile {
            source_path: shown,
            message,
        }
        .into()),
        Build::Skipped(why) => Err(anyhow!(
            "cannot build `{shown}`: {why}; give a command instead (--exec 'CMD ARGS'), make it \
             executable (chmod +x) if it runs itself, or see the book's Languages chapter for \
             the languages grundy builds"
        )
        .into()),
        Build::HostError(error) => Err(anyhow!("cannot build `{shown}`: {error}").into()),
    }
}

/// The build cache of a source at `path`: its package's (as `verify` uses) when it lies in
/// one, else the project's or one beside it ([`cache_folder`]).
fn cache_for(path: &Path) -> PathBuf {
    let place = path
        .parent()
        .map(|folder| Place::around(folder.to_path_buf(), None));
    let package =
        place.and_then(|place| std::fs::canonicalize(place.here.join(place.package?)).ok());
    match package {
        Some(package) => cache_folder(&package),
        None => cache_folder(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn sources_are_folders_and_files_that_do_not_run_themselves() {
        let dir = tempfile::tempdir().unwrap();
        let (source, binary) = (dir.path().join("sol.cpp"), dir.path().join("a.out"));
        std::fs::write(&source, "int main() {}\n").unwrap();
        std::fs::write(&binary, "").unwrap();
        std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(is_source(&source));
        assert!(is_source(dir.path()));
        assert!(!is_source(&binary));
        assert!(!is_source(&dir.path().join("missing.cpp")));
    }

    #[test]
    fn a_source_in_a_package_shares_the_package_cache() {
        let dir = tempfile::tempdir().unwrap();
        let package = dir.path().join("sum");
        std::fs::create_dir_all(package.join("submissions/accepted")).unwrap();
        std::fs::write(package.join("problem.yaml"), "").unwrap();
        let source = package.join("submissions/accepted/sol.py");
        assert_eq!(cache_for(&source), cache_folder(&package));
    }
}
