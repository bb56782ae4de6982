//! Every file of a package, read beneath its folder: folders in name order, grundy's own files
//! (names starting `.grundy-`: the generate manifest, temporary files, locks) left out. A link
//! within the package stands for what it leads to (a file's bytes, a folder's files), since
//! neither DOMjudge's importer nor every unzip keeps links; a link leading out of the package,
//! to nothing, or to a folder holding it is an error, as is anything but a file or a folder.

use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;

use super::ExportError;
use crate::files::beneath::{Identity, Kind, Listed, Tree, TreePath};

/// The names grundy gives the files it keeps in a package or beside its writes.
const GRUNDY_OWN: &[u8] = b".grundy-";

/// One file as it goes into the archive.
pub struct Entry {
    /// Its path in the archive, `/`-separated.
    pub name: String,
    pub contents: Contents,
    /// Any execute bit set on the file: kept, as a package's `build` and `run` scripts need it.
    pub executable: bool,
}

/// What an entry holds.
pub enum Contents {
    /// Bytes grundy made (DOMjudge's ini).
    Made(Vec<u8>),
    /// A file of the package, `size` bytes when it was listed, read (beneath the package) only
    /// as the archive is written, so a package's data is never held whole.
    File { path: TreePath, size: u64 },
}

/// The files below `tree` whose path `keep` takes (paths relative to the root, `/`-separated),
/// sorted by path, and the paths of those it did not take.
pub fn collect(
    tree: &Tree,
    keep: &dyn Fn(&str) -> bool,
) -> Result<(Vec<Entry>, Vec<String>), ExportError> {
    let mut walk = Walk {
        keep,
        entries: vec![],
        skipped: vec![],
        holding: vec![],
    };
    let root = tree.join("");
    let Some(Kind::Folder(identity)) = root.kind()? else {
        unreachable!("a tree's root is the folder it was opened as")
    };
    walk.folder(&root, "", identity)?;
    walk.entries.sort_by(|a, b| a.name.cmp(&b.name));
    walk.skipped.sort();
    Ok((walk.entries, walk.skipped))
}

struct Walk<'k> {
    keep: &'k dyn Fn(&str) -> bool,
    entries: Vec<Entry>,
    skipped: Vec<String>,
    /// The folders holding the one being read, a link back to any of which would loop.
    holding: Vec<Identity>,
}

impl Walk<'_> {
    fn folder(
        &mut self,
        folder: &TreePath,
        prefix: &str,
        identity: Identity,
    ) -> Result<(), ExportError> {
        self.holding.push(identity);
        let mut listed = vec![];
        folder.for_each_entry(|name, kind| {
            if !name.starts_with(GRUNDY_OWN) {
                listed.push((name.to_vec(), kind));
            }
        })?;
        listed.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, kind) in listed {
            let path = folder.join(std::ffi::OsStr::from_bytes(&name));
            let name = std::str::from_utf8(&name)
                .map_err(|_| ExportError::NotUtf8(path.path().to_path_buf()))?;
            let name = format!("{prefix}{name}");
            let kind = match kind {
                Listed::File => Kind::File,
                // Followed beneath the root: a link out of it is refused here.
                Listed::Link | Listed::Folder | Listed::Other => match path.kind()? {
                    Some(kind) => kind,
                    None => return Err(refused(&path)),
                },
            };
            match kind {
                Kind::File if (self.keep)(&name) => self.file(&path, name)?,
                Kind::File => self.skipped.push(name),
                Kind::Folder(inner) if self.holding.contains(&inner) => {
                    return Err(ExportError::LinkLoop(path.path().to_path_buf()))
                }
                Kind::Folder(inner) => self.folder(&path, &format!("{name}/"), inner)?,
                // Opening it names what it is, and refuses it.
                Kind::Other(_) => return Err(refused(&path)),
            }
        }
        self.holding.pop();
        Ok(())
    }

    fn file(&mut self, path: &TreePath, name: String) -> Result<(), ExportError> {
        self.entries.push(read(path, name)?);
        Ok(())
    }
}

/// The file at `path` (opened beneath its tree, to see that it is one) as the entry `name`.
pub fn read(path: &TreePath, name: String) -> Result<Entry, ExportError> {
    let file = path.open()?;
    let metadata = file.metadata().map_err(|source| ExportError::Read {
        path: path.path().to_path_buf(),
        source,
    })?;
    Ok(Entry {
        name,
        contents: Contents::File {
            path: path.clone(),
            size: metadata.len(),
        },
        executable: metadata.permissions().mode() & 0o111 != 0,
    })
}

/// What opening `path` says of a link to nothing or of a FIFO, socket or device (the kernel's
/// words, beneath the root); should it open after all, it changed while the package was read.
fn refused(path: &TreePath) -> ExportError {
    match path.open() {
        Err(error) => error.into(),
        Ok(_) => ExportError::Read {
            path: path.path().to_path_buf(),
            source: std::io::Error::other("it changed while the package was read"),
        },
    }
}
