//! Why a file of a tree was not opened ([`OpenError`]): the path asked for, the tree's kind
//! ([`Scope`]), and the reason, rendered once for messages; and the bound on links a path may
//! pass ([`MAX_LINKS`]), which the walk keeps and the message names. What is opened, and how, is
//! the parent module's.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// How many links one path may pass through before it is taken for a loop (the kernel's limit).
pub(super) const MAX_LINKS: usize = 40;

/// What a tree is, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// A Kattis problem package, whose format allows links only within it.
    Package,
    /// A folder of fixtures.
    Fixtures,
    /// A program given on the command line (`--exec sol.cpp`): its folder.
    Program,
}

impl Scope {
    pub(super) fn noun(self) -> &'static str {
        match self {
            Scope::Package => "the package",
            Scope::Fixtures => "the fixtures root",
            Scope::Program => "the program's folder",
        }
    }

    pub(super) fn rule(self) -> &'static str {
        match self {
            Scope::Package => "the format allows links only within it",
            Scope::Fixtures => "only links within it are followed",
            Scope::Program => "a program is built from the files within it",
        }
    }
}

/// Why a file of a tree was not opened: where, and why.
#[derive(Debug)]
pub struct OpenError {
    /// The path asked for (the root's path joined with the relative one).
    pub(super) path: PathBuf,
    pub(super) scope: Scope,
    pub(super) why: Why,
}

#[derive(Debug)]
pub(super) enum Why {
    Io(io::Error),
    /// The path itself is absolute or climbs above the root.
    Outside,
    /// A link on the way climbs above the root (`link`: below the root on a walk, in full in
    /// an [`OpenError`]).
    LinkOutside {
        link: PathBuf,
        target: PathBuf,
    },
    AbsoluteLink {
        link: PathBuf,
        target: PathBuf,
    },
    TooManyLinks,
    NotFile(&'static str),
    NotFolder(&'static str),
}

impl OpenError {
    /// Nothing is there (or a link leads to nothing).
    pub fn is_missing(&self) -> bool {
        matches!(&self.why, Why::Io(e) if e.kind() == io::ErrorKind::NotFound)
    }

    /// A link on the way leads out of the tree (or is absolute).
    pub fn leads_outside(&self) -> bool {
        matches!(
            &self.why,
            Why::LinkOutside { .. } | Why::AbsoluteLink { .. }
        )
    }

    /// The file to blame: the link leading out when one does, else the path asked for.
    pub fn file(&self) -> &Path {
        match &self.why {
            Why::LinkOutside { link, .. } | Why::AbsoluteLink { link, .. } => link,
            _ => &self.path,
        }
    }

    /// What is wrong with [`OpenError::file`], in words.
    pub fn reason(&self) -> String {
        let (noun, rule) = (self.scope.noun(), self.scope.rule());
        match &self.why {
            Why::Io(error) => format!("cannot read it: {error}"),
            Why::Outside => format!("not a path within {noun}; only files within it are read"),
            Why::LinkOutside { target, .. } => {
                format!("links outside {noun} (to {}); {rule}", target.display())
            }
            Why::AbsoluteLink { target, .. } => format!(
                "an absolute link (to {}); {rule}, by relative links",
                target.display()
            ),
            Why::TooManyLinks => {
                format!("more than {MAX_LINKS} links on the way to it (a loop of links?)")
            }
            Why::NotFile(kind) => {
                format!("{kind}, not a regular file; only regular files are read")
            }
            Why::NotFolder(kind) => format!("{kind}, not a folder"),
        }
    }
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file().display(), self.reason())
    }
}

impl std::error::Error for OpenError {}

impl From<OpenError> for io::Error {
    fn from(error: OpenError) -> io::Error {
        io::Error::other(error)
    }
}
