//! The few pieces of Python's standard library whose numbers the search must reproduce:
//! `random.Random(seed)`'s `random()` and `randrange(start, stop)` (the Mersenne Twister as
//! CPython seeds it from an int; Tournament's dives draw from it) and `zlib.crc32` (the
//! digging noise's seed).

const N: usize = 624;
const M: usize = 397;

/// CPython's `random.Random`, seeded from a non-negative int, for `random()`.
///
/// Seeding runs CPython's `init_by_array` in full (every word of the state depends on the
/// seed); the outputs are then made one at a time, as far as they are asked for (the first
/// 227 outputs of a generation need only the state as seeded).
pub struct PyRandom {
    state: [u32; N],
    /// Outputs made so far in this generation.
    made: usize,
    /// Whether the state has been twisted in place (past the first 227 outputs).
    twisted: bool,
}

/// The state of `init_genrand(19650218)`, the start of every `init_by_array`.
fn genrand_start() -> &'static [u32; N] {
    static START: std::sync::OnceLock<[u32; N]> = std::sync::OnceLock::new();
    START.get_or_init(|| {
        let mut state = [0u32; N];
        state[0] = 19650218;
        for i in 1..N {
            let previous = state[i - 1];
            state[i] = 1812433253u32.wrapping_mul(previous ^ (previous >> 30)).wrapping_add(i as u32);
        }
        state
    })
}

impl PyRandom {
    /// `random.Random(seed)` for a non-negative int `seed`.
    pub fn new(seed: u64) -> Self {
        let low = seed as u32;
        let high = (seed >> 32) as u32;
        let mut random = PyRandom { state: *genrand_start(), made: 0, twisted: false };
        if high == 0 {
            random.init_by_array(&[low]);
        } else {
            random.init_by_array(&[low, high]);
        }
        random
    }

    fn init_by_array(&mut self, key: &[u32]) {
        let state = &mut self.state;
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            let previous = state[i - 1];
            state[i] = (state[i] ^ (previous ^ (previous >> 30)).wrapping_mul(1664525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                state[0] = state[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let previous = state[i - 1];
            state[i] = (state[i] ^ (previous ^ (previous >> 30)).wrapping_mul(1566083941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                state[0] = state[N - 1];
                i = 1;
            }
        }
        state[0] = 0x8000_0000;
    }

    /// Word `k` of the next generation, from the current one (`k + M` not yet replaced).
    #[inline]
    fn twisted_word(state: &[u32; N], k: usize) -> u32 {
        let y = (state[k] & 0x8000_0000) | (state[(k + 1) % N] & 0x7fff_ffff);
        let mut value = state[(k + M) % N] ^ (y >> 1);
        if y & 1 != 0 {
            value ^= 0x9908_b0df;
        }
        value
    }

    fn next_u32(&mut self) -> u32 {
        let k = self.made;
        let mut y = if !self.twisted && k < N - M {
            // The first N - M words of a generation read only words not yet replaced.
            Self::twisted_word(&self.state, k)
        } else {
            if !self.twisted {
                for w in 0..N {
                    self.state[w] = Self::twisted_word(&self.state, w);
                }
                self.twisted = true;
            }
            if k >= N {
                for w in 0..N {
                    self.state[w] = Self::twisted_word(&self.state, w);
                }
                self.made = 0;
            }
            self.state[self.made]
        };
        self.made += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `getrandbits(k)` for `1 <= k <= 32`.
    fn getrandbits(&mut self, k: u32) -> u32 {
        self.next_u32() >> (32 - k)
    }

    /// `randrange(start, stop)` for `start < stop` (CPython 3.11's `_randbelow`: draws of
    /// `width.bit_length()` bits until one is below the width).
    pub fn randrange(&mut self, start: u32, stop: u32) -> u32 {
        let width = stop - start;
        let bits = u32::BITS - width.leading_zeros();
        loop {
            let r = self.getrandbits(bits);
            if r < width {
                return start + r;
            }
        }
    }

    /// `random()`: a float in [0, 1) with 53 random bits.
    pub fn random(&mut self) -> f64 {
        let a = f64::from(self.next_u32() >> 5);
        let b = f64::from(self.next_u32() >> 6);
        (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)
    }
}

/// `zlib.crc32` of the concatenation of `parts`.
pub fn crc32<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> u32 {
    let mut crc = crc32fast::Hasher::new();
    parts.into_iter().for_each(|part| crc.update(part));
    crc.finalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_matches_cpython() {
        // random.Random(1).random() and random.Random(2**40 + 5).random() in CPython 3.11
        assert_eq!(PyRandom::new(1).random(), 0.13436424411240122);
        assert_eq!(PyRandom::new((1u64 << 40) + 5).random(), 0.5043802970418443);
    }

    #[test]
    fn a_long_run_matches_cpython() {
        // sum(random.Random(7).random() for _ in range(1000)) in CPython 3.11
        let mut random = PyRandom::new(7);
        let total: f64 = (0..1000).map(|_| random.random()).sum();
        assert_eq!(total, 481.7410797949598);
    }

    #[test]
    fn randrange_matches_cpython() {
        // r = random.Random(3); [(r.random(), r.randrange(1, 2), r.randrange(1, 3)) for _ in range(3)]
        let mut random = PyRandom::new(3);
        let drawn: Vec<(f64, u32, u32)> = (0..3).map(|_| (random.random(), random.randrange(1, 2), random.randrange(1, 3))).collect();
        assert_eq!(drawn, vec![(0.23796462709189137, 1, 2), (0.9159448117309811, 1, 1), (0.6055995301393269, 1, 2)]);
    }

    #[test]
    fn crc32_matches_zlib() {
        assert_eq!(crc32([&b"123456789"[..]]), 0xcbf4_3926);
        assert_eq!(crc32([&b"1234"[..], &b"56789"[..]]), 0xcbf4_3926);
    }
}
