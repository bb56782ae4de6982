//! The settings only the user's own configuration may make: those that reach past the project
//! into the machine. The box uids (`first_box_uid`, `box_uids`) are users grundy, as root, runs
//! programs as, and whose processes and files it ends and removes when it claims them again;
//! `isolate = "off"` judges programs where nothing keeps them from the user's files. They are
//! taken from `GRUNDY_BOX_UIDS` or `--isolate off`, from a file named with `--config`, or from
//! the `runner.toml` of the folder grundy runs in when that file is the user's (theirs or
//! root's, and writable by its owner alone). A runner.toml found above that folder (a contest's
//! someone else unpacked, say) or someone else's has them ignored, each with a warning that
//! names where it is and where to set it instead: the user did not choose that file, so an
//! error would stop their run over a folder they may not control.

use std::fmt;
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use toml::Spanned;

use super::file::RunnerFile;
use super::invalid::{line_column, Invalid, SpannedError};
use crate::locate::Found;

/// The variable that sets the box uids: `FIRST:COUNT`.
pub const BOX_UIDS_VARIABLE: &str = "GRUNDY_BOX_UIDS";

/// Why a runner.toml is not the user's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotYours {
    /// It was found in a folder above the one grundy runs in.
    Above,
    /// It belongs to this uid, neither the user's nor root's.
    Owner(u32),
    /// Users other than its owner may write it.
    Writable,
}

/// The largest runner.toml read: a settings file is a few lines, and one found above the current
/// folder may be anyone's.
const MAX_FILE_BYTES: u64 = 1 << 20;

/// The text of the settings file at `path`, and why it is not the user's own when it is not,
/// both from the file as opened (so another file swapped in after a look is never trusted).
pub(super) fn read(path: &Path, found: Found) -> std::io::Result<(String, Option<NotYours>)> {
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    let mut text = String::new();
    file.take(MAX_FILE_BYTES + 1).read_to_string(&mut text)?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::other(format!(
            "it is larger than {} MiB, which no settings file needs",
            MAX_FILE_BYTES >> 20
        )));
    }
    let me = rustix::process::getuid().as_raw();
    Ok((text, not_yours(found, meta.uid(), meta.mode(), me)))
}

/// Whether a runner.toml found so, of this owner and mode, is the settings of the user `me`
/// (the real uid grundy runs as); `None` when it is.
pub(super) fn not_yours(found: Found, owner: u32, mode: u32, me: u32) -> Option<NotYours> {
    match found {
        Found::Named => None,
        Found::Above => Some(NotYours::Above),
        Found::Here if owner != me && owner != 0 => Some(NotYours::Owner(owner)),
        Found::Here if mode & 0o022 != 0 => Some(NotYours::Writable),
        Found::Here => None,
    }
}

/// A key only the user's own settings may set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Privileged {
    FirstBoxUid,
    BoxUids,
    IsolateOff,
}

impl Privileged {
    /// The key as the file holds it.
    fn written(self) -> &'static str {
        match self {
            Privileged::FirstBoxUid => "first_box_uid",
            Privileged::BoxUids => "box_uids",
            Privileged::IsolateOff => "isolate = \"off\"",
        }
    }

    /// What it decides.
    fn decides(self) -> &'static str {
        match self {
            Privileged::FirstBoxUid | Privileged::BoxUids => {
                "choose the uids grundy runs judged programs as"
            }
            Privileged::IsolateOff => "judge programs where nothing keeps them from your files",
        }
    }

    /// Where the user sets it instead of in their own runner.toml.
    fn elsewhere(self) -> String {
        match self {
            Privileged::FirstBoxUid | Privileged::BoxUids => {
                format!("set {BOX_UIDS_VARIABLE}=FIRST:COUNT")
            }
            Privileged::IsolateOff => "pass --isolate off".to_string(),
        }
    }
}

/// A privileged key of a runner.toml that is not the user's, ignored.
#[derive(Debug)]
pub struct Ignored {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
    pub key: Privileged,
    pub why: NotYours,
}

