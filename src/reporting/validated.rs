//! What `validate` reports, as plain data its events carry: each input against what its group
//! wants ([`InputFinding`]: a built-in problem's validator's word, or how a package's own
//! validators left it), and each package's validation as a whole ([`PackageValidation`]).
//! Made by `commands::validate`, rendered by every reporter.

use std::fmt;

use grundy_problems::{Constraints, InputError};

use super::findings::{Fault, Unchecked, Unreadable};
use super::unit::Outcome;
use super::verified::Status;

/// What became of one input.
#[derive(Debug)]
pub enum InputFinding {
    /// Valid, where a valid input is wanted, under these limits.
    Valid(Constraints),
    /// Invalid where an invalid one is wanted (an `invalid/` group), as its validator said.
    Rejected(InputError),
    /// Invalid where a valid one is wanted.
    Invalid(InputError),
    /// Valid under these limits, in an `invalid/` group.
    Accepted(Constraints),
    /// It cannot be read, and why.
    Unreadable(String),
    /// A package's input that one of its checks failed on (its package's findings say which).
    Failed,
    /// A package's input that not every validator could check.
    Unchecked,
}

impl InputFinding {
    /// Passed when it is what its group wants; skipped when it could not all be checked.
    pub fn outcome(&self) -> Outcome {
        match self {
            InputFinding::Valid(_) | InputFinding::Rejected(_) => Outcome::Passed,
            InputFinding::Unchecked => Outcome::Skipped,
            InputFinding::Invalid(_)
            | InputFinding::Accepted(_)
            | InputFinding::Unreadable(_)
            | InputFinding::Failed => Outcome::Failed,
        }
    }

    /// Its name in the JSON lines.
    pub fn name(&self) -> &'static str {
        match self {
            InputFinding::Valid(_) => "valid",
            InputFinding::Rejected(_) => "rejected",
            InputFinding::Invalid(_) => "invalid",
            InputFinding::Accepted(_) => "accepted",
            InputFinding::Unreadable(_) => "unreadable",
            InputFinding::Failed => "failed",
            InputFinding::Unchecked => "unchecked",
        }
    }

    /// What was said of it, in a line (none for an input of a package, whose findings are the
    /// package's).
    pub fn message(&self) -> Option<String> {
        match self {
            InputFinding::Valid(limits) => Some(format!("valid under the {}", Limits(*limits))),
            InputFinding::Rejected(error) => Some(format!("rejected as intended: {error}")),
            InputFinding::Invalid(error) => Some(error.to_string()),
            InputFinding::Accepted(limits) => Some(format!(
                "valid under the {}, but inputs in an `invalid/` group must break the format or \
                 the limits",
                Limits(*limits)
            )),
            InputFinding::Unreadable(why) => Some(why.clone()),
            InputFinding::Failed | InputFinding::Unchecked => None,
        }
    }
}

/// The limits an input is held to, named for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits(pub Constraints);

impl fmt::Display for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Constraints::Original => "original limits",
            Constraints::Extended => "extended limits",
        })
    }
}

/// A package's data through its own validators, as a whole; or a package that could not be
/// read.
#[derive(Debug, Default)]
pub struct PackageValidation {
    pub name: String,
    /// Why it could not be read: it was not validated, and it fails.
    pub unreadable: Option<Unreadable>,
    /// What makes it invalid.
    pub errors: Vec<Fault>,
    /// What could not be checked.
    pub unchecked: Vec<Unchecked>,
    /// One line of what was checked.
    pub summary: String,
}

impl PackageValidation {
    pub fn status(&self) -> Status {
        if self.unreadable.is_some() || !self.errors.is_empty() {
            Status::Invalid
        } else if !self.unchecked.is_empty() {
            Status::NotVerified
        } else {
            Status::Valid
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_input_passes_when_it_is_what_its_group_wants() {
        let valid = InputFinding::Valid(Constraints::Extended);
        assert_eq!(valid.outcome(), Outcome::Passed);
        assert_eq!(
            valid.message().as_deref(),
            Some("valid under the extended limits")
        );
        let accepted = InputFinding::Accepted(Constraints::Original);
        assert_eq!(accepted.outcome(), Outcome::Failed);
        assert!(accepted
            .message()
            .unwrap()
            .starts_with("valid under the original limits, but"));
        assert_eq!(InputFinding::Unchecked.outcome(), Outcome::Skipped);
        assert_eq!(InputFinding::Failed.message(), None);
    }

    #[test]
    fn a_package_that_cannot_be_read_is_invalid() {
        let unread = PackageValidation {
            unreadable: Some(Unreadable::NotGenerated {
                package: "p".into(),
                failed: 1,
            }),
            ..PackageValidation::default()
        };
        assert_eq!(unread.status(), Status::Invalid);
        assert_eq!(PackageValidation::default().status(), Status::Valid);
    }
}
