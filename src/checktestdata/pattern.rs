//! REGEX's patterns: extended regular expressions over bytes, matched at the cursor and as long as
//! possible (POSIX's rule, which DOMjudge's `std::regex` in extended mode follows: `a|ab` takes
//! `ab`), with `.` matching a newline too. A lazy DFA finds the longest match in one pass over
//! what it reads, whatever the pattern.
//!
//! The syntax is regex-automata's, which reads POSIX ERE (classes like `[[:digit:]]`, bounds
//! `{m,n}`) and more (`\d`); bytes that are not ASCII match themselves.

use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::nfa::thompson;
use regex_automata::util::syntax;
use regex_automata::{Anchored, Input, MatchKind};

pub struct Pattern {
    dfa: DFA,
}

impl Pattern {
    /// The pattern written as `bytes`, or why it is not one.
    pub fn new(bytes: &[u8]) -> Result<Pattern, String> {
        let mut text = String::with_capacity(bytes.len());
        for &byte in bytes {
            if byte.is_ascii() {
                text.push(byte as char);
            } else {
                text.push_str(&format!("\\x{byte:02X}"));
            }
        }
        let dfa = DFA::builder()
            .configure(DFA::config().match_kind(MatchKind::All))
            .syntax(
                syntax::Config::new()
                    .unicode(false)
                    .utf8(false)
                    .dot_matches_new_line(true),
            )
            .thompson(thompson::Config::new().utf8(false))
            .build(&text)
            .map_err(|error| {
                let error = error.to_string();
                format!("invalid regular expression: {}", error.trim())
            })?;
        Ok(Pattern { dfa })
    }

    pub fn cache(&self) -> Cache {
        self.dfa.create_cache()
    }

    /// The length of the longest match at the start of `haystack`, if any.
    pub fn longest(&self, cache: &mut Cache, haystack: &[u8]) -> Result<Option<usize>, String> {
        let input = Input::new(haystack).anchored(Anchored::Yes);
        match self.dfa.try_search_fwd(cache, &input) {
            Ok(found) => Ok(found.map(|m| m.offset())),
            Err(error) => Err(format!("the regular expression could not be run: {error}")),
        }
    }
}
