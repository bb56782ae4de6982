//! A zip made of nothing but its entries' names, bytes and execute bits: entries in the order
//! given (sorted by the caller), every one dated 1980-01-01 00:00 (the format's first date),
//! made on Unix with mode 0644 or 0755, deflated, no folder entries, no extra fields. So the
//! same files always give the same bytes, whoever exports them, wherever, whenever.

use std::io::{Cursor, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

use super::Entry;

pub fn zip(entries: &[Entry]) -> zip::result::ZipResult<Vec<u8>> {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .last_modified_time(DateTime::default());
    for entry in entries {
        let mode = if entry.executable { 0o755 } else { 0o644 };
        // Zip64 fields only where the format needs them (a file past 4 GiB).
        let large = entry.bytes.len() as u64 >= u64::from(u32::MAX);
        writer.start_file(
            entry.name.as_str(),
            options.unix_permissions(mode).large_file(large),
        )?;
        writer.write_all(&entry.bytes)?;
    }
    Ok(writer.finish()?.into_inner())
}
