//! The `validation.h` BAPCtools gives validators at build time, which their packages then do
//! not ship: a C++ validator that includes it without having a file of that name gets grundy's
//! (`validation_h/validation.h`, written here from BAPCtools' documented interface) on its
//! compiler's include path. Its builds are kept apart in the cache by the header's content
//! ([`Include::cache`]), so a changed header builds them again.
//!
//! What the header does, and what it does not (generator mode, constraints files), is in its own
//! opening comment and in the book's chapter on languages.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::package::programs::SUPPLIED_HEADER;

/// grundy's header.
const HEADER: &str = include_str!("validation_h/validation.h");

/// The folder placed on a validator's include path, in its compiler's box.
pub const INCLUDE_DIR: &str = "include";

/// The headers supplied to validators that need them.
#[derive(Clone, Debug)]
pub struct Include {
    /// Each file: its name in [`INCLUDE_DIR`] and its bytes.
    pub files: Vec<(PathBuf, Vec<u8>)>,
    /// A short digest of the files, naming their builds' part of the cache.
    key: String,
}

impl Include {
    /// grundy's own header.
    pub fn builtin() -> Include {
        Include::of(vec![(
            PathBuf::from(SUPPLIED_HEADER),
            HEADER.as_bytes().to_vec(),
        )])
    }

    fn of(files: Vec<(PathBuf, Vec<u8>)>) -> Include {
        let mut hash = Sha256::new();
        for (name, bytes) in &files {
            let name = name.as_os_str().as_encoded_bytes();
            hash.update((name.len() as u64).to_le_bytes());
            hash.update(name);
            hash.update((bytes.len() as u64).to_le_bytes());
            hash.update(bytes);
        }
        let key = hash.finalize()[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        Include { files, key }
    }

    /// The cache folder of the builds given these headers, within the problem's `cache`.
    pub fn cache(&self, cache: &Path) -> PathBuf {
        cache.join(format!("with-validation-h-{}", self.key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_headers_name_their_own_cache_folder() {
        let builtin = Include::builtin();
        assert_eq!(builtin.files[0].0, Path::new("validation.h"));
        let other = Include::of(vec![(PathBuf::from("validation.h"), b"// mine\n".to_vec())]);
        assert_ne!(builtin.cache(Path::new("c")), other.cache(Path::new("c")));
        assert!(builtin.cache(Path::new("c")).starts_with("c"));
    }
}
