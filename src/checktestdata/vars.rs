//! The variables of one run: each a plain value and/or an array indexed by tuples of integers,
//! as DOMjudge keeps them (a variable may hold both `x` and `x[1]`); UNIQUE over arrays, and
//! INARRAY through a value index built the first time an array is searched and kept up to date
//! after that, so a script that never searches pays nothing for it.
//!
//! At most [`MAX_VALUES`] values are held at once, so a loop cannot fill the memory.

use std::cmp::Ordering;

use fnv::FnvHashMap;

use super::number::Int;
use super::value::{Key, Value};

/// The most values (plain or array elements, all variables together) a run may hold.
pub const MAX_VALUES: usize = 10_000_000;

#[derive(Default)]
struct Slot {
    /// Whether anything was set since the start or the last UNSET.
    defined: bool,
    plain: Option<Value>,
    array: FnvHashMap<Box<[Int]>, Value>,
    /// How many times each value occurs, once INARRAY has looked at this variable.
    counts: Option<FnvHashMap<Key, u32>>,
}

impl Slot {
    fn len(&self) -> usize {
        self.array.len() + usize::from(self.plain.is_some())
    }

    fn entries(&self) -> impl Iterator<Item = (&[Int], &Value)> {
        let plain = self.plain.iter().map(|value| (&[][..], value));
        plain.chain(self.array.iter().map(|(index, value)| (&index[..], value)))
    }

    fn count(&mut self, value: &Value, by: i32) {
        if let Some(counts) = &mut self.counts {
            let key = value.key();
            let count = counts.entry(key.clone()).or_insert(0);
            *count = count.saturating_add_signed(by);
            if *count == 0 {
                counts.remove(&key);
            }
        }
    }
}

/// Why UNIQUE did not hold.
pub enum NotUnique {
    /// The variable (a slot) was never set: a fault of the script.
    Undefined(usize),
    /// The input breaks it: why, for people.
    Rejected(String),
}

pub struct Vars {
    slots: Vec<Slot>,
    held: usize,
}

impl Vars {
    pub fn new(count: usize) -> Vars {
        Vars {
            slots: (0..count).map(|_| Slot::default()).collect(),
            held: 0,
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

    /// Sets a value; `Err` when that would hold more than [`MAX_VALUES`].
    pub fn set(&mut self, slot: usize, index: Vec<Int>, value: Value) -> Result<(), usize> {
        let held = self.held;
        let slot = &mut self.slots[slot];
        if held >= MAX_VALUES && !index.is_empty() && !slot.array.contains_key(&index[..]) {
            return Err(MAX_VALUES);
        }
        slot.defined = true;
        slot.count(&value, 1);
        let old = if index.is_empty() {
            slot.plain.replace(value)
        } else {
            slot.array.insert(index.into_boxed_slice(), value)
        };
        match old {
            Some(old) => slot.count(&old, -1),
            None => self.held += 1,
        }
        Ok(())
    }

    pub fn unset(&mut self, slot: usize) {
        let slot = &mut self.slots[slot];
        self.held -= slot.len();
        *slot = Slot::default();
    }

    /// Whether the array `slot` holds `value` (an integer never equals a float here).
    pub fn contains(&mut self, slot: usize, value: &Value) -> bool {
        let slot = &mut self.slots[slot];
        if slot.counts.is_none() {
            let mut counts = FnvHashMap::default();
            for (_, held) in slot.entries() {
                *counts.entry(held.key()).or_insert(0) += 1;
            }
            slot.counts = Some(counts);
        }
        slot.counts
            .as_ref()
            .is_some_and(|counts| counts.contains_key(&value.key()))
    }

    /// UNIQUE(a, b, ...): the variables have the same indices, and the tuples of their values
    /// at those indices are all different.
    pub fn unique(&self, slots: &[usize], names: &[String]) -> Result<(), NotUnique> {
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
        let mut tuples = Vec::with_capacity(first.len());
        for (index, value) in first.entries() {
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
        let order = |a: &Vec<&Value>, b: &Vec<&Value>| {
            a.iter()
                .zip(b)
                .map(|(x, y)| Value::total_cmp(x, y))
                .find(|o| *o != Ordering::Equal)
                .unwrap_or(Ordering::Equal)
        };
        tuples.sort_by(|(a, i), (b, j)| order(a, b).then_with(|| i.cmp(j)));
        match tuples
            .windows(2)
            .find(|pair| order(&pair[0].0, &pair[1].0) == Ordering::Equal)
        {
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
