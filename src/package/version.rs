//! The package format versions grundy reads (legacy, 2023-07, 2025-09), which decide how much of
//! a package's layout and `problem.yaml` means.

use std::fmt;

/// The version of the format a package is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FormatVersion {
    Legacy,
    V2023_07,
    V2025_09,
}

impl FormatVersion {
    pub fn is_legacy(self) -> bool {
        self == FormatVersion::Legacy
    }
}

impl fmt::Display for FormatVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FormatVersion::Legacy => "legacy",
            FormatVersion::V2023_07 => "2023-07-draft",
            FormatVersion::V2025_09 => "2025-09",
        })
    }
}
