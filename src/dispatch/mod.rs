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

use crate::api::dispatch::{DispatchState, MAX_THREAD_GROUPS_PER_DIMENSION, UnorderedAccessViewBinding};
use crate::api::enums::UavDimension;
use crate::api::resource::Resource;
use crate::draw::{DEFAULT_WORK_LIMIT, Program, StageResources};
use crate::error::ErrorKind;
use crate::shader::uav::{SharedMemory, UavAccess, UavCounter, UnorderedAccessView};
use crate::shader::{LANES, Machine, RunEnd, Stage, Unbound};
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

/// One unordered access view after a dispatch: the bytes of its window and its counter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UavContents {
    /// The view's elements (a buffer's window; a texture's mip level, the view's slices, rows packed).
    pub bytes: Vec<u8>,
    /// The hidden counter of an append or counter view.
    pub counter: Option<u32>,
}

/// What a dispatch wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DispatchOutput {
    /// Per `u#` slot, what the view holds after it.
    pub uavs: Vec<Option<UavContents>>,
    /// The counts.
    pub stats: DispatchStats,
}

/// Runs `state` from its views' contents and gives what every view holds after it.
pub fn run_dispatch(state: &DispatchState, options: &DispatchOptions) -> Result<DispatchOutput> {
    let views = uav_views(&state.uavs)?;
    let stats = run_dispatch_on(state, &views, options)?;
    Ok(DispatchOutput {
        uavs: views.iter().map(|view| view.as_ref().map(contents)).collect(),
        stats,
    })
}

/// What a view holds now.
pub fn contents(view: &UnorderedAccessView) -> UavContents {
    let (bytes, counter) = view.contents();
    UavContents {
        bytes,
        counter: (view.counter_kind() != UavCounter::None).then_some(counter),
    }
}

/// The views of `bindings`, each holding a copy of its window of the resource (a dispatch writes these; several
/// dispatches may share them, as a frame's do).
pub fn uav_views(bindings: &[Option<UnorderedAccessViewBinding>]) -> Result<Vec<Option<UnorderedAccessView>>> {
    bindings
        .iter()
        .enumerate()
        .map(|(slot, binding)| {
            binding
                .as_ref()
                .map(|b| uav_view(b).map_err(|e| e.within(format!("u{slot}"))))
                .transpose()
        })
        .collect()
}

