//! The scale of a built-in problem's generated input (`grundy gen --scale`, `stress --scale`, a
//! fixture recipe's `gen --scale N`): `small`, `medium`, `max` or a number, read the same way
//! wherever it is written.

/// A generator scale: no count or value above it (nor above the problem's own limits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scale(pub u64);

impl std::str::FromStr for Scale {
    type Err = ScaleError;

    fn from_str(text: &str) -> Result<Self, ScaleError> {
        match text {
            "small" => Ok(Scale(8)),
            "medium" => Ok(Scale(1000)),
            "max" => Ok(Scale(u64::MAX)),
            _ => match text.parse::<u64>() {
                Ok(n) if n >= 1 => Ok(Scale(n)),
                _ => Err(ScaleError(text.to_string())),
            },
        }
    }
}

impl std::fmt::Display for Scale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            u64::MAX => f.write_str("max"),
            n => write!(f, "{n}"),
        }
    }
}

/// A scale that is none of the words and no whole number from 1.
#[derive(Debug, thiserror::Error)]
#[error("scale `{0}` must be small, medium, max or a whole number >= 1")]
pub struct ScaleError(String);
