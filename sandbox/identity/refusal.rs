//! Why a uid of the range is not taken for a box, and the error of a claim that found none
//! free: each uid refused for a reason the user can act on, with what was seen.

use std::fmt;
use std::path::PathBuf;

/// Why a uid that no account has and no other run holds is still not taken.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// Grundy never ran programs as it in this boot, yet it runs processes (some of their pids).
    Processes { uid: u32, pids: Vec<u32> },
    /// Grundy never ran programs as it in this boot, yet it owns this file in a shared folder.
    File { uid: u32, path: PathBuf },
    /// Processes grundy left running as it (an earlier run's) were still there a second after
    /// they were killed.
    StillEnding { uid: u32 },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Processes { uid, pids } => {
                let pids: Vec<String> = pids.iter().map(u32::to_string).collect();
                write!(
                    f,
                    "uid {uid} runs processes grundy did not start (pid {}), so it is not a free \
                     box user",
                    pids.join(", ")
                )
            }
            Refusal::File { uid, path } => write!(
                f,
                "uid {uid} owns {}, which grundy did not make, so it is not a free box user",
                path.display()
            ),
            Refusal::StillEnding { uid } => write!(
                f,
                "the processes an earlier run left as uid {uid} were still ending a second after \
                 they were killed"
            ),
        }
    }
}

/// No uid of the range could be claimed, and why not.
#[derive(Debug)]
pub(crate) struct NoFreeUser {
    pub first: u32,
    pub last: u32,
    /// Where the range was chosen, and how to choose another (the caller's words).
    pub hint: String,
    /// How many uids belong to accounts, and how many other runs hold.
    pub accounts: u32,
    pub busy: u32,
    /// The first uid refused, and how many were.
    pub refused: Option<Refusal>,
    pub refusals: u32,
}

impl std::error::Error for NoFreeUser {}

impl fmt::Display for NoFreeUser {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no box user is free among uids {} to {}",
            self.first, self.last
        )?;
        if !self.hint.is_empty() {
            write!(f, " ({})", self.hint)?;
        }
        let mut why = Vec::new();
        if let Some(refused) = &self.refused {
            why.push(refused.to_string());
            if self.refusals > 1 {
                why.push(format!("{} more are not free either", self.refusals - 1));
            }
        }
        if self.busy > 0 {
            why.push(format!("{} in use by other runs", self.busy));
        }
        if self.accounts > 0 {
            why.push(format!("{} belong to accounts", self.accounts));
        }
        write!(f, ": {}", why.join("; "))?;
        if self.refused.is_some() {
            f.write_str("; choose uids that no account, container or service uses")?;
        }
        Ok(())
    }
}