/// A view's window of its resource as an [`UnorderedAccessView`] (5.3.9's view rules checked).
pub fn uav_view(binding: &UnorderedAccessViewBinding) -> Result<UnorderedAccessView> {
    let desc = &binding.desc;
    let what = "unordered access view";
    let counter = match (desc.append, desc.counter) {
        (false, false) => UavCounter::None,
        (true, false) => UavCounter::Append,
        (false, true) => UavCounter::Counter,
        (true, true) => return Err(Error::new(what, "a view cannot be both append and counter")),
    };
    let initial = binding.initial_count.unwrap_or(0);
    match (&*binding.resource, desc.dimension) {
        (Resource::Buffer(bytes), UavDimension::Buffer) => {
            let (access, element_bytes) = if desc.raw {
                (UavAccess::Raw, 4u64)
            } else if desc.structure_stride != 0 {
                (
                    UavAccess::Structured {
                        stride: desc.structure_stride,
                    },
                    u64::from(desc.structure_stride),
                )
            } else {
                let info = crate::format::TexelCodec::new(desc.format)?;
                (UavAccess::Typed, info.element_bytes() as u64)
            };
            let start = u64::from(desc.first_element).saturating_mul(element_bytes);
            let length = u64::from(desc.num_elements).saturating_mul(element_bytes);
            let end = start.saturating_add(length);
            if end > bytes.len() as u64 {
                return Err(Error::new(
                    what,
                    format!(
                        "elements {}..{} of {element_bytes} bytes pass the end of the {}-byte buffer",
                        desc.first_element,
                        u64::from(desc.first_element).saturating_add(u64::from(desc.num_elements)),
                        bytes.len()
                    ),
                ));
            }
            let window = usize::try_from(start)
                .ok()
                .zip(usize::try_from(end).ok())
                .and_then(|(s, e)| bytes.get(s..e))
                .ok_or_else(|| Error::new(what, "the window is past the buffer"))?;
            UnorderedAccessView::new(
                UavDimension::Buffer,
                access,
                desc.format,
                [desc.num_elements, 1, 1],
                window.to_vec(),
                counter,
                initial,
            )
        }
        (Resource::Texture(texture), dimension) => {
            if desc.raw || desc.structure_stride != 0 || counter != UavCounter::None {
                return Err(Error::new(what, "a texture view is typed (5.3.9)"));
            }
            let shape = &texture.shape;
            let level = desc.mip_slice;
            let [width, height, depth] = shape.mip_size(level);
            if level >= shape.mip_levels {
                return Err(Error::new(what, format!("mip level {level} of {}", shape.mip_levels)));
            }
            let (slices, first, count) = match dimension {
                UavDimension::Texture1D | UavDimension::Texture2D => (shape.array_size, 0, 1),
                UavDimension::Texture1DArray | UavDimension::Texture2DArray => {
                    (shape.array_size, desc.first_array_slice, desc.array_size)
                }
                UavDimension::Texture3D => (depth, desc.first_array_slice, desc.array_size),
                other => return Err(Error::new(what, format!("a {other:?} view of a texture"))),
            };
            let count = if count == u32::MAX {
                slices.saturating_sub(first)
            } else {
                count
            };
            if count == 0 || first.checked_add(count).is_none_or(|end| end > slices) {
                return Err(Error::new(
                    what,
                    format!("slices {first}..+{count} pass the texture's {slices}"),
                ));
            }
            let layout = shape.mip_layout(level)?;
            let mut bytes = Vec::new();
            if dimension == UavDimension::Texture3D {
                let data = texture
                    .subresource(level, 0)
                    .ok_or_else(|| Error::new(what, "the mip level has no data"))?;
                let plane = usize::try_from(layout.row_bytes.saturating_mul(layout.rows))
                    .map_err(|_| Error::new(what, "size"))?;
                for z in first..first.saturating_add(count) {
                    let start = usize::try_from(z).unwrap_or(usize::MAX).saturating_mul(plane);
                    let slice = data
                        .get(start..start.saturating_add(plane))
                        .ok_or_else(|| Error::new(what, format!("depth slice {z} has no data")))?;
                    bytes.extend_from_slice(slice);
                }
            } else {
                for slice in first..first.saturating_add(count) {
                    let data = texture
                        .subresource(level, slice)
                        .ok_or_else(|| Error::new(what, format!("slice {slice} has no data")))?;
                    bytes.extend_from_slice(data);
                }
            }
            let size = match dimension {
                UavDimension::Texture1D => [width, 1, 1],
                UavDimension::Texture1DArray => [width, count, 1],
                UavDimension::Texture2D => [width, height, 1],
                _ => [width, height, count],
            };
            UnorderedAccessView::new(dimension, UavAccess::Typed, desc.format, size, bytes, counter, initial)
        }
        (_, dimension) => Err(Error::new(what, format!("a {dimension:?} view of a buffer"))),
    }
}

/// Runs `state`'s program over every thread against `views` (as [`uav_views`] made them; they keep what it wrote).
pub fn run_dispatch_on(
    state: &DispatchState,
    views: &[Option<UnorderedAccessView>],
    options: &DispatchOptions,
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
                    }
                }
                // Rounds: every batch not finished runs to its next barrier or its end.
                let mut running: Vec<bool> = vec![true; machines.len()];
                while running.iter().any(|r| *r) {
                    for (machine, running) in machines.iter_mut().zip(running.iter_mut()) {
                        if !*running {
                            continue;
                        }
                        let before = machine.steps();
                        let end = machine
                            .run_threads(exe, &bindings, &shared, None)
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
            }
        }
    }
    Ok(stats)
}

#[cfg(test)]
mod tests;
