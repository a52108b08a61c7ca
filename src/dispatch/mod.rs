//! A `Dispatch` run on the CPU (section 18): the compute program over every thread of every thread group, against
//! its unordered access views, as the D3D11.3 functional specification says.
//!
//! # Order
//!
//! Thread groups run one after another, X fastest, then Y, then Z. A group's threads run in batches of
//! [`LANES`](crate::shader::LANES) in flattened order (`vThreadIDInGroupFlattened`); each batch runs until it ends or
//! reaches a `sync_*_t` barrier, and once every batch of the group has stopped, those at the barrier go on (18.6.6:
//! no thread passes the barrier before every thread of the group reached it). A batch's lanes access memory one at
//! a time in lane order. This is one of the orders the spec allows: it fixes no order between threads outside
//! barriers, nor between groups (18.6.1), so a result that depends on it (which thread an `imm_atomic_alloc` gives
//! which slot, a race on one address) is this implementation's choice, as any GPU's is.
//!
//! # Limits
//!
//! Group counts past 65535 in a dimension are refused (18.6.5); the work a dispatch does (lanes times instructions
//! executed, counted as a draw counts it) is bounded by [`DispatchOptions::work_limit`], an error of kind `budget`
//! past it; a thread group's shared memory is zeroed when it starts (the spec leaves it undefined).

use std::sync::Arc;

use crate::api::dispatch::{DispatchState, MAX_THREAD_GROUPS_PER_DIMENSION};
use crate::draw::{DEFAULT_WORK_LIMIT, Program, ProgramTrace, StageResources};
use crate::error::ErrorKind;
use crate::shader::uav::{OrderDependence, SharedMemory, UnorderedAccessView};
pub use crate::shader::uav::{UavContents, contents, uav_view, uav_views};

use crate::shader::{LANES, Machine, RunEnd, Stage, Trace, Unbound};
use crate::{Error, Result};

/// How to run a dispatch.
#[derive(Clone, Copy, Debug)]
pub struct DispatchOptions {
    /// The most work (lanes times instructions) the dispatch may do.
    pub work_limit: u64,
    /// What an empty slot the program declares reads.
    pub unbound: Unbound,
}

impl Default for DispatchOptions {
    fn default() -> Self {
        Self {
            work_limit: DEFAULT_WORK_LIMIT,
            unbound: Unbound::Error,
        }
    }
}

/// What a dispatch did, counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct DispatchStats {
    /// Thread groups run.
    pub groups: u64,
    /// Threads run.
    pub threads: u64,
    /// Work done (lanes times instructions executed).
    pub work: u64,
}

/// What a dispatch wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DispatchOutput {
    /// Per `u#` slot, what the view holds after it.
    pub uavs: Vec<Option<UavContents>>,
    /// Per `u#` slot, which of what it holds depends on the order the threads ran in, which the spec leaves open
    /// (18.6.6): this replay runs groups in order and each group's threads in flattened order, batch by batch.
    pub order: Vec<Option<OrderDependence>>,
    /// The counts.
    pub stats: DispatchStats,
}

/// Runs `state` from its views' contents and gives what every view holds after it.
pub fn run_dispatch(state: &DispatchState, options: &DispatchOptions) -> Result<DispatchOutput> {
    let views = uav_views(&state.uavs)?;
    views.iter().flatten().for_each(UnorderedAccessView::track_order);
    let stats = run_dispatch_on(state, &views, options)?;
    Ok(DispatchOutput {
        uavs: views.iter().map(|view| view.as_ref().map(contents)).collect(),
        order: views
            .iter()
            .map(|view| view.as_ref().and_then(UnorderedAccessView::order_dependence))
            .collect(),
        stats,
    })
}

/// Runs `state`'s program over every thread against `views` (as [`uav_views`] made them; they keep what it wrote).
pub fn run_dispatch_on(
    state: &DispatchState,
    views: &[Option<UnorderedAccessView>],
    options: &DispatchOptions,
) -> Result<DispatchStats> {
    run(state, views, options, None)
}

/// The most threads [`trace_threads`] traces in one run (an Iridia budget: each trace keeps up to
/// [`crate::shader::DEFAULT_TRACE_LIMIT`] steps).
pub const MAX_TRACED_THREADS: usize = 16;

/// A thread of a dispatch, placed: its number across the dispatch (`group number x threads a group + flattened
/// thread ID in the group`, the group number counting X fastest), its group's `SV_GroupID` and its `SV_GroupThreadID`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ThreadPlace {
    /// Its number across the dispatch (what a [`crate::shader::uav::Writer`]'s `invocation` holds).
    pub invocation: u64,
    /// `SV_GroupID`.
    pub group: [u32; 3],
    /// `SV_GroupThreadID`.
    pub thread_in_group: [u32; 3],
    /// `SV_DispatchThreadID`: `group x group size + thread_in_group` (18.6.4).
    pub thread: [u32; 3],
}

