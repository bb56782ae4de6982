//! The variables of one run: each a plain value and/or an array indexed by tuples of integers,
//! as DOMjudge keeps them (a variable may hold both `x` and `x[1]`); UNIQUE over arrays, and
//! INARRAY through a value index built the first time an array is searched and kept up to date
//! after that, so a script that never searches pays nothing for it.
//!
//! What they hold is counted against the run's [`Budget`], so a loop cannot fill the memory: each
//! value's own bytes, each array element's place ([`ENTRY_BYTES`], [`INDEX_BYTES`] for each
//! further dimension) and its index's numbers, INARRAY's index ([`KEY_BYTES`] a distinct value),
//! and UNIQUE's tuples while it sorts them ([`TUPLE_BYTES`] each).

use std::cmp::Ordering;

use fnv::FnvHashMap;

use super::budget::{Budget, Overrun, ENTRY_BYTES, INDEX_BYTES, WORDS_PER_STEP};
use super::number::Int;
use super::value::{held_by, Key, Value};

/// What a distinct value holds in INARRAY's index besides its own numbers: its key and count in
/// the hash table, twice over for the table's spare room.
const KEY_BYTES: u64 = 96;
/// What UNIQUE holds for each element while it sorts, besides a reference per variable.
const TUPLE_BYTES: u64 = 56;

#[derive(Default)]
struct Slot {
    /// Whether anything was set since the start or the last UNSET.
    defined: bool,
    plain: Option<Value>,
    array: FnvHashMap<Box<[Int]>, Value>,
    /// How many times each value occurs, once INARRAY has looked at this variable.
    counts: Option<FnvHashMap<Key, u32>>,
    /// The bytes all of it holds, as the budget counts them.
    bytes: u64,
}

impl Slot {
    fn len(&self) -> usize {
        self.array.len() + usize::from(self.plain.is_some())
    }

    fn entries(&self) -> impl Iterator<Item = (&[Int], &Value)> {
        let plain = self.plain.iter().map(|value| (&[][..], value));
        plain.chain(self.array.iter().map(|(index, value)| (&index[..], value)))
    }

    fn hold(&mut self, bytes: u64, budget: &mut Budget) -> Result<(), Overrun> {
        budget.hold(bytes)?;
        self.bytes += bytes;
        Ok(())
    }

    fn release(&mut self, bytes: u64, budget: &mut Budget) {
        budget.release(bytes);
        self.bytes = self.bytes.saturating_sub(bytes);
    }

    /// Counts `value` once more (`by` 1) or once less (-1) in INARRAY's index, if there is one.
    fn count(&mut self, value: &Value, by: i32, budget: &mut Budget) -> Result<(), Overrun> {
        let Some(counts) = &mut self.counts else {
            return Ok(());
        };
        budget.work(value.key_work())?;
        let key = value.key();
        let count = counts.entry(key.clone()).or_insert(0);
        let new = *count == 0;
        *count = count.saturating_add_signed(by);
        if *count == 0 {
            counts.remove(&key);
            self.release(KEY_BYTES + key.held_bytes(), budget);
        } else if new {
            self.hold(KEY_BYTES + key.held_bytes(), budget)?;
        }
        Ok(())
    }
}

/// What an array element at `index` takes besides its value.
fn element_place(index: &[Int]) -> u64 {
    let dimensions = index.len() as u64;
    let numbers: u64 = index.iter().map(held_by).sum();
    ENTRY_BYTES + INDEX_BYTES * dimensions.saturating_sub(1) + numbers
}

/// Why UNIQUE did not hold.
pub enum NotUnique {
    /// The variable (a slot) was never set: a fault of the script.
    Undefined(usize),
    /// The input breaks it: why, for people.
    Rejected(String),
    /// Sorting would pass the run's budget.
    Over(Overrun),
}

impl From<Overrun> for NotUnique {
    fn from(overrun: Overrun) -> NotUnique {
        NotUnique::Over(overrun)
    }
}

pub struct Vars {
    slots: Vec<Slot>,
}

impl Vars {
    pub fn new(count: usize) -> Vars {
        Vars {
            slots: (0..count).map(|_| Slot::default()).collect(),
        }
    }

    pub fn get(&self, slot: usize, index: &[Int]) -> Option<&Value> {
        let slot = &self.slots[slot];
        match index {
            [] => slot.plain.as_ref(),
            _ => slot.array.get(index),
        }
    }

    pub fn is_defined(&self, slot: usize) -> bool {
        self.slots[slot].defined
    }

    /// Sets a value; `Err` when that would hold more than the budget allows (nothing is set then).
    pub fn set(
        &mut self,
        slot: usize,
        index: Vec<Int>,
        value: Value,
        budget: &mut Budget,
    ) -> Result<(), Overrun> {
        let slot = &mut self.slots[slot];
        // An element's place is the same whichever value it holds.
        let place = match index.is_empty() {
            true => 0,
            false => element_place(&index),
        };
        let taken = place + value.held_bytes();
        slot.hold(taken, budget)?;
        if let Err(overrun) = slot.count(&value, 1, budget) {
            slot.release(taken, budget);
            return Err(overrun);
        }
        slot.defined = true;
        let old = match index.is_empty() {
            true => slot.plain.replace(value),
            false => slot.array.insert(index.into_boxed_slice(), value),
        };
        if let Some(old) = old {
            slot.release(place + old.held_bytes(), budget);
            slot.count(&old, -1, budget)?;
        }
        Ok(())
    }

