//! A zip made of nothing but its entries' names, bytes and execute bits: entries in the order
//! given (sorted by the caller), every one dated 1980-01-01 00:00 (the format's first date),
//! made on Unix with mode 0644 or 0755, deflated, no folder entries, no extra fields. So the
//! same files always give the same bytes, whoever exports them, wherever, whenever. Written as
//! it is made: each package file is read into the zip a piece at a time, and the zip goes
//! straight to its writer (the temporary file that becomes the export), so neither is held
//! whole.

use std::io::{Read, Seek, Write};

use zip::result::ZipError;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

use super::walk::Contents;
use super::{Entry, ExportError};
use crate::files::beneath::TreePath;

/// Writes the zip of `entries` into `out`; `zip_error` names what a failure of the zip library
/// (or of `out`) is an error of.
pub fn zip(
    entries: &[Entry],
    out: impl Write + Seek,
    zip_error: impl Fn(ZipError) -> ExportError,
) -> Result<(), ExportError> {
    let mut writer = ZipWriter::new(out);
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .last_modified_time(DateTime::default());
    for entry in entries {
        let mode = if entry.executable { 0o755 } else { 0o644 };
        let size = match &entry.contents {
            Contents::Made(bytes) => bytes.len() as u64,
            Contents::File { size, .. } => *size,
        };
        // Zip64 fields only where the format needs them (a file past 4 GiB).
        let large = size >= u64::from(u32::MAX);
        writer
            .start_file(
                entry.name.as_str(),
                options.unix_permissions(mode).large_file(large),
            )
            .map_err(&zip_error)?;
        match &entry.contents {
            Contents::Made(bytes) => writer
                .write_all(bytes)
                .map_err(|error| zip_error(error.into()))?,
            Contents::File { path, .. } => copy(path, &mut writer, &zip_error)?,
        }
    }
    writer.finish().map_err(zip_error)?;
    Ok(())
}

/// The package file at `path`, opened beneath the package again, into `writer` a piece at a
/// time; its read errors name it.
fn copy(
    path: &TreePath,
    writer: &mut impl Write,
    zip_error: impl Fn(ZipError) -> ExportError,
) -> Result<(), ExportError> {
    let mut file = path.open()?;
    let mut buffer = vec![0; 64 * 1024];
    loop {
        let read = match file.read(&mut buffer) {
            Ok(0) => return Ok(()),
            Ok(read) => read,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(source) => {
                return Err(ExportError::Read {
                    path: path.path().to_path_buf(),
                    source,
                })
            }
        };
        writer
            .write_all(&buffer[..read])
            .map_err(|error| zip_error(error.into()))?;
    }
}
