//! Progress and cancellation of a long draw. The draw counts its work (a lane running one instruction of a program is
//! one unit; a primitive set up is one more) and calls the caller's callback each time [`WORK_PER_REPORT`] units have
//! been done since the last call, and once at the start and the end. Counting work rather than time keeps the library
//! free of clocks (it runs in wasm) and makes runs reproducible; at the interpreter's speed the reports come well
//! within 200 ms of each other. The callback returns [`ControlFlow::Break`] to stop the draw, which then fails with a
//! "cancelled" error.

use crate::{Error, Result};
use std::ops::ControlFlow;

/// Units of work between two reports: lane-instructions (a batch of 32 lanes running a 100-instruction program is
/// 3200) plus one per primitive. About 2^18 lane-instructions take a few milliseconds in an optimised build and tens
/// of milliseconds in a debug build.
pub const WORK_PER_REPORT: u64 = 1 << 18;

/// How far a draw has got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Progress {
    /// Primitives (over all instances) whose pixels are done.
    pub primitives_done: u64,
    /// Primitives the draw has (over all instances).
    pub primitives_total: u64,
    /// Vertices shaded so far (over all instances).
    pub vertices_done: u64,
    /// Vertices the draw shades (over all instances).
    pub vertices_total: u64,
    /// Rows of the primitive whose pixels are being drawn that are done (0 between primitives): with
    /// [`Progress::primitive_rows`], how far a large primitive has got.
    pub primitive_rows_done: u64,
    /// Rows the primitive whose pixels are being drawn spans (its pieces' bounds; 0 between primitives).
    pub primitive_rows: u64,
}

/// The most work a draw may do by default (2^36 units, about 69 billion lane-instructions: minutes at the
/// interpreter's speed, far more than a real frame's largest draw, about 10^10 for a 1080p pass of a 1,000-instruction
/// program at an overdraw of 4): past it the draw fails with a budget error rather than running for hours (a program
/// that loops millions of times per pixel, billions of instances). [`super::DrawOptions::work_limit`] changes it.
pub const DEFAULT_WORK_LIMIT: u64 = 1 << 36;

/// A draw's progress callback: called with the progress, it returns whether to go on.
pub type ProgressCallback<'p> = &'p mut dyn FnMut(&Progress) -> ControlFlow<()>;

/// Counts work and calls the callback when enough has been done.
pub(super) struct Reporter<'p> {
    callback: Option<ProgressCallback<'p>>,
    /// Work since the last report.
    pending: u64,
    /// Where the draw is.
    pub progress: Progress,
    /// Work counted since the draw began (over every call of a draw run part by part).
    pub work_done: u64,
    /// The draw's label, for the cancelled error.
    label: String,
    /// The most work the draw may do ([`DEFAULT_WORK_LIMIT`]; none for a band's reporter, whose work the draw's
    /// reporter counts).
    limit: u64,
}

impl<'p> Reporter<'p> {
    /// A reporter calling `callback` (none: counting only) for the draw `label`.
    pub fn new(callback: Option<ProgressCallback<'p>>, label: &str) -> Reporter<'p> {
        Reporter::resumed(callback, label, Progress::default(), 0)
    }

    /// A reporter going on from `progress` and `work_done`, where a draw run part by part left off.
    pub fn resumed(
        callback: Option<ProgressCallback<'p>>,
        label: &str,
        progress: Progress,
        work_done: u64,
    ) -> Reporter<'p> {
        Reporter {
            callback,
            pending: 0,
            progress,
            work_done,
            label: label.to_owned(),
            limit: u64::MAX,
        }
    }

    /// The reporter failing the draw once its work passes `limit` units.
    pub fn with_limit(mut self, limit: u64) -> Self {
        self.limit = limit;
        self
    }

    /// Counts `units` of work; reports when enough has piled up.
    pub fn work(&mut self, units: u64) -> Result<()> {
        self.pending = self.pending.saturating_add(units);
        self.work_done = self.work_done.saturating_add(units);
        if self.work_done > self.limit {
            return Err(Error::of_kind(
                crate::error::ErrorKind::Budget,
                self.label.as_str(),
                format!(
                    "the draw needs more than its work limit of {} units (a lane running one instruction is one; \
                     --max-work on the command line, Settings in the viewer)",
                    self.limit
                ),
            ));
        }
        if self.pending >= WORK_PER_REPORT {
            self.report()?;
        }
        Ok(())
    }

    /// Calls the callback now; a `Break` is the cancelled error.
    pub fn report(&mut self) -> Result<()> {
        self.pending = 0;
        if let Some(callback) = self.callback.as_mut()
            && callback(&self.progress).is_break()
        {
            return Err(Error::of_kind(
                crate::error::ErrorKind::Cancelled,
                self.label.as_str(),
                "cancelled",
            ));
        }
        Ok(())
    }
}