/// Where thread `invocation` of `state`'s dispatch is, given its program's `dcl_thread_group` size; `None` past the
/// dispatch's threads.
pub fn thread_place(state: &DispatchState, group_size: [u32; 3], invocation: u64) -> Option<ThreadPlace> {
    let [x_groups, y_groups, z_groups] = state.groups.map(u64::from);
    let [sx, sy, sz] = group_size;
    let per_group = u64::from(sx).checked_mul(u64::from(sy))?.checked_mul(u64::from(sz))?;
    let number = invocation.checked_div(per_group)?;
    if number >= x_groups.checked_mul(y_groups)?.checked_mul(z_groups)? {
        return None;
    }
    let flat = invocation.checked_rem(per_group)?;
    let rows = flat.checked_div(u64::from(sx))?;
    let group_rows = number.checked_div(x_groups)?;
    let small = |v: u64| u32::try_from(v).ok();
    let group = [
        small(number.checked_rem(x_groups)?)?,
        small(group_rows.checked_rem(y_groups)?)?,
        small(group_rows.checked_div(y_groups)?)?,
    ];
    let thread_in_group = [
        small(flat.checked_rem(u64::from(sx))?)?,
        small(rows.checked_rem(u64::from(sy))?)?,
        small(rows.checked_div(u64::from(sy))?)?,
    ];
    let [gx, gy, gz] = group;
    let [tx, ty, tz] = thread_in_group;
    let thread = [
        gx.wrapping_mul(sx).wrapping_add(tx),
        gy.wrapping_mul(sy).wrapping_add(ty),
        gz.wrapping_mul(sz).wrapping_add(tz),
    ];
    Some(ThreadPlace {
        invocation,
        group,
        thread_in_group,
        thread,
    })
}

/// Runs `state` against `views` as [`run_dispatch_on`] does, tracing the threads numbered `invocations` (as
/// [`ThreadPlace::invocation`]; at most [`MAX_TRACED_THREADS`], the rest ignored): every instruction each executed,
/// with the values it read and wrote. The run stops once the last group holding one of them has ended (the views
/// then hold what the groups up to it wrote). Gives each traced thread's trace, in the order asked.
pub fn trace_threads(
    state: &DispatchState,
    views: &[Option<UnorderedAccessView>],
    options: &DispatchOptions,
    invocations: &[u64],
) -> Result<Vec<(u64, ProgramTrace)>> {
    let mut tracing = Tracing {
        wanted: invocations.iter().copied().take(MAX_TRACED_THREADS).collect(),
        traces: Vec::new(),
    };
    run(state, views, options, Some(&mut tracing))?;
    let mut traces = tracing.traces;
    Ok(tracing
        .wanted
        .iter()
        .filter_map(|w| {
            let at = traces.iter().position(|(i, _)| i == w)?;
            Some(traces.swap_remove(at))
        })
        .collect())
}

/// The threads a run traces and the traces it took.
struct Tracing {
    /// The invocations to trace.
    wanted: Vec<u64>,
    /// Those traced so far.
    traces: Vec<(u64, ProgramTrace)>,
}

/// The lanes of a batch's trace, one [`ProgramTrace`] a lane.
fn split_trace(trace: &Trace, lanes: &[(usize, u64)]) -> Vec<(u64, ProgramTrace)> {
    lanes
        .iter()
        .map(|&(lane, invocation)| {
            let mut one = trace.clone();
            for step in &mut one.steps {
                step.lanes.retain(|l| usize::from(l.lane) == lane);
            }
            (invocation, ProgramTrace::from(one))
        })
        .collect()
}

