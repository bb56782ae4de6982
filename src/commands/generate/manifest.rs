//! What the last `generate` made, kept in `data/.grundy-generated.json` (hidden, so no reader of
//! the package takes it for data): each case's key (a hash of everything its files are made
//! from) and the hash of each file written. A case is made again only when its key changed or
//! one of its files is not as written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::make::Files;
use crate::files::{write_atomic, Existing};

/// The manifest's name in `data/`.
pub const NAME: &str = ".grundy-generated.json";

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
    /// The manifest of `data`, empty when there is none or it cannot be read (everything is
    /// then made again, which is always right).
    pub fn read(data: &Path) -> Manifest {
        std::fs::read(data.join(NAME))
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default()
    }

    pub fn write(&self, data: &Path) -> anyhow::Result<()> {
        let text = serde_json::to_vec_pretty(self)?;
        write_atomic(&data.join(NAME), &text, Existing::Replace)
    }

    /// Whether the case at `path` was made with `key` and its files are still as written.
    pub fn is_current(&self, data: &Path, path: &str, key: &str) -> bool {
        let Some(entry) = self.cases.get(path) else {
            return false;
        };
        entry.key == key
            && entry.files.iter().all(|(ext, sum)| {
                std::fs::read(case_file(data, path, ext)).is_ok_and(|bytes| &hash(&bytes) == sum)
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

/// `data/<path>.<ext>`.
pub fn case_file(data: &Path, path: &str, ext: &str) -> PathBuf {
    data.join(format!("{path}.{ext}"))
}