impl fmt::Display for Ignored {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (key, elsewhere) = (self.key.written(), self.key.elsewhere());
        write!(
            f,
            "{}:{}:{}: {key} is ignored: only your own settings may {}, and ",
            self.file.display(),
            self.line,
            self.column,
            self.key.decides()
        )?;
        match self.why {
            NotYours::Above => write!(
                f,
                "this file is in a folder above the one grundy runs in; {elsewhere}, name the \
                 file with --config, or run grundy in its folder"
            ),
            NotYours::Owner(uid) => write!(
                f,
                "this file belongs to uid {uid}, not to you; {elsewhere}, or name a file of \
                 yours with --config"
            ),
            NotYours::Writable => write!(
                f,
                "users other than its owner may write this file; make it writable by its \
                 owner alone (chmod go-w), or {elsewhere}"
            ),
        }
    }
}

/// Takes the privileged keys out of `file` (at `path`, holding `text`), which is not the
/// user's for `why`: each one left out, located, for a warning.
pub(super) fn withhold(
    file: &mut RunnerFile,
    why: NotYours,
    path: &Path,
    text: &str,
) -> Vec<Ignored> {
    let mut withheld = Vec::new();
    if let Some(first) = file.first_box_uid.take() {
        withheld.push((first.span().start, Privileged::FirstBoxUid));
    }
    if let Some(count) = file.box_uids.take() {
        withheld.push((count.span().start, Privileged::BoxUids));
    }
    let off = |value: &toml::Value| value.as_str() == Some("off");
    if let Some(isolate) = file.isolate.take_if(|isolate| off(isolate.get_ref())) {
        withheld.push((isolate.span().start, Privileged::IsolateOff));
    }
    withheld
        .into_iter()
        .map(|(at, key)| {
            let (line, column) = line_column(text, at);
            Ignored {
                file: path.to_path_buf(),
                line,
                column,
                key,
                why,
            }
        })
        .collect()
}

/// The range `GRUNDY_BOX_UIDS` sets, if it is set (and not empty).
pub fn box_uids_from_environment() -> Result<Option<(u32, u32)>, BadBoxUids> {
    match std::env::var_os(BOX_UIDS_VARIABLE) {
        Some(value) if !value.is_empty() => parse_box_uids(&value.to_string_lossy()).map(Some),
        _ => Ok(None),
    }
}

/// The largest uid a box user may have: (uid_t)-1 is no uid.
const LAST_UID: u32 = u32::MAX - 1;

/// `FIRST:COUNT`: `COUNT` uids from `FIRST`, at least one, none past [`LAST_UID`].
fn parse_box_uids(value: &str) -> Result<(u32, u32), BadBoxUids> {
    let bad = |reason| BadBoxUids {
        value: value.to_string(),
        reason,
    };
    let (first, count) = value
        .split_once(':')
        .and_then(|(first, count)| Some((first.parse::<u32>().ok()?, count.parse::<u32>().ok()?)))
        .ok_or_else(|| bad(BoxUidsReason::NotTwoNumbers))?;
    if count == 0 {
        return Err(bad(BoxUidsReason::NoUids));
    }
    if u64::from(first) + u64::from(count) - 1 > u64::from(LAST_UID) {
        return Err(bad(BoxUidsReason::PastTheLastUid));
    }
    Ok((first, count))
}

/// `GRUNDY_BOX_UIDS` holds no range of uids.
#[derive(Debug, thiserror::Error)]
#[error(
    "{BOX_UIDS_VARIABLE}={}: {reason}; write FIRST:COUNT, as in {BOX_UIDS_VARIABLE}=60000:1000",
    crate::escape::visible_line(value)
)]
pub struct BadBoxUids {
    value: String,
    reason: BoxUidsReason,
}

#[derive(Debug, thiserror::Error)]
enum BoxUidsReason {
    #[error("expected two whole numbers below 2^32 separated by a colon")]
    NotTwoNumbers,
    #[error("COUNT must be at least 1")]
    NoUids,
    #[error("the range passes the largest uid, {LAST_UID}")]
    PastTheLastUid,
}

/// The uids judged programs run as when grundy is root, and what chose them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoxUids {
    pub first: u32,
    pub count: u32,
    pub chosen_by: ChosenBy,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChosenBy {
    Default,
    Environment,
    File(PathBuf),
}

/// The uids judged programs run as when grundy is root, unless something else chooses them.
pub(super) const DEFAULT_FIRST_BOX_UID: u32 = 60_000;
pub(super) const DEFAULT_BOX_UIDS: u32 = 1_000;

