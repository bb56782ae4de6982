//! Flags whose value is optional (`check --isolate [strict|off]`): clap would take whatever word
//! follows as the value, so `check --isolate nim` read `nim` as a mode and refused it. Before
//! parsing, such a flag keeps the next word only when it is one of its values
//! (`--isolate strict`); any other word stays an argument of its own (`--isolate nim`: the
//! filter `nim`, judged with `--isolate`). `--isolate=VALUE` is always the flag's.

use std::ffi::{OsStr, OsString};

/// Each flag with an optional value: its subcommand, its name and the values it may take, the
/// one it has when given alone first.
const OPTIONAL_VALUES: &[(&str, &str, &[&str])] =
    &[("check", "--isolate", &["processes", "strict", "off"])];

/// The command line with every optional-value flag that is followed by a word other than its
/// values given its value outright (`--isolate` `nim` becomes `--isolate=processes` `nim`), so
/// the word stays an argument of its own.
pub fn normalized(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut out: Vec<OsString> = vec![];
    let mut args = args.into_iter().peekable();
    while let Some(arg) = args.next() {
        if arg == "--" {
            out.push(arg);
            out.extend(args);
            break;
        }
        let flag = OPTIONAL_VALUES.iter().find(|(command, flag, _)| {
            OsStr::new(flag) == arg && out.iter().any(|word| word == command)
        });
        match (flag, args.peek()) {
            (Some((_, name, values)), Some(next))
                if !values.iter().any(|value| OsStr::new(value) == next)
                    && !next.to_string_lossy().starts_with('-') =>
            {
                out.push(format!("{name}={}", values[0]).into());
            }
            _ => out.push(arg),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn normal(args: &[&str]) -> Vec<String> {
        normalized(args.iter().map(OsString::from))
            .into_iter()
            .map(|arg| arg.into_string().unwrap())
            .collect()
    }

    #[test]
    fn a_word_that_is_no_value_stays_an_argument() {
        assert_eq!(
            normal(&["grundy", "check", "--isolate", "nim"]),
            ["grundy", "check", "--isolate=processes", "nim"]
        );
        for kept in [
            &["check", "--isolate", "strict", "nim"][..],
            &["check", "--isolate", "off"],
            &["check", "--isolate", "-v"],
            &["check", "--isolate"],
            &["check", "--isolate=strict", "nim"],
            &["check", "--", "--isolate", "nim"],
            &["verify", "--isolate", "pkg"],
        ] {
            assert_eq!(normal(kept), kept, "{kept:?}");
        }
    }
}
