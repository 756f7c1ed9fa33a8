//! The search's queue walked on several threads: visits of sizes made ahead of their turn on
//! worker threads while the caller commits them in order (`Ahead`), and the small threading
//! helpers the search shares (`parallel_map`, locks that survive a panicked holder).

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use super::{CountMemo, QueueItem, Residencies, Standing, Visit, Walk};
use crate::error::Result;

/// Visits of the queue's sizes made ahead of their turn on worker threads, while the caller
/// commits them in order (thesis Alg. 5.1's loop, parallel, with the sequential loop's result;
/// `threads − 1` workers, and the caller visits a batch itself whenever it would wait): a worker
/// takes the next [`BATCH`] sizes not yet visited, at most a window past the last one
/// committed, and visits them with the standing of the last commit; the caller takes the visits
/// in the queue's order and keeps each that [`Visit::holds`] at its turn (a cutoff that has
/// fallen since mostly answers its questions alike), making the others again. The caller visits
/// alone until there is a cutoff ([`Walk::alone`]), and drops the visits made ahead when the
/// prune reasons with an example change (at most once per reason). The window is one batch per
/// thread after the cutoff fell, doubling per batch it holds, up to [`AHEAD`] per thread.
pub(super) struct Ahead<'q, 'a> {
    walk: &'q Walk<'a>,
    queue: &'q [QueueItem],
    counts: &'q RwLock<CountMemo>,
    /// Threads that visit, the caller among them.
    threads: usize,
    board: Mutex<Board<'a>>,
    /// Signalled when a visit is posted (the caller waits for the next one).
    posted: Condvar,
    /// Signalled when a size is committed (workers wait for room ahead of it).
    committed: Condvar,
}

/// What [`Ahead`]'s threads share under its lock.
struct Board<'a> {
    /// Visits made, by batch (its first queue index).
    visits: HashMap<usize, Made<'a>>,
    /// The standing after the last commit, and how many sizes are committed.
    standing: Standing,
    committed: usize,
    /// How far past the last commit workers may visit.
    window: usize,
    /// The first size of the next batch to visit.
    next: usize,
    /// How many times the visits made ahead were dropped (a batch of an earlier epoch is not
    /// posted).
    epoch: u64,
    /// Set when the caller stops (an error): workers leave.
    stop: bool,
}

/// A visit made ahead (`None`: it panicked; an error or a panic the caller makes again, so that
/// it is the sequential search's own).
pub(super) type MadeAhead<'a> = Option<Result<Visit<'a>>>;

/// A batch's visits made ahead.
type Made<'a> = Vec<MadeAhead<'a>>;

