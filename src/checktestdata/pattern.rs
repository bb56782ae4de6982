//! REGEX's patterns: extended regular expressions over bytes, matched at the cursor and as long as
//! possible (POSIX's rule, which DOMjudge's `std::regex` in extended mode follows: `a|ab` takes
//! `ab`), with `.` matching a newline too. A lazy DFA finds the longest match in one pass over
//! what it reads, whatever the pattern.
//!
//! The syntax is regex-automata's, which reads POSIX ERE (classes like `[[:digit:]]`, bounds
//! `{m,n}`) and more (`\d`); bytes that are not ASCII match themselves.
//!
//! What a pattern may take is bounded: [`MAX_PATTERN_BYTES`] compiled (`a{1000}{1000}` is
//! refused, not built), and its lazy automaton's cache [`CACHE_BYTES`]. A search walks the
//! automaton a byte at a time so that it can say how far it read ([`Scan`]), which is what the
//! run's budget is charged for it.

use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::hybrid::{BuildError, CacheError};
use regex_automata::nfa::thompson;
use regex_automata::util::syntax;
use regex_automata::MatchError;
use regex_automata::{Anchored, Input, MatchKind};

/// The most a pattern may take compiled (its automaton without the cache).
pub const MAX_PATTERN_BYTES: usize = 8 << 20;
/// The most a pattern's lazy automaton keeps of the states it made (then it starts again).
const CACHE_BYTES: usize = 2 << 20;
/// What a compiled pattern takes besides its NFA: the lazy automaton's own structures and its
/// cache's first states, with their allocations (about 2 KiB for `a`, counted generously).
const AUTOMATON_BYTES: usize = 4 << 10;

pub struct Pattern {
    dfa: DFA,
}

/// What a search found: the longest match at the start, and what reading it took.
pub struct Scan {
    pub longest: Option<usize>,
    /// The bytes read (the automaton reads past a match until nothing longer can match).
    read: usize,
    /// How many times the automaton's cache filled and was emptied meanwhile.
    clears: usize,
}

impl Scan {
    /// The words of work the search stands for: a byte read is about a word touched, and a
    /// cache emptied stands for the states that filled it.
    pub fn work(&self) -> u64 {
        let clears = (self.clears as u64).saturating_mul((CACHE_BYTES / 8) as u64);
        (self.read as u64).saturating_add(clears)
    }
}

impl Pattern {
    /// The pattern written as `bytes`, or why it is not one.
    pub fn new(bytes: &[u8]) -> Result<Pattern, PatternError> {
        let mut text = String::with_capacity(bytes.len());
        for &byte in bytes {
            if byte.is_ascii() {
                text.push(byte as char);
            } else {
                text.push_str(&format!("\\x{byte:02X}"));
            }
        }
        let dfa = DFA::builder()
            .configure(
                DFA::config()
                    .match_kind(MatchKind::All)
                    .cache_capacity(CACHE_BYTES),
            )
            .syntax(
                syntax::Config::new()
                    .unicode(false)
                    .utf8(false)
                    .dot_matches_new_line(true),
            )
            .thompson(
                thompson::Config::new()
                    .utf8(false)
                    .nfa_size_limit(Some(MAX_PATTERN_BYTES)),
            )
            .build(&text)
            .map_err(|error| PatternError::Invalid(Box::new(error)))?;
        Ok(Pattern { dfa })
    }

    pub fn cache(&self) -> Cache {
        self.dfa.create_cache()
    }

    /// The bytes the compiled pattern takes, its cache's first states included.
    pub fn bytes(&self) -> usize {
        self.dfa.get_nfa().memory_usage() + AUTOMATON_BYTES
    }

    /// The longest match at the start of `haystack`, if any, and what finding it took.
    pub fn longest(&self, cache: &mut Cache, haystack: &[u8]) -> Result<Scan, PatternError> {
        let input = Input::new(haystack).anchored(Anchored::Yes);
        let clears = cache.clear_count();
        let mut state = self
            .dfa
            .start_state_forward(cache, &input)
            .map_err(PatternError::Start)?;
        let mut scan = Scan {
            longest: None,
            read: haystack.len(),
            clears: 0,
        };
        let mut dead = false;
        for (at, &byte) in haystack.iter().enumerate() {
            state = self
                .dfa
                .next_state(cache, state, byte)
                .map_err(PatternError::Cache)?;
            if state.is_tagged() {
                if state.is_match() {
                    // The automaton sees a match one byte late: it ended before this byte.
                    scan.longest = Some(at);
                } else if state.is_dead() {
                    scan.read = at + 1;
                    dead = true;
                    break;
                } else if state.is_quit() {
                    return Err(PatternError::GaveUp(at));
                }
            }
        }
        if !dead {
            state = self
                .dfa
                .next_eoi_state(cache, state)
                .map_err(PatternError::Cache)?;
            if state.is_match() {
                scan.longest = Some(haystack.len());
            }
        }
        scan.clears = cache.clear_count().saturating_sub(clears);
        Ok(scan)
    }
}

/// Why a pattern cannot be compiled, or could not be run.
#[derive(Debug, thiserror::Error)]
pub enum PatternError {
    #[error("invalid regular expression: {}", .0.to_string().trim())]
    Invalid(Box<BuildError>),
    #[error("the regular expression could not be run: {0}")]
    Start(MatchError),
    #[error("the regular expression could not be run: {0}")]
    Cache(CacheError),
    /// The automaton quit at this byte.
    #[error("the regular expression could not be run: it gave up at byte {0}")]
    GaveUp(usize),
}
