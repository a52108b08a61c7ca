//! A record of what a run did for chosen lanes: every instruction they executed, with the values it read and wrote.
//!
//! Tracing is asked for per run ([`super::Machine::run`] takes `Option<&mut Trace>`); when it is not, the run loop
//! pays one branch per instruction and allocates nothing.

use crate::dxbc::program::Opcode;

use super::lanes::LaneMask;

/// The most steps a trace keeps unless told otherwise: the first half and the last half of what ran, the steps
/// between counted in [`Trace::dropped`] (a long loop's first and last iterations). A runaway loop stops at the
/// instruction budget anyway; this bounds the memory one trace can take and what `inspect --json` prints for it
/// (65,536 steps: tens of megabytes, where a million made 650 MB).
pub const DEFAULT_TRACE_LIMIT: usize = 1 << 16;

/// The instructions a run executed for a set of lanes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// The lanes whose values are recorded (bit `i` is lane `i` of the batch).
    pub lanes: LaneMask,
    /// One step per instruction executed while any traced lane was active (before or after it), in order; past
    /// `limit`, the first `limit / 2` and (once the run has ended) the last `limit - limit / 2`, with `gap` between.
    pub steps: Vec<TraceStep>,
    /// The most steps kept.
    pub limit: usize,
    /// Steps not kept because `limit` was reached: those executed between `steps[..gap]` and `steps[gap..]`.
    pub dropped: u64,
    /// Where in `steps` the steps not kept were, when some were not.
    pub gap: Option<usize>,
    /// The latest steps past the first half, while the run goes on (moved into `steps` when it ends).
    tail: std::collections::VecDeque<TraceStep>,
}

impl Trace {
    /// A trace of `lanes`, keeping up to [`DEFAULT_TRACE_LIMIT`] steps.
    pub fn new(lanes: LaneMask) -> Self {
        Self {
            lanes,
            steps: Vec::new(),
            limit: DEFAULT_TRACE_LIMIT,
            dropped: 0,
            gap: None,
            tail: std::collections::VecDeque::new(),
        }
    }

    /// Keeps `step`: among the first `limit / 2`, or among the latest, dropping (and counting) the oldest of those.
    pub(super) fn push(&mut self, step: TraceStep) {
        let head = self.limit / 2;
        if self.steps.len() < head && self.tail.is_empty() {
            self.steps.push(step);
            return;
        }
        self.tail.push_back(step);
        if self.tail.len() > self.limit.saturating_sub(head) {
            self.tail.pop_front();
            self.dropped = self.dropped.saturating_add(1);
        }
    }

    /// Whether a step would be kept at all (a trace of limit 0 keeps none).
    pub(super) fn keeps_any(&self) -> bool {
        self.limit > 0
    }

    /// Ends a run: the latest steps join the first, after the gap when steps were dropped between them.
    pub(super) fn settle(&mut self) {
        if self.tail.is_empty() {
            return;
        }
        if self.dropped > 0 && self.gap.is_none() {
            self.gap = Some(self.steps.len());
        }
        self.steps.extend(self.tail.drain(..));
    }

    /// A trace of one lane.
    pub fn lane(lane: usize) -> Self {
        Self::new(1u32.checked_shl(u32::try_from(lane).unwrap_or(u32::MAX)).unwrap_or(0))
    }
}

/// One executed instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep {
    /// Its position in the program's instruction list (declarations included).
    pub instruction: u32,
    /// Its token offset in the program.
    pub offset: u32,
    /// Its opcode.
    pub opcode: Opcode,
    /// The lanes executing it (bit `i` is lane `i`), as it started.
    pub active: LaneMask,
    /// The lanes executing after it (differs from `active` for flow control and `discard`).
    pub active_after: LaneMask,
    /// The values for each traced lane, in lane order.
    pub lanes: Vec<LaneStep>,
}

/// What one instruction read and wrote for one lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneStep {
    /// The lane.
    pub lane: u8,
    /// Whether the lane executed the instruction (its bit in [`TraceStep::active`]).
    pub active: bool,
    /// Each value source operand (a texture instruction's `t#`/`s#` excluded), after swizzle and modifiers.
    pub sources: Vec<[u32; 4]>,
    /// Each destination after the write (`null` destinations included, as zeros).
    pub destinations: Vec<TracedWrite>,
}

/// A destination as it was after the instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TracedWrite {
    /// The write mask (x = bit 0).
    pub mask: u8,
    /// The register's four components after the write.
    pub value: [u32; 4],
}
