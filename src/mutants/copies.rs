//! Each mutant's own copy of the submission, in a temporary folder of the run that goes with
//! it (never in the package): the program's files as they are, the one file mutated, each
//! file's executable bit kept; and the submission that copy is, judged as the original is
//! (its language, entry, included files and constants, what it must get), named by its number.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::{read_source, Mutant, MutateError};
use crate::files::beneath::{Scope, Tree};
use crate::package::submissions::Submission;

/// The files of the submission mutated, read once: each one's bytes and permissions.
pub struct Copies {
    folder: tempfile::TempDir,
    original: Submission,
    files: Vec<(Vec<u8>, u32)>,
}

#[derive(Debug, Error)]
pub enum CopyError {
    #[error(transparent)]
    Read(#[from] MutateError),
    #[error("cannot copy the submission to {}: {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl Copies {
    /// Reads `original`'s files, and makes the temporary folder its copies go in.
    pub fn new(original: &Submission) -> Result<Copies, CopyError> {
        let mut files = vec![];
        for file in &original.program.files {
            let (bytes, permissions) = read_source(file)?;
            files.push((bytes, permissions.mode() & 0o755));
        }
        let folder = tempfile::Builder::new()
            .prefix("grundy-mutants-")
            .tempdir()
            .map_err(|source| CopyError::Write {
                path: std::env::temp_dir(),
                source,
            })?;
        Ok(Copies {
            folder,
            original: original.clone(),
            files,
        })
    }

    /// The submission `mutant` makes: a copy of the original's files in a folder of its own,
    /// the one it changes changed.
    pub fn submission(&self, mutant: &Mutant) -> Result<Submission, CopyError> {
        let program = &self.original.program;
        let root = self.folder.path().join(mutant.number.to_string());
        // A folder program keeps its name; a file's folder is the copy's own.
        let base = match program.is_folder {
            true => PathBuf::from(&program.name),
            false => PathBuf::new(),
        };
        for (index, (file, (bytes, mode))) in program.files.iter().zip(&self.files).enumerate() {
            let path = root.join(&base).join(program.relative(file));
            let bytes = match index == mutant.file_index {
                true => mutant.apply(bytes),
                false => bytes.clone(),
            };
            write(&path, &bytes, *mode)?;
        }
        let tree = Tree::open(&root, Scope::Program).map_err(|source| MutateError::Read {
            file: root.clone(),
            source,
        })?;
        let mut copy = program.clone();
        copy.path = tree.join(&program.name);
        copy.files = program
            .files
            .iter()
            .map(|file| tree.join(base.join(program.relative(file))))
            .collect();
        Ok(Submission {
            id: format!("{} mutant {}", self.original.id, mutant.number),
            program: copy,
            ..self.original.clone()
        })
    }

    /// `said` (a compiler's words on `mutant`'s copy) with the copy's folder left out of its
    /// paths: `sol.c:3:5: error: ...`, as the file is named in the submission, the same in
    /// every run.
    pub fn unplaced(&self, mutant: &Mutant, said: &str) -> String {
        let root = self.folder.path().join(mutant.number.to_string());
        said.replace(&format!("{}/", root.display()), "")
    }
}

fn write(path: &Path, bytes: &[u8], mode: u32) -> Result<(), CopyError> {
    let failed = |source| CopyError::Write {
        path: path.to_path_buf(),
        source,
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(failed)?;
    }
    std::fs::write(path, bytes).map_err(failed)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode | 0o600)).map_err(failed)
}