/// [`run_dispatch_on`], tracing the threads `tracing` asks for.
fn run(
    state: &DispatchState,
    views: &[Option<UnorderedAccessView>],
    options: &DispatchOptions,
    mut tracing: Option<&mut Tracing>,
) -> Result<DispatchStats> {
    let program = Arc::new(Program::new(&state.compute_shader).map_err(|e| e.within("cs"))?);
    let exe = &program.executable;
    if exe.stage() != Stage::Compute {
        return Err(Error::new("cs", format!("{} is not a compute program", exe.name())));
    }
    let [x_groups, y_groups, z_groups] = state.groups;
    if state.groups.iter().any(|g| *g > MAX_THREAD_GROUPS_PER_DIMENSION) {
        return Err(Error::new(
            "dispatch",
            format!(
                "{x_groups}x{y_groups}x{z_groups} thread groups: at most {MAX_THREAD_GROUPS_PER_DIMENSION} in a dimension (18.6.5)"
            ),
        ));
    }
    let [group_x, group_y, group_z] = exe
        .thread_group()
        .ok_or_else(|| Error::new("cs", "no dcl_thread_group"))?;
    let resources = StageResources::new(exe, &state.bindings, options.unbound, "cs")?;
    let mut bindings = resources.bindings();
    bindings.uavs = views.iter().map(Option::as_ref).collect();
    let threads_per_group = group_x.saturating_mul(group_y).saturating_mul(group_z);
    let per_group = usize::try_from(threads_per_group).unwrap_or(usize::MAX);
    let batches = per_group.div_ceil(LANES);
    let mut machines: Vec<Machine> = (0..batches).map(|_| Machine::new()).collect();
    let shared = SharedMemory::new(usize::try_from(exe.shared_words()).unwrap_or(0));
    let mut stats = DispatchStats::default();
    let over_budget = |work: u64| {
        Error::new(
            "dispatch",
            format!(
                "the work limit of {} units was reached after {work} (lanes times instructions)",
                options.work_limit
            ),
        )
        .kind(ErrorKind::Budget)
    };
    for gz in 0..z_groups {
        for gy in 0..y_groups {
            for gx in 0..x_groups {
                let group = [gx, gy, gz];
                let group_number = u64::from(gz)
                    .saturating_mul(u64::from(y_groups))
                    .saturating_add(u64::from(gy))
                    .saturating_mul(u64::from(x_groups))
                    .saturating_add(u64::from(gx));
                shared.clear();
                for (b, machine) in machines.iter_mut().enumerate() {
                    let first = b.saturating_mul(LANES);
                    let count = per_group.saturating_sub(first).min(LANES);
                    machine.start_threads(exe, count)?;
                    for lane in 0..count {
                        let flat = u32::try_from(first.saturating_add(lane)).unwrap_or(u32::MAX);
                        // The group's sizes are at least 1 (checked when the program was built).
                        let across = flat.checked_div(group_x).unwrap_or(0);
                        let in_group = [
                            flat.checked_rem(group_x).unwrap_or(0),
                            across.checked_rem(group_y).unwrap_or(0),
                            across.checked_div(group_y).unwrap_or(0),
                        ];
                        let thread = [
                            gx.wrapping_mul(group_x).wrapping_add(in_group[0]),
                            gy.wrapping_mul(group_y).wrapping_add(in_group[1]),
                            gz.wrapping_mul(group_z).wrapping_add(in_group[2]),
                        ];
                        machine.set_thread(lane, thread, group, in_group, flat);
                        let invocation = group_number
                            .saturating_mul(u64::from(threads_per_group))
                            .saturating_add(u64::from(flat));
                        machine.set_writer(lane, invocation, group_number);
                    }
                }
                // The traced lanes of each batch: (lane, invocation).
                let first_invocation = group_number.saturating_mul(u64::from(threads_per_group));
                let traced: Vec<Vec<(usize, u64)>> = (0..machines.len())
                    .map(|b| match tracing.as_deref() {
                        Some(tracing) => tracing
                            .wanted
                            .iter()
                            .filter_map(|&w| {
                                let flat = usize::try_from(w.checked_sub(first_invocation)?).ok()?;
                                let lane = flat.checked_sub(b.checked_mul(LANES)?)?;
                                (lane < LANES && flat < per_group).then_some((lane, w))
                            })
                            .collect(),
                        None => Vec::new(),
                    })
                    .collect();
                let mut traces: Vec<Option<Trace>> = traced
                    .iter()
                    .map(|lanes| {
                        (!lanes.is_empty()).then(|| {
                            Trace::new(lanes.iter().fold(0, |mask, (lane, _)| {
                                mask | 1u32.checked_shl(u32::try_from(*lane).unwrap_or(u32::MAX)).unwrap_or(0)
                            }))
                        })
                    })
                    .collect();
                // Rounds: every batch not finished runs to its next barrier or its end.
                let mut running: Vec<bool> = vec![true; machines.len()];
                while running.iter().any(|r| *r) {
                    for ((machine, running), trace) in machines.iter_mut().zip(running.iter_mut()).zip(&mut traces) {
                        if !*running {
                            continue;
                        }
                        let before = machine.steps();
                        let end = machine
                            .run_threads(exe, &bindings, &shared, trace.as_mut())
                            .map_err(|e| e.within(format!("thread group ({gx}, {gy}, {gz})")))?;
                        let lanes = machine.lane_count() as u64;
                        stats.work = stats
                            .work
                            .saturating_add(machine.steps().saturating_sub(before).saturating_mul(lanes));
                        if stats.work > options.work_limit {
                            return Err(over_budget(stats.work));
                        }
                        *running = end == RunEnd::Barrier;
                    }
                }
                stats.groups = stats.groups.saturating_add(1);
                stats.threads = stats.threads.saturating_add(u64::from(threads_per_group));
                if let Some(tracing) = tracing.as_deref_mut() {
                    for (trace, lanes) in traces.iter().zip(&traced) {
                        if let Some(trace) = trace {
                            tracing.traces.extend(split_trace(trace, lanes));
                        }
                    }
                    if tracing.traces.len() >= tracing.wanted.len() {
                        return Ok(stats);
                    }
                }
            }
        }
    }
    Ok(stats)
}

#[cfg(test)]
mod tests;
