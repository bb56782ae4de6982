//! The arguments of `grundy sg GAME`, the Sprague-Grundy explorer; parsing only (the command is
//! `commands/sg.rs`).

use clap::{Args, Subcommand, ValueEnum};

/// The table length shown when `--upto` is not given.
pub const DEFAULT_UPTO: u64 = 30;

/// The largest take and the most takes `sg subtract` accepts: the problems' 100 takes, each up to
/// 10^18 (a take beyond every heap of interest simply never applies).
pub const MAX_TAKES: usize = 100;
pub const MAX_TAKE: u64 = 1_000_000_000_000_000_000;

#[derive(Args, Debug)]
#[command(
    after_help = "The table is g(x) for x = 0..=N, from the rules. A subtraction game's \
                        period is proven (the first repeated window of max-S values); for the \
                        other families the pattern seen in the table is only observed, and \
                        their proven closed forms are named. Exit codes: 0 done, 1 --check \
                        found a mismatch, 2 bad arguments."
)]
pub struct SgArgs {
    #[command(subcommand)]
    pub game: Game,
}

#[derive(Subcommand, Debug)]
pub enum Game {
    /// Subtraction game: a move takes s items for some s in S (set-nim, s-nim).
    #[command(visible_aliases = ["set-nim", "s-nim", "s-nim-move", "s-nim-duel"])]
    Subtract {
        /// The takes, comma-separated, e.g. 1,3,4 (positive, at most 100 of them).
        #[arg(value_name = "S")]
        takes: Takes,
        #[command(flatten)]
        view: View,
    },
    /// A move takes 1, 2, 4, 8, ... items (powers-of-two).
    PowersOfTwo {
        #[command(flatten)]
        view: View,
    },
    /// A move removes one item, or splits a pile of 2x into K piles of x (lieges-of-legendre).
    #[command(visible_alias = "lieges-of-legendre")]
    Lieges {
        /// How many piles a split makes (only its parity matters).
        #[arg(long, value_name = "K",
              value_parser = clap::value_parser!(u64).range(1..=1_000_000_000_000_000_000))]
        k: u64,
        #[command(flatten)]
        view: View,
    },
    /// A move takes any positive number of items.
    Nim {
        #[command(flatten)]
        view: View,
    },
}

impl Game {
    pub fn view(&self) -> &View {
        match self {
            Game::Subtract { view, .. }
            | Game::PowersOfTwo { view }
            | Game::Lieges { view, .. }
            | Game::Nim { view } => view,
        }
    }
}

/// What to show, shared by every game.
#[derive(Args, Debug)]
pub struct View {
    /// Table g(x) for x = 0..=N, and the range --check covers [default: 30; at most 1048576 =
    /// 2^20, or 16384 for nim, whose rules-only table is quadratic].
    #[arg(long, value_name = "N")]
    pub upto: Option<u64>,
    /// Print g(X) through the proven period or closed form instead of the table (any X below
    /// 2^64); repeatable.
    #[arg(long, value_name = "X")]
    pub at: Vec<u64>,
    /// Compare the proven period or closed form with the rules-only table for x = 0..=N instead
    /// of printing the table; exit 1 on a mismatch.
    #[arg(long)]
    pub check: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SgFormat::Human)]
    pub format: SgFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SgFormat {
    /// An aligned table wrapped to the terminal, and the pattern in words.
    Human,
    /// `x,g` rows (or one row of the --check result).
    Csv,
    /// One JSON object.
    Json,
}

/// A subtraction set as given on the command line: `1,3,4`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Takes(pub Vec<u64>);

impl std::str::FromStr for Takes {
    type Err = TakesError;

    fn from_str(text: &str) -> Result<Self, TakesError> {
        let mut takes = Vec::new();
        for piece in text.split(',') {
            let piece = piece.trim();
            let take = match piece.parse::<u64>() {
                Ok(0) => return Err(TakesError::Zero(text.to_string())),
                Ok(take) if take <= MAX_TAKE => take,
                Ok(take) => {
                    return Err(TakesError::TooLarge {
                        take,
                        text: text.to_string(),
                    })
                }
                Err(_) if piece.is_empty() => return Err(TakesError::Empty(text.to_string())),
                Err(_) => {
                    return Err(TakesError::NotANumber {
                        piece: piece.to_string(),
                        text: text.to_string(),
                    })
                }
            };
            takes.push(take);
        }
        if takes.len() > MAX_TAKES {
            return Err(TakesError::TooMany(takes.len()));
        }
        Ok(Takes(takes))
    }
}

/// Why a subtraction set given on the command line is not one; `text` is the whole set.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TakesError {
    #[error("take 0 in `{0}`: a take must be at least 1 (taking nothing is not a move)")]
    Zero(String),
    #[error("take {take} in `{text}` is above {MAX_TAKE}")]
    TooLarge { take: u64, text: String },
    #[error(
        "`{0}` has an empty take; give positive whole numbers separated by commas, like 1,3,4"
    )]
    Empty(String),
    #[error(
        "`{piece}` in `{text}` is not a positive whole number; give takes separated by commas, \
         like 1,3,4"
    )]
    NotANumber { piece: String, text: String },
    #[error("{0} takes given; at most {MAX_TAKES} are accepted")]
    TooMany(usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_parse_and_bad_ones_say_why() {
        assert_eq!("1,3,4".parse(), Ok(Takes(vec![1, 3, 4])));
        assert_eq!(" 4, 1 ,4".parse(), Ok(Takes(vec![4, 1, 4])));
        let error = |text: &str| text.parse::<Takes>().unwrap_err().to_string();
        assert!(error("1,x,3").contains("`x` in `1,x,3` is not a positive whole number"));
        assert_eq!("1,0".parse::<Takes>(), Err(TakesError::Zero("1,0".into())));
        assert!(error("1,0").contains("taking nothing is not a move"));
        assert!(error("1,,2").contains("empty take"));
        assert!(error("").contains("empty take"));
        assert!(error("-1").contains("not a positive whole number"));
        assert!(error("1000000000000000001").contains("above"));
        let many: Vec<String> = (1..=101).map(|s| s.to_string()).collect();
        assert!(error(&many.join(",")).contains("at most 100"));
    }
}
