//! The clock a search's time limit counts (Python's `Limits.clock`): the time that passes,
//! or the processor time of the thread that searches, which other work on the machine does
//! not take away.

use std::time::Instant;

/// A clock started when made; [`Clock::elapsed`] reads it in seconds.
#[derive(Clone, Copy, Debug)]
pub enum Clock {
    /// The time that passes.
    Wall(Instant),
    /// The thread's processor time, in seconds, when the clock started.
    Cpu(f64),
}

impl Clock {
    /// A clock started now: the thread's processor time with `cpu`, else the time that passes.
    pub fn start(cpu: bool) -> Clock {
        if cpu {
            Clock::Cpu(thread_seconds())
        } else {
            Clock::Wall(Instant::now())
        }
    }

    /// Seconds since the clock started.
    pub fn elapsed(&self) -> f64 {
        match self {
            Clock::Wall(started) => started.elapsed().as_secs_f64(),
            Clock::Cpu(started) => thread_seconds() - started,
        }
    }

    /// Seconds left of a limit of `seconds` (`None`: no limit), never below zero.
    pub fn left(&self, seconds: Option<f64>) -> Option<f64> {
        seconds.map(|s| (s.max(0.0) - self.elapsed()).max(0.0))
    }

    /// Whether a limit of `seconds` (`None`: no limit) is passed.
    pub fn passed(&self, seconds: Option<f64>) -> bool {
        seconds.is_some_and(|s| self.elapsed() > s)
    }
}

/// The processor time of the calling thread, in seconds (where the system does not tell
/// it, the time since the first reading).
#[cfg(unix)]
fn thread_seconds() -> f64 {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid timespec for the call to write.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    if status != 0 {
        return wall_seconds();
    }
    now.tv_sec as f64 + now.tv_nsec as f64 * 1e-9
}

#[cfg(not(unix))]
fn thread_seconds() -> f64 {
    wall_seconds()
}

/// Seconds since the first call (the fallback of [`thread_seconds`]).
#[allow(dead_code)]
fn wall_seconds() -> f64 {
    static FIRST: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    FIRST.get_or_init(Instant::now).elapsed().as_secs_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_processor_clock_counts_work_and_not_sleep() {
        let clock = Clock::start(true);
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(clock.elapsed() < 0.04, "a sleeping thread spends no processor time");
        // Busy, the thread spends processor time (as fast as the machine's load lets it).
        let mut sum = 0u64;
        let wall = Instant::now();
        while clock.elapsed() < 0.05 && wall.elapsed().as_secs_f64() < 10.0 {
            sum = sum.wrapping_add(std::hint::black_box(sum) | 1);
        }
        assert!(clock.elapsed() >= 0.05 && sum > 0, "a busy thread spends it");
        let wall = Clock::start(false);
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert!(wall.elapsed() >= 0.02 && wall.passed(Some(0.01)) && !wall.passed(None));
        assert_eq!(wall.left(Some(0.01)), Some(0.0));
        assert_eq!(wall.left(None), None);
    }
}
