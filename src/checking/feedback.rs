//! The feedback folder of a multi-pass problem's output validator (or interactor), carried from
//! one pass of a case to the next. Kattis runs the validator of every pass with the same feedback
//! folder: what it left there in one pass, it finds in the next; a `nextpass.in` it wrote is the
//! program's input in the next pass, and is taken out of the folder before that pass.
//!
//! Between passes the folder lives in a temporary folder of grundy's, removed with the
//! [`Feedback`]. Each pass's judge gets a writable copy of it in its own working folder, and
//! what the judge left there is copied back out after its run (regular files and folders only,
//! no links followed, within the judge's output limit).

use std::io;
use std::path::{Path, PathBuf};

use grundy_sandbox::{BoxFile, Outcome};

/// The file a multi-pass validator writes to ask for another pass.
pub const NEXT_PASS: &str = "nextpass.in";

/// The folders inside the temporary folder: the one carried, and where a judge's run copies its
/// feedback folder out to.
const KEPT: &str = "kept";
const RETURNED: &str = "returned";

/// A feedback folder shared by the passes of one case.
#[derive(Debug)]
pub struct Feedback {
    dir: tempfile::TempDir,
}

impl Feedback {
    /// An empty feedback folder, for the first pass.
    pub fn new() -> io::Result<Feedback> {
        let dir = tempfile::Builder::new()
            .prefix("grundy-feedback-")
            .tempdir()?;
        std::fs::create_dir(dir.path().join(KEPT))?;
        Ok(Feedback { dir })
    }

    fn kept(&self) -> PathBuf {
        self.dir.path().join(KEPT)
    }

    fn returned(&self) -> PathBuf {
        self.dir.path().join(RETURNED)
    }

    /// The judge's feedback folder `name` (in its working folder) holding what the earlier passes
    /// left, and the export that brings it back after the run.
    pub fn placed(&self, name: &str) -> (BoxFile, (PathBuf, PathBuf)) {
        (
            BoxFile::writable_copy(name, self.kept()),
            (PathBuf::from(name), self.returned()),
        )
    }

    /// After a judge's run that exited with `exit` (42 or 43): keeps what it left in its feedback
    /// folder for the next pass. Only a judge that accepts (42) may ask for another pass; one
    /// that wrote `nextpass.in` and rejected is broken. The error says what the judge did wrong,
    /// to follow its name.
    pub fn keep(&self, outcome: &Outcome, exit: i32) -> Result<(), FeedbackError> {
        let returned = self.returned();
        if !outcome.exported.contains(&returned) {
            remove(&returned);
            return Err(FeedbackError::NotCopiedOut);
        }
        let kept = self.kept();
        remove(&kept);
        std::fs::rename(&returned, &kept).map_err(FeedbackError::NotKept)?;
        if exit != 42 && kept.join(NEXT_PASS).symlink_metadata().is_ok() {
            return Err(FeedbackError::NextPassRejected { exit });
        }
        Ok(())
    }

    /// The `nextpass.in` the last pass's judge wrote, taken out of the folder (`None`: it asked
    /// for no other pass).
    pub fn take_next_pass(&self) -> io::Result<Option<Vec<u8>>> {
        let path = self.kept().join(NEXT_PASS);
        if path.symlink_metadata().is_err() {
            return Ok(None);
        }
        let bytes = std::fs::read(&path)?;
        std::fs::remove_file(&path)?;
        Ok(Some(bytes))
    }
}

/// What a Kattis judge did wrong with its feedback folder, to follow its name.
#[derive(Debug, thiserror::Error)]
pub enum FeedbackError {
    /// The sandbox did not copy the folder out: over the output limit, or unreadable.
    #[error(
        "left a feedback folder that cannot be kept for the next pass (larger than the output \
         limit, or unreadable)"
    )]
    NotCopiedOut,
    #[error("left a feedback folder grundy cannot keep: {0}")]
    NotKept(io::Error),
    #[error(
        "wrote {NEXT_PASS} but exited with status {exit}: only a judge that accepts the pass \
         (exit 42) may ask for another"
    )]
    NextPassRejected { exit: i32 },
}

/// Removes a file or folder of the carried copies, if there.
fn remove(path: &Path) {
    let _ = std::fs::remove_dir_all(path).or_else(|_| std::fs::remove_file(path));
}

#[cfg(test)]
impl Feedback {
    /// What a judge's pass that exited with `exit` and left `files` in its feedback folder makes
    /// of the folder (the sandbox's export done by hand).
    pub fn left(&self, files: &[(&str, &[u8])], exit: i32) -> Result<(), FeedbackError> {
        let returned = self.returned();
        std::fs::create_dir(&returned).unwrap();
        for (name, bytes) in files {
            std::fs::write(returned.join(name), bytes).unwrap();
        }
        self.keep(&exported(vec![returned]), exit)
    }
}

/// The outcome of a judge's run that copied `exported` out.
#[cfg(test)]
fn exported(exported: Vec<PathBuf>) -> Outcome {
    Outcome {
        stdout: vec![],
        stderr: vec![],
        wall_time: std::time::Duration::ZERO,
        ended_at: std::time::Instant::now(),
        cpu_time: std::time::Duration::ZERO,
        peak_memory_bytes: None,
        end: grundy_sandbox::End::Exited(42),
        collected: vec![],
        exported,
        export_failures: vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_pass_leaves_is_kept_and_nextpass_in_is_taken_out() {
        let feedback = Feedback::new().unwrap();
        let (file, (inside, returned)) = feedback.placed("feedback");
        assert_eq!(file, BoxFile::writable_copy("feedback", feedback.kept()));
        assert_eq!(
            (inside.as_path(), returned.as_path()),
            (Path::new("feedback"), feedback.returned().as_path())
        );
        feedback
            .left(&[("count", b"1"), (NEXT_PASS, b"7\n")], 42)
            .unwrap();
        assert!(!returned.exists());
        assert_eq!(
            feedback.take_next_pass().unwrap().as_deref(),
            Some(&b"7\n"[..])
        );
        assert_eq!(feedback.take_next_pass().unwrap(), None, "taken out");
        let count = std::fs::read_to_string(feedback.kept().join("count")).unwrap();
        assert_eq!(count, "1");
        // The next pass's folder replaces this one's: what it removed is gone.
        feedback.left(&[("other", b"")], 42).unwrap();
        assert!(!feedback.kept().join("count").exists());
        let dir = feedback.dir.path().to_path_buf();
        drop(feedback);
        assert!(!dir.exists(), "nothing is left behind");
    }

    #[test]
    fn a_rejection_that_asks_for_another_pass_or_a_lost_folder_is_the_judges_fault() {
        let feedback = Feedback::new().unwrap();
        let error = feedback.left(&[(NEXT_PASS, b"")], 43).unwrap_err();
        assert!(
            matches!(error, FeedbackError::NextPassRejected { exit: 43 }),
            "{error}"
        );
        feedback.left(&[("judgemessage.txt", b"no")], 43).unwrap();
        // Not copied out (over the output limit): nothing can go on.
        std::fs::create_dir(feedback.returned()).unwrap();
        let error = feedback.keep(&exported(vec![]), 42).unwrap_err();
        assert!(matches!(error, FeedbackError::NotCopiedOut), "{error}");
        assert!(!feedback.returned().exists());
    }
}
