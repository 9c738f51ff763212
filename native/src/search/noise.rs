//! The digging first pass's noise: the splitmix64 generator, as Python's `SplitMix64`
//! (`kibitz.solver.policies.common`) draws it.

/// splitmix64's increment: 2^64 divided by the golden ratio, odd.
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// splitmix64: draw `k` mixes `seed + k * GOLDEN_GAMMA` (wrapping), so seeding costs nothing.
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next draw as 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The next draw as a float in [0, 1) with 53 bits.
    pub fn random(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_draw_of_seed_zero_is_the_reference_value() {
        assert_eq!(SplitMix64::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn draws_match_the_python_generator() {
        // [SplitMix64(1).random() for _ in range(2)] and SplitMix64(2**40 + 5).random() in Python
        let mut noise = SplitMix64::new(1);
        assert_eq!(noise.random(), 0.5665615751722809);
        assert_eq!(noise.random(), 0.7457817572627011);
        assert_eq!(SplitMix64::new((1 << 40) + 5).random(), 0.28293640081502214);
    }
}