impl BoxUids {
    /// The range in force: `GRUNDY_BOX_UIDS`'s (`variable`), else the one the file at `path`
    /// sets with `first` and `count` (each defaulting alone), else the default.
    pub(super) fn resolve(
        variable: Option<(u32, u32)>,
        first: Option<Spanned<u32>>,
        count: Option<Spanned<u32>>,
        path: &Path,
    ) -> Result<BoxUids, SpannedError> {
        if let Some((first, count)) = variable {
            let chosen_by = ChosenBy::Environment;
            return Ok(BoxUids {
                first,
                count,
                chosen_by,
            });
        }
        if first.is_none() && count.is_none() {
            return Ok(BoxUids {
                first: DEFAULT_FIRST_BOX_UID,
                count: DEFAULT_BOX_UIDS,
                chosen_by: ChosenBy::Default,
            });
        }
        let count = match count {
            Some(count) if *count.get_ref() == 0 => {
                return Err(SpannedError::new(&count, Invalid::NoBoxUids));
            }
            Some(count) => count.into_inner(),
            None => DEFAULT_BOX_UIDS,
        };
        Ok(BoxUids {
            first: first.map_or(DEFAULT_FIRST_BOX_UID, Spanned::into_inner),
            count,
            chosen_by: ChosenBy::File(path.to_path_buf()),
        })
    }

    /// Where the range was chosen and how to choose another, for an error that finds none of
    /// its uids free.
    pub fn hint(&self) -> String {
        match &self.chosen_by {
            ChosenBy::Default => format!(
                "grundy's default; {BOX_UIDS_VARIABLE}=FIRST:COUNT, or first_box_uid and \
                 box_uids in your own runner.toml, choose others"
            ),
            ChosenBy::Environment => format!("set by {BOX_UIDS_VARIABLE}"),
            ChosenBy::File(file) => {
                format!("set by first_box_uid and box_uids in {}", file.display())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_yours_when_named_or_here_yours_or_roots_and_writable_by_its_owner_alone() {
        let me = 1000;
        for (found, owner, mode) in [(Found::Named, 4321, 0o666), (Found::Above, me, 0o644)] {
            let expected = (found == Found::Above).then_some(NotYours::Above);
            assert_eq!(not_yours(found, owner, mode, me), expected);
        }
        assert_eq!(not_yours(Found::Here, me, 0o644, me), None);
        assert_eq!(not_yours(Found::Here, 0, 0o600, me), None);
        assert_eq!(not_yours(Found::Here, 0, 0o644, 0), None);
        assert_eq!(
            not_yours(Found::Here, 4321, 0o644, me),
            Some(NotYours::Owner(4321))
        );
        for mode in [0o664, 0o646, 0o620, 0o602] {
            assert_eq!(
                not_yours(Found::Here, me, mode, me),
                Some(NotYours::Writable),
                "{mode:o}"
            );
        }
    }

    #[test]
    fn the_variable_holds_a_first_uid_and_a_count_that_stay_below_the_no_uid() {
        assert_eq!(parse_box_uids("60000:1000").unwrap(), (60_000, 1_000));
        assert_eq!(parse_box_uids("4294967290:5").unwrap(), (4_294_967_290, 5));
        let reason = |value| parse_box_uids(value).unwrap_err().reason.to_string();
        for value in [
            "x",
            "60000",
            "1:",
            ":1",
            "1:2:3",
            "-1:5",
            " 1:2",
            "1:2 ",
            "4294967296:1",
        ] {
            assert_eq!(
                reason(value),
                "expected two whole numbers below 2^32 separated by a colon",
                "{value:?}"
            );
        }
        assert_eq!(reason("60000:0"), "COUNT must be at least 1");
        assert_eq!(
            reason("4294967290:6"),
            "the range passes the largest uid, 4294967294"
        );
        assert_eq!(
            parse_box_uids("a:b").unwrap_err().to_string(),
            "GRUNDY_BOX_UIDS=a:b: expected two whole numbers below 2^32 separated by a colon; \
             write FIRST:COUNT, as in GRUNDY_BOX_UIDS=60000:1000"
        );
    }
}
