//! Why a build failed, and whose fault that is: the program's ([`BuildError::Failed`], a compile
//! error) or the host's ([`HostError`]: the cache, a source that cannot be read, the compiler's
//! box). Its own module so the build stage ([`super`]) and the making of one build
//! ([`super::staging`]) both use it without reading each other, and judging's results can name
//! a host error without the stage.

use std::path::PathBuf;
use std::sync::Arc;

use grundy_sandbox::SpawnError;

use super::cache::CacheError;
use crate::files::beneath::OpenError;

/// A failure of the host during a build.
#[derive(Clone, Debug, thiserror::Error)]
pub enum HostError {
    /// The build cache cannot be made, read or written.
    #[error(transparent)]
    Cache(#[from] CacheError),
    /// A file of the program cannot be read.
    #[error("cannot read `{}`: {error}", path.display())]
    Source {
        path: PathBuf,
        error: Arc<std::io::Error>,
    },
    /// The compiler cannot be started: its box cannot be made, or the compiler is gone.
    #[error("the compiler cannot be started: {0}")]
    Sandbox(Arc<SpawnError>),
}

/// Why a build failed: the program's fault (a compile error), or the host's.
#[derive(Debug)]
pub enum BuildError {
    Failed(String),
    Host(HostError),
}

impl<E: Into<HostError>> From<E> for BuildError {
    fn from(error: E) -> Self {
        BuildError::Host(error.into())
    }
}

impl From<OpenError> for HostError {
    fn from(error: OpenError) -> Self {
        HostError::Source {
            path: error.file().to_path_buf(),
            error: Arc::new(std::io::Error::other(error.reason())),
        }
    }
}
