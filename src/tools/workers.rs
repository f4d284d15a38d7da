//! Search loops on plain threads, for the tools that run many searches at
//! once (`datagen` and `duel` play games, `openings` scores ballots).
//!
//! Not a rayon pool: each loop's searcher runs its search on a pool of its
//! own, and a rayon worker that waits for another pool steals jobs of its
//! own meanwhile. One worker could then take another's whole loop and run
//! it nested inside a search, one game at a time on one core (seen in a
//! `datagen` run: eighteen minutes, one core busy, nothing written).
//! Scoped threads cannot steal, so each loop keeps its thread.

use std::sync::Mutex;

/// Run `work` once on each of `threads` threads named `{name}-{i}`, and
/// wait for all of them. The first error, of a thread that could not be
/// started or of a `work` that returned one, is the result; the threads
/// that started still finish their work first.
pub fn on_threads(
    threads: usize,
    name: &str,
    work: impl Fn() -> Result<(), String> + Sync,
) -> Result<(), String> {
    let first_error: Mutex<Option<String>> = Mutex::new(None);
    let record = |e: String| {
        if let Ok(mut f) = first_error.lock() {
            f.get_or_insert(e);
        }
    };
    std::thread::scope(|s| {
        for i in 0..threads {
            let spawned = std::thread::Builder::new()
                .name(format!("{name}-{i}"))
                .spawn_scoped(s, || work().unwrap_or_else(record));
            if let Err(e) = spawned {
                record(format!("cannot start {threads} threads: {e}"));
            }
        }
    });
    first_error.into_inner().ok().flatten().map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::{Duration, Instant};

    /// Every loop has a thread of its own: all of them are running at the
    /// same time (each waits, up to a deadline, until all have started).
    #[test]
    fn each_loop_runs_on_its_own_thread_at_the_same_time() {
        let started = AtomicUsize::new(0);
        let seen = Mutex::new(Vec::new());
        on_threads(3, "loop", || {
            started.fetch_add(1, Ordering::SeqCst);
            let deadline = Instant::now() + Duration::from_secs(10);
            while started.load(Ordering::SeqCst) < 3 && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(1));
            }
            let name = std::thread::current().name().unwrap_or("").to_string();
            let all = started.load(Ordering::SeqCst);
            seen.lock().unwrap().push((name, all));
            Ok(())
        })
        .unwrap();
        let mut seen = seen.into_inner().unwrap();
        seen.sort();
        let expected: Vec<(String, usize)> = (0..3).map(|i| (format!("loop-{i}"), 3)).collect();
        assert_eq!(seen, expected);
    }
}
