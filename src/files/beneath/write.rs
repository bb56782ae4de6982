//! Writing into a tree without ever leaving it: the folders on the way are opened from the root's
//! descriptor one name at a time ([`Folder::open_folder`]: `O_NOFOLLOW | O_DIRECTORY`, made with
//! `mkdirat` where missing), and the file is written in the last one's descriptor
//! ([`Folder::write`]). No link is followed on the way, not even one within the tree that
//! reading follows: a folder swapped for a link while grundy works (by a generator, say) makes
//! the write fail, naming the link, and nothing lands where it leads.

use std::ffi::OsStr;
use std::io;
use std::path::{Component, Path};

use std::sync::Arc;

use super::{Root, Scope, Tree, TreePath};
use crate::files::folder::{Entry, Existing, Folder, WriteError};

impl Tree {
    /// The tree rooted at `folder` (opened here, so already checked), for `scope`.
    pub fn of(folder: Folder, scope: Scope) -> Tree {
        Tree(Arc::new(Root {
            path: folder.path().to_path_buf(),
            fd: Some(Arc::new(folder.into_fd())),
            scope,
        }))
    }

    /// The root folder, to write into.
    pub fn folder(&self) -> Result<Folder, WriteError> {
        match self.fd() {
            Some(fd) => Folder::of(fd, self.path()),
            None => Err(WriteError::io(
                self.path(),
                io::Error::new(io::ErrorKind::Unsupported, "made in memory, not a folder"),
            )),
        }
    }
}

impl TreePath {
    /// The folder here, reached from the root one name at a time without following a link;
    /// the missing folders made when `make`, else `None` when one is missing.
    pub fn open_folder(&self, make: bool) -> Result<Option<Folder>, WriteError> {
        let mut folder = self.tree.folder()?;
        for name in self.names()? {
            folder = match make {
                true => folder.make_folder(name)?,
                false => match folder.open_folder(name)? {
                    Some(below) => below,
                    None => return Ok(None),
                },
            };
        }
        Ok(Some(folder))
    }

    /// The folder holding this file (as [`TreePath::open_folder`] opens it) and its name.
    pub fn parent_folder(&self, make: bool) -> Result<Option<(Folder, &OsStr)>, WriteError> {
        let relative = self.relative();
        let name = relative
            .file_name()
            .ok_or_else(|| WriteError::not_below(self.path()))?;
        let parent = self.tree.join(relative.parent().unwrap_or(Path::new("")));
        Ok(parent.open_folder(make)?.map(|folder| (folder, name)))
    }

    /// Writes `bytes` here atomically, making the folders on the way (see [`Folder::write`]).
    pub fn write(&self, bytes: &[u8], existing: Existing) -> Result<(), WriteError> {
        let (folder, name) = self.parent_folder(true)?.expect("made when missing");
        folder.write(name, bytes, existing)
    }

    /// What stands here, as its folder lists it (a link not followed); the folders on the way
    /// are not followed through links either.
    pub fn entry(&self) -> Result<Entry, WriteError> {
        match self.parent_folder(false)? {
            Some((folder, name)) => folder.entry(name),
            None => Ok(Entry::Missing),
        }
    }

    /// Removes the regular file here: `false` when nothing is there; anything else is left and
    /// an error.
    pub fn remove(&self) -> Result<bool, WriteError> {
        match self.parent_folder(false)? {
            Some((folder, name)) => folder.remove_file(name),
            None => Ok(false),
        }
    }

    /// The folder here as a tree of its own (for `scope`), made when missing and reached from
    /// the root without following a link.
    pub fn subtree(&self, scope: Scope) -> Result<Tree, WriteError> {
        let folder = self.open_folder(true)?.expect("made when missing");
        Ok(Tree::of(folder, scope))
    }

    /// The names of the relative path, which must all be plain (no `..`, not absolute).
    fn names(&self) -> Result<Vec<&OsStr>, WriteError> {
        self.relative()
            .components()
            .map(|component| match component {
                Component::Normal(name) => Ok(name),
                _ => Err(WriteError::not_below(self.path())),
            })
            .collect()
    }
}