    /// Forgets everything `slot` holds.
    pub fn unset(&mut self, slot: usize, budget: &mut Budget) {
        let slot = &mut self.slots[slot];
        budget.release(slot.bytes);
        *slot = Slot::default();
    }

    /// Whether the array `slot` holds `value` (an integer never equals a float here).
    pub fn contains(
        &mut self,
        slot: usize,
        value: &Value,
        budget: &mut Budget,
    ) -> Result<bool, Overrun> {
        let slot = &mut self.slots[slot];
        if slot.counts.is_none() {
            let mut counts = FnvHashMap::default();
            let mut bytes = 0;
            for (_, held) in slot.entries() {
                budget.work(held.key_work())?;
                let key = held.key();
                if !counts.contains_key(&key) {
                    let taken = KEY_BYTES + key.held_bytes();
                    budget.hold(taken)?;
                    bytes += taken;
                }
                *counts.entry(key).or_insert(0) += 1;
            }
            slot.counts = Some(counts);
            slot.bytes += bytes;
        }
        budget.work(value.key_work())?;
        Ok(slot
            .counts
            .as_ref()
            .is_some_and(|counts| counts.contains_key(&value.key())))
    }

    /// UNIQUE(a, b, ...): the variables have the same indices, and the tuples of their values
    /// at those indices are all different.
    pub fn unique(
        &self,
        slots: &[usize],
        names: &[String],
        budget: &mut Budget,
    ) -> Result<(), NotUnique> {
        if let Some(&undefined) = slots.iter().find(|&&s| !self.slots[s].defined) {
            return Err(NotUnique::Undefined(undefined));
        }
        let first = &self.slots[slots[0]];
        for &other in &slots[1..] {
            if self.slots[other].len() != first.len() {
                return Err(NotUnique::Rejected(format!(
                    "UNIQUE: {} and {} have different indices",
                    names[slots[0]], names[other]
                )));
            }
        }
        let sorted = first.len() as u64 * (TUPLE_BYTES + 8 * slots.len() as u64);
        budget.hold(sorted)?;
        let found = self.sort_unique(slots, names, budget);
        budget.release(sorted);
        found
    }

    /// [`Vars::unique`] once the variables are known to have as many values.
    fn sort_unique(
        &self,
        slots: &[usize],
        names: &[String],
        budget: &mut Budget,
    ) -> Result<(), NotUnique> {
        let first = &self.slots[slots[0]];
        let mut tuples = Vec::with_capacity(first.len());
        for (index, value) in first.entries() {
            let index_words: u64 = index.iter().map(Int::words).sum();
            budget.work(slots.len() as u64 * index_words)?;
            let mut tuple = vec![value];
            for &other in &slots[1..] {
                let value = self.get(other, index).ok_or_else(|| {
                    NotUnique::Rejected(format!(
                        "UNIQUE: {} has no value at {} where {} has one",
                        names[other],
                        show_index(index),
                        names[slots[0]]
                    ))
                })?;
                tuple.push(value);
            }
            tuples.push((tuple, index));
        }
        // A sort compares about n log2(n) times: a step each, and each comparison of big
        // numbers weighed as it is made (the first comparison past the budget ends the run; the
        // sort then finishes without comparing anything).
        let n = tuples.len() as u64;
        let comparisons = n.saturating_mul(u64::from(n.checked_ilog2().unwrap_or(0) + 1));
        budget.extra(comparisons.saturating_mul(WORDS_PER_STEP))?;
        let mut over = None;
        let mut order =
            |(a, i): &(Vec<&Value>, &[Int]), (b, j): &(Vec<&Value>, &[Int]), indices: bool| {
                let pairs = a
                    .iter()
                    .zip(b)
                    .map(|(x, y)| (Value::compare_work(x, y), x, y));
                for (work, x, y) in pairs {
                    if over.is_some() {
                        return Ordering::Equal;
                    }
                    if let Err(overrun) = budget.extra(work) {
                        over = Some(overrun);
                        return Ordering::Equal;
                    }
                    match Value::total_cmp(x, y) {
                        Ordering::Equal => continue,
                        order => return order,
                    }
                }
                if !indices || over.is_some() {
                    return Ordering::Equal;
                }
                let index_words: u64 = i.iter().chain(j.iter()).map(Int::words).sum();
                match budget.extra(index_words) {
                    Ok(()) => i.cmp(j),
                    Err(overrun) => {
                        over = Some(overrun);
                        Ordering::Equal
                    }
                }
            };
        tuples.sort_by(|x, y| order(x, y, true));
        let twins = tuples
            .windows(2)
            .find(|pair| order(&pair[0], &pair[1], false) == Ordering::Equal);
        if let Some(overrun) = over {
            return Err(NotUnique::Over(overrun));
        }
        match twins {
            None => Ok(()),
            Some(pair) => {
                let values: Vec<String> = pair[0].0.iter().map(ToString::to_string).collect();
                Err(NotUnique::Rejected(format!(
                    "UNIQUE: the tuple ({}) is at both {} and {}",
                    values.join(", "),
                    show_index(pair[0].1),
                    show_index(pair[1].1)
                )))
            }
        }
    }
}

/// `[1,2]`, as an index is written.
pub fn show_index(index: &[Int]) -> String {
    let parts: Vec<String> = index.iter().map(ToString::to_string).collect();
    format!("[{}]", parts.join(","))
}
