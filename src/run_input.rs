//! The input of one run (a file of the fixtures or a package, opened beneath its root, or bytes
//! made in memory) as a program gets it, and why a run did not happen. Below `checking` (a
//! checker gets the case's input) and `running` (a program does), so neither reads the other
//! for it.

use grundy_sandbox::{BoxFile, SharedFile, SpawnError, Stdin};

use crate::files::beneath::{OpenError, TreePath};

/// The input of one run.
#[derive(Clone, Copy, Debug)]
pub enum Input<'a> {
    /// A file of the fixtures or of a package, opened only through its tree's root: each use
    /// opens it anew, checked (within the tree, a regular file), and reads what it opened.
    File(&'a TreePath),
    /// Bytes made in memory (a generated input).
    Bytes(&'a [u8]),
}

impl Input<'_> {
    /// The input's bytes (read from its file).
    pub fn read(&self) -> Result<std::borrow::Cow<'_, [u8]>, RunError> {
        match self {
            Input::Bytes(bytes) => Ok(std::borrow::Cow::Borrowed(bytes)),
            Input::File(path) => Ok(std::borrow::Cow::Owned(path.read()?)),
        }
    }

    /// The input as the file `name` of a working folder.
    pub fn as_box_file(&self, name: &str) -> Result<BoxFile, OpenError> {
        Ok(match self {
            Input::File(path) => BoxFile::copy(name, SharedFile::new(path.open()?)),
            Input::Bytes(bytes) => BoxFile::bytes(name, *bytes),
        })
    }

    /// The input as a program's stdin.
    pub fn as_stdin(&self) -> Result<Stdin, OpenError> {
        Ok(match self {
            Input::File(path) => Stdin::File(path.open()?),
            Input::Bytes(bytes) => Stdin::Bytes(bytes.to_vec()),
        })
    }
}

/// Why a run did not happen.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The input file cannot be read: that case fails, the others go on.
    #[error(transparent)]
    Unreadable(#[from] OpenError),
    /// The program cannot be started at all: the whole run is meaningless.
    #[error(transparent)]
    CannotStart(#[from] SpawnError),
    /// grundy could not prepare the run (a temporary file).
    #[error("{0:#}")]
    Setup(anyhow::Error),
}
