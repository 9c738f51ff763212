//! The transposition table: the keys of the positions a search has met, as 128-bit hashes.
//!
//! A policy's key is a 128-bit hash of the position's canonical form, so the table keeps 16
//! bytes per position instead of the form itself. Each pile enters by its own 128-bit hash
//! (XXH3 of its cards), a group of piles as one sum of them, and the parts are added up,
//! each times its own odd factor, to a hash of the small rest (the foundations' heights, the
//! round and the base; see `Canonical::key_of`). The pile hashes behave as independent
//! random values, so two different positions share a key with probability about 2^-127 per
//! pair: a search of 10^9 positions meets a collision with probability below 10^-20, and
//! only a collision could make it skip a position it has not seen. The Python search keeps
//! the forms themselves; a node-limited search is the same in both builds unless such a
//! collision happens.

use std::hash::{BuildHasherDefault, Hasher};

use hashbrown::HashSet;

/// A position's key: a 128-bit hash of its canonical form.
pub type Key = u128;

/// Hashes a key by folding its two halves: the key is already a uniform hash.
#[derive(Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only keys are hashed (through `write_u128`); any other input still hashes.
        for &byte in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(byte)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u128(&mut self, key: u128) {
        self.0 = (key as u64) ^ ((key >> 64) as u64);
    }
}

/// The keys of the positions met.
pub type Table = HashSet<Key, BuildHasherDefault<KeyHasher>>;

/// The 128-bit hash of `bytes`.
#[inline]
pub fn hash(bytes: &[u8]) -> Key {
    xxhash_rust::xxh3::xxh3_128(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_tells_keys_apart() {
        let mut table = Table::default();
        assert!(table.insert(hash(b"\x01\x02")));
        assert!(table.insert(hash(b"\x02\x01")));
        assert!(!table.insert(hash(b"\x01\x02")));
        assert!(table.insert(hash(b"")));
        assert_eq!(table.len(), 3);
    }
}
