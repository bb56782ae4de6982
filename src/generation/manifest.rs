//! What the last `generate` made, kept in `data/.grundy-generated.json` (hidden, so no reader of
//! the package takes it for data): each case's key (a hash of everything its files are made
//! from) and the hash of each file written. A case is made again only when its key changed or
//! one of its files is not as written. Read and written beneath the tree it is in, as the files
//! it records are.

use std::collections::BTreeMap;
use std::io::Read;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::make::Files;
use crate::files::beneath::TreePath;
use crate::files::Existing;

/// The manifest's name in `data/`.
pub const NAME: &str = ".grundy-generated.json";

/// The largest manifest read: a package's `data/` is the author's, and a manifest of 100,000
/// cases is some 25 MiB. A larger one is ignored (everything is made again).
const MANIFEST_BYTES: u64 = 64 << 20;

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Manifest {
    /// Case path (below `data/`) → what was made of it.
    pub cases: BTreeMap<String, Entry>,
    /// Groups whose `test_group.yaml` was written.
    #[serde(default)]
    pub groups: Vec<String>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Entry {
    pub key: String,
    /// Extension → SHA-256 of the file written.
    pub files: BTreeMap<String, String>,
}

pub fn hash(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Manifest {
    /// The manifest in `folder`, empty when there is none or it cannot be read (everything is
    /// then made again, which is always right).
    pub fn read(folder: &TreePath) -> Manifest {
        let mut bytes = vec![];
        let read = folder
            .join(NAME)
            .open()
            .ok()
            .and_then(|file| file.take(MANIFEST_BYTES + 1).read_to_end(&mut bytes).ok());
        read.filter(|&size| size as u64 <= MANIFEST_BYTES)
            .and_then(|_| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default()
    }

    pub fn write(&self, folder: &TreePath) -> anyhow::Result<()> {
        let text = serde_json::to_vec_pretty(self)?;
        folder.join(NAME).write(&text, Existing::Replace)?;
        Ok(())
    }

    /// Whether the case at `path` was made with `key` and its files are still as written.
    pub fn is_current(&self, folder: &TreePath, path: &str, key: &str) -> bool {
        let Some(entry) = self.cases.get(path) else {
            return false;
        };
        entry.key == key
            && entry.files.iter().all(|(ext, sum)| {
                case_file(folder, path, ext)
                    .read()
                    .is_ok_and(|bytes| &hash(&bytes) == sum)
            })
    }

    pub fn record(&mut self, path: &str, key: String, files: &Files) {
        let files = files
            .iter()
            .map(|(ext, bytes)| (ext.clone(), hash(bytes)))
            .collect();
        self.cases.insert(path.to_string(), Entry { key, files });
    }
}

/// `<path>.<ext>` in `folder` (a package's `data/`, a problem's fixtures).
pub fn case_file(folder: &TreePath, path: &str, ext: &str) -> TreePath {
    folder.join(format!("{path}.{ext}"))
}
