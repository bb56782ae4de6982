//! What one run may spend, so that the bound a script meets is a fact about the script and its
//! input, not about the machine: steps of work, [`steps_for`] the input's length, and bytes held
//! by its values, at most what the run is given ([`DEFAULT_HELD_BYTES`] unless the caller says).
//!
//! Every command, loop iteration, test and operation (an operator, a variable's value) is a
//! step; a constant is part of the step of what uses it. An operation on big numbers or long
//! strings costs a step more for every [`WORDS_PER_STEP`] 64-bit words it touches, as the value
//! modules weigh it before it runs (`*_work`): a copy, a sum or a comparison its operands' words,
//! a product, quotient or remainder the product of their words, a power the square of its
//! result's words. So a loop of divisions of huge numbers ends as soon as a loop that reads
//! nothing would, and in the same message.
//!
//! The bytes held are those of the variables' values and array elements (each element with what
//! its table and index take, [`ENTRY_BYTES`]), of INARRAY's index of an array, of what UNIQUE
//! sorts while it sorts, and of the regular expressions' lazy automata.

use std::fmt;

/// Steps every run may take, however short its input.
const BASE_STEPS: u64 = 100_000_000;
/// Further steps for each byte of input.
const STEPS_PER_BYTE: u64 = 16;
/// Words an operation may touch per step: a step of the interpreter (a command, say) takes about
/// as long as touching this many words of a number does.
pub const WORDS_PER_STEP: u64 = 64;
/// The bytes a run's values may hold unless its caller says otherwise: 1 GiB.
pub const DEFAULT_HELD_BYTES: u64 = 1 << 30;
/// What an array element holds besides its value and its index's numbers: its place in the hash
/// table (key and value, twice over for the table's spare room) and its index's allocation.
pub const ENTRY_BYTES: u64 = 128;
/// What each further dimension of an index adds to an element.
pub const INDEX_BYTES: u64 = 16;

/// The steps a run over `length` bytes may take.
pub fn steps_for(length: usize) -> u64 {
    BASE_STEPS.saturating_add(STEPS_PER_BYTE.saturating_mul(length as u64))
}

/// The steps and bytes of one run.
pub struct Budget {
    /// The steps the run may take, and those left.
    steps: u64,
    left: u64,
    /// The bytes held now, and the most the run may hold.
    held: u64,
    most: u64,
}

/// A bound of the budget passed: which one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Overrun {
    Work { steps: u64 },
    Memory { most: u64 },
}

impl Budget {
    pub fn new(steps: u64, most: u64) -> Budget {
        Budget {
            steps,
            left: steps,
            held: 0,
            most,
        }
    }

    /// One step that touches `words` words.
    pub fn work(&mut self, words: u64) -> Result<(), Overrun> {
        self.spend(1 + words / WORDS_PER_STEP)
    }

    /// What touching `words` words adds to a step already taken: nothing below
    /// [`WORDS_PER_STEP`], so that the small numbers of most scripts cost no more.
    #[inline]
    pub fn extra(&mut self, words: u64) -> Result<(), Overrun> {
        match words / WORDS_PER_STEP {
            0 => Ok(()),
            steps => self.spend(steps),
        }
    }

    fn spend(&mut self, cost: u64) -> Result<(), Overrun> {
        match self.left.checked_sub(cost) {
            Some(left) => {
                self.left = left;
                Ok(())
            }
            None => {
                self.left = 0;
                Err(Overrun::Work { steps: self.steps })
            }
        }
    }

    /// Takes `bytes` more, unless that would hold more than the run may.
    pub fn hold(&mut self, bytes: u64) -> Result<(), Overrun> {
        match self.held.checked_add(bytes) {
            Some(held) if held <= self.most => {
                self.held = held;
                Ok(())
            }
            _ => Err(Overrun::Memory { most: self.most }),
        }
    }

    /// Gives back `bytes` held.
    pub fn release(&mut self, bytes: u64) {
        self.held = self.held.saturating_sub(bytes);
    }
}

impl fmt::Display for Overrun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Overrun::Work { steps } => write!(
                f,
                "the script's work exceeds its budget of {steps} steps for this input (a loop \
                 that reads no input, or arithmetic on huge numbers?): each command, test and \
                 operation is a step, one on big numbers or long strings a step more for every \
                 {WORDS_PER_STEP} words it touches"
            ),
            Overrun::Memory { most } => write!(
                f,
                "the script's values would hold more than {}, the most the interpreter lets \
                 them hold",
                in_units(*most)
            ),
        }
    }
}

/// `1024 MiB`, or bytes when not a whole number of MiB.
fn in_units(bytes: u64) -> String {
    const MIB: u64 = 1 << 20;
    if bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}