/// The caller's commit of [`Ahead::run`]: of the size at a queue index, with its visit made
/// ahead (if any); the standing after it, or `None` when it pruned the rest of the queue.
pub(super) type Commit<'c, 'a> = dyn FnMut(usize, Option<MadeAhead<'a>>) -> Result<Option<Standing>> + 'c;

/// Sizes a worker takes at once (and the caller commits between two signals): most visits take
/// a microsecond, so one signal per size would cost more than the visits.
const BATCH: usize = 64;

/// The most sizes per thread a worker may visit past the last one committed: enough to keep the
/// threads busy while one count takes long, few enough that little is visited again when a
/// visit made ahead does not hold.
const AHEAD: usize = 1024;

impl<'q, 'a> Ahead<'q, 'a> {
    /// Commits every size of `queue` in order with `commit` (queue index, the visit made ahead;
    /// it returns the standing after it), visiting them ahead on `threads`
    /// threads.
    pub(super) fn run(
        walk: &'q Walk<'a>,
        queue: &'q [QueueItem],
        counts: &'q RwLock<CountMemo>,
        threads: usize,
        commit: &mut Commit<'_, 'a>,
    ) -> Result<()> {
        let ahead = Ahead {
            walk,
            queue,
            counts,
            threads,
            board: Mutex::new(Board {
                visits: HashMap::new(),
                standing: walk.standing_at_start(),
                committed: 0,
                window: BATCH * threads,
                next: 0,
                epoch: 0,
                stop: false,
            }),
            posted: Condvar::new(),
            committed: Condvar::new(),
        };
        std::thread::scope(|scope| {
            // (the caller visits too while it waits: `Ahead::take`.) A worker the system
            // cannot start (too many threads) is simply not there: the others, and the caller,
            // visit its share.
            for _ in 1..threads {
                if std::thread::Builder::new().spawn_scoped(scope, || ahead.work()).is_err() {
                    tracing::debug!("tile-size search: fewer worker threads than asked for (the system refused one)");
                    break;
                }
            }
            // The workers leave when the caller is done, also when a commit panics.
            let _leave = Leave(&ahead);
            ahead.commit_all(commit)
        })
    }

    /// The caller's part of [`Ahead::run`]: commits the `n` sizes in order, until a commit prunes
    /// the rest. When a commit changes the prune reasons with an example, or makes the first
    /// cutoff, the visits made ahead are dropped and the workers start again from the next size.
    fn commit_all(&self, commit: &mut Commit<'_, 'a>) -> Result<()> {
        let (walk, n) = (self.walk, self.queue.len());
        let mut residencies = Residencies::default();
        let (least, most) = (BATCH * self.threads, AHEAD * self.threads);
        let mut tightened = false;
        let mut at = 0;
        let mut standing = lock(&self.board).standing;
        while at < n {
            let mut moved = false;
            if walk.alone(standing) {
                // (no worker visits ahead yet: `Walk::alone`)
                let Some(after) = commit(at, None)? else { return Ok(()) };
                tightened |= after.worst != standing.worst;
                standing = after;
                at += 1;
                moved = !walk.alone(standing);
            } else {
                for visit in self.take(at, &mut residencies) {
                    let Some(after) = commit(at, Some(visit))? else { return Ok(()) };
                    at += 1;
                    moved = after.known != standing.known || after.worst.is_some() != standing.worst.is_some();
                    tightened |= after.worst != standing.worst;
                    standing = after;
                    if moved {
                        break;
                    }
                }
            }
            let mut board = lock(&self.board);
            // Visits made with a cutoff that has fallen since are the same, but their counts ran
            // longer: while it falls the workers keep close, and go further as it holds.
            board.window = if tightened { least } else { (board.window * 2).min(most) };
            tightened = false;
            board.standing = standing;
            board.committed = at;
            if moved {
                board.epoch += 1;
                board.visits.clear();
                board.next = at;
            }
            drop(board);
            self.committed.notify_all();
        }
        Ok(())
    }

    /// A worker: visits batches of sizes until the caller stops. It takes the next batch under
    /// the lock, with the standing and epoch it is visited with (the caller may move the next
    /// batch back when the standing moves: a worker holds no batch while it waits).
    fn work(&self) {
        let mut residencies = Residencies::default();
        loop {
            let batch = {
                let mut board = lock(&self.board);
                loop {
                    if board.stop {
                        return;
                    }
                    if let Some(batch) = self.claim(&mut board) {
                        break batch;
                    }
                    board = self.committed.wait(board).unwrap_or_else(PoisonError::into_inner);
                }
            };
            self.visit_batch(batch, &mut residencies);
        }
    }

    /// The next batch to visit, taken (its first size, the standing and the epoch), when there
    /// is one within the window and a cutoff to visit it with.
    fn claim(&self, board: &mut Board<'a>) -> Option<(usize, Standing, u64)> {
        if board.next >= self.queue.len()
            || board.next >= board.committed + board.window
            || self.walk.alone(board.standing)
        {
            return None;
        }
        let start = board.next;
        board.next += BATCH;
        Some((start, board.standing, board.epoch))
    }

    /// Visits the batch `(start, standing, epoch)` and posts it, unless the caller has left its
    /// epoch.
    fn visit_batch(&self, (start, standing, epoch): (usize, Standing, u64), residencies: &mut Residencies) {
        let (walk, counts) = (self.walk, self.counts);
        let items = &self.queue[start..(start + BATCH).min(self.queue.len())];
        let visits = items
            .iter()
            .map(|item| {
                std::panic::catch_unwind(AssertUnwindSafe(|| walk.visit(standing, counts, item, residencies))).ok()
            })
            .collect();
        let mut board = lock(&self.board);
        // (a batch of an epoch the caller has left is of no use)
        if board.epoch == epoch {
            board.visits.insert(start, visits);
            drop(board);
            self.posted.notify_one();
        }
    }

    /// The visits of the batch from `start`, once posted: while they are not, the caller visits
    /// a batch itself when one is free (so that `threads` threads visit in all, the caller
    /// among them), else waits.
    fn take(&self, start: usize, residencies: &mut Residencies) -> Made<'a> {
        let mut board = lock(&self.board);
        loop {
            if let Some(made) = board.visits.remove(&start) {
                return made;
            }
            match self.claim(&mut board) {
                Some(batch) => {
                    drop(board);
                    self.visit_batch(batch, residencies);
                    board = lock(&self.board);
                }
                None => board = self.posted.wait(board).unwrap_or_else(PoisonError::into_inner),
            }
        }
    }
}

/// Tells [`Ahead`]'s workers to leave when dropped.
struct Leave<'x, 'q, 'a>(&'x Ahead<'q, 'a>);

impl Drop for Leave<'_, '_, '_> {
    fn drop(&mut self) {
        lock(&self.0.board).stop = true;
        self.0.committed.notify_all();
    }
}

/// `f` on each of `items`, in order, on `threads` threads (each a contiguous share: for
/// work that costs about the same per item).
pub(super) fn parallel_map<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    let share = items.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        // A share whose thread the system cannot start (too many threads), or whose thread
        // panicked, is mapped here (and panics here).
        let parts: Vec<_> = items
            .chunks(share)
            .map(|part| {
                std::thread::Builder::new().spawn_scoped(scope, || part.iter().map(&f).collect::<Vec<R>>()).ok()
            })
            .collect();
        parts
            .into_iter()
            .zip(items.chunks(share))
            .flat_map(|(part, own)| part.and_then(|p| p.join().ok()).unwrap_or_else(|| own.iter().map(&f).collect()))
            .collect()
    })
}

/// `mutex` locked, also when a thread panicked while holding it (the board stays consistent:
/// every change is one assignment or insertion).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// `lock` read, also when a thread panicked while holding it.
pub(super) fn read_lock<T>(lock: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(PoisonError::into_inner)
}

/// `lock` written, also when a thread panicked while holding it.
pub(super) fn write_lock<T>(lock: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(PoisonError::into_inner)
}
