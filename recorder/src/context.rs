//! Hooks on device contexts, immediate and deferred. The draws (`Draw`, `DrawIndexed`, `DrawInstanced`,
//! `DrawIndexedInstanced`, `DrawInstancedIndirect`, `DrawIndexedInstancedIndirect`) are recorded while a capture
//! runs; `FinishCommandList` and `ExecuteCommandList` carry a deferred context's recorded draws to where they run.
//! Every call that writes a resource (`Map` for writing, `UpdateSubresource*`, `Copy*`, `Clear*`, `Discard*`,
//! `GenerateMips`, `ResolveSubresource`) marks it written, so that the recorder reads a resource again only when its
//! contents may have changed. Outside a capture every hook is one check and the real call, but `SOSetTargets`, whose
//! offsets are kept always (`crate::stream_out`).
//! `ResolveSubresource` is recorded too (format 1.2's `resolves`), on the immediate context, and so are `Dispatch`
//! and `DispatchIndirect` (format 1.3's dispatches); the indirect draws are recorded as the direct calls their
//! arguments make (format 1.4's `indirect`), and `DrawAuto` as the `Draw` it amounts to. The frame's events (format
//! 1.5) are recorded in their place among them: the program's markers through the contexts'
//! `ID3DUserDefinedAnnotation` (`BeginEvent`, `EndEvent`, `SetMarker`), and the clears, copies, updates and
//! `GenerateMips` (`crate::event`).

use crate::event::{EventCall, wide_text};
use crate::recorder::{self, observing};
use crate::vtable::{hooked_slot, original, slot};
use iridia::api::draw::DrawCall;
use std::ffi::c_void;
use windows::Win32::Foundation::{E_FAIL, RECT};
use windows::Win32::Graphics::Direct3D11::*;
use windows::Win32::Graphics::Dxgi::Common::DXGI_FORMAT;
use windows::core::{BOOL, HRESULT, Interface, PCWSTR};

hooked_slot!(DRAW, DrawFn, (u32, u32));
hooked_slot!(DRAW_INDEXED, DrawIndexedFn, (u32, u32, i32));
hooked_slot!(DRAW_INSTANCED, DrawInstancedFn, (u32, u32, u32, u32));
hooked_slot!(
    DRAW_INDEXED_INSTANCED,
    DrawIndexedInstancedFn,
    (u32, u32, u32, i32, u32)
);
hooked_slot!(DRAW_AUTO, DrawAutoFn, ());
hooked_slot!(DRAW_INSTANCED_INDIRECT, DrawInstancedIndirectFn, (*mut c_void, u32));
hooked_slot!(
    DRAW_INDEXED_INSTANCED_INDIRECT,
    DrawIndexedInstancedIndirectFn,
    (*mut c_void, u32)
);
hooked_slot!(DISPATCH, DispatchFn, (u32, u32, u32));
hooked_slot!(SO_SET_TARGETS, SoSetTargetsFn, (u32, *const *mut c_void, *const u32));
hooked_slot!(DISPATCH_INDIRECT, DispatchIndirectFn, (*mut c_void, u32));
hooked_slot!(MAP, MapFn, (*mut c_void, u32, D3D11_MAP, u32, *mut D3D11_MAPPED_SUBRESOURCE) -> HRESULT);
hooked_slot!(
    UPDATE_SUBRESOURCE,
    UpdateSubresourceFn,
    (*mut c_void, u32, *const D3D11_BOX, *const c_void, u32, u32)
);
hooked_slot!(COPY_RESOURCE, CopyResourceFn, (*mut c_void, *mut c_void));
hooked_slot!(
    COPY_SUBRESOURCE_REGION,
    CopySubresourceRegionFn,
    (*mut c_void, u32, u32, u32, u32, *mut c_void, u32, *const D3D11_BOX)
);
hooked_slot!(
    COPY_STRUCTURE_COUNT,
    CopyStructureCountFn,
    (*mut c_void, u32, *mut c_void)
);
hooked_slot!(CLEAR_RTV, ClearRtvFn, (*mut c_void, *const f32));
hooked_slot!(CLEAR_DSV, ClearDsvFn, (*mut c_void, u32, f32, u8));
hooked_slot!(CLEAR_UAV_UINT, ClearUavUintFn, (*mut c_void, *const u32));
hooked_slot!(CLEAR_UAV_FLOAT, ClearUavFloatFn, (*mut c_void, *const f32));
hooked_slot!(GENERATE_MIPS, GenerateMipsFn, (*mut c_void));
hooked_slot!(
    RESOLVE_SUBRESOURCE,
    ResolveSubresourceFn,
    (*mut c_void, u32, *mut c_void, u32, DXGI_FORMAT)
);
hooked_slot!(EXECUTE_COMMAND_LIST, ExecuteCommandListFn, (*mut c_void, BOOL));
hooked_slot!(FINISH_COMMAND_LIST, FinishCommandListFn, (BOOL, *mut *mut c_void) -> HRESULT);
hooked_slot!(
    COPY_SUBRESOURCE_REGION1,
    CopySubresourceRegion1Fn,
    (*mut c_void, u32, u32, u32, u32, *mut c_void, u32, *const D3D11_BOX, u32)
);
hooked_slot!(
    UPDATE_SUBRESOURCE1,
    UpdateSubresource1Fn,
    (*mut c_void, u32, *const D3D11_BOX, *const c_void, u32, u32, u32)
);
hooked_slot!(DISCARD_RESOURCE, DiscardResourceFn, (*mut c_void));
hooked_slot!(DISCARD_VIEW, DiscardViewFn, (*mut c_void));
hooked_slot!(CLEAR_VIEW, ClearViewFn, (*mut c_void, *const f32, *const RECT, u32));
hooked_slot!(DISCARD_VIEW1, DiscardView1Fn, (*mut c_void, *const RECT, u32));
hooked_slot!(BEGIN_EVENT, BeginEventFn, (PCWSTR) -> i32);
hooked_slot!(END_EVENT, EndEventFn, () -> i32);
hooked_slot!(SET_MARKER, SetMarkerFn, (PCWSTR));

unsafe extern "system" fn draw(this: *mut c_void, vertex_count: u32, start_vertex: u32) {
    let original = original!(DRAW, this, DrawFn);
    // SAFETY: (the closure) the program's arguments, passed through unchanged.
    let run = || unsafe { original(this, vertex_count, start_vertex) };
    if observing() {
        recorder::record_draw(
            this,
            DrawCall::Draw {
                vertex_count,
                start_vertex,
            },
            run,
        );
    } else {
        run();
    }
}

unsafe extern "system" fn draw_indexed(this: *mut c_void, index_count: u32, start_index: u32, base_vertex: i32) {
    let original = original!(DRAW_INDEXED, this, DrawIndexedFn);
    // SAFETY: (the closure) the program's arguments, passed through unchanged.
    let run = || unsafe { original(this, index_count, start_index, base_vertex) };
    if observing() {
        let call = DrawCall::DrawIndexed {
            index_count,
            start_index,
            base_vertex,
        };
        recorder::record_draw(this, call, run);
    } else {
        run();
    }
}

unsafe extern "system" fn draw_instanced(
    this: *mut c_void,
    vertex_count_per_instance: u32,
    instance_count: u32,
    start_vertex: u32,
    start_instance: u32,
) {
    let original = original!(DRAW_INSTANCED, this, DrawInstancedFn);
    // SAFETY: (the closure) the program's arguments, passed through unchanged.
    let run = || unsafe {
        original(
            this,
            vertex_count_per_instance,
            instance_count,
            start_vertex,
            start_instance,
        )
    };
    if observing() {
        let call = DrawCall::DrawInstanced {
            vertex_count_per_instance,
            instance_count,
            start_vertex,
            start_instance,
        };
        recorder::record_draw(this, call, run);
    } else {
        run();
    }
}

unsafe extern "system" fn draw_indexed_instanced(
    this: *mut c_void,
    index_count_per_instance: u32,
    instance_count: u32,
    start_index: u32,
    base_vertex: i32,
    start_instance: u32,
) {
    let original = original!(DRAW_INDEXED_INSTANCED, this, DrawIndexedInstancedFn);
    // SAFETY: (the closure) the program's arguments, passed through unchanged.
    let run = || unsafe {
        original(
            this,
            index_count_per_instance,
            instance_count,
            start_index,
            base_vertex,
            start_instance,
        )
    };
    if observing() {
        let call = DrawCall::DrawIndexedInstanced {
            index_count_per_instance,
            instance_count,
            start_index,
            base_vertex,
            start_instance,
        };
        recorder::record_draw(this, call, run);
    } else {
        run();
    }
}

unsafe extern "system" fn draw_auto(this: *mut c_void) {
    let original = original!(DRAW_AUTO, this, DrawAutoFn);
    // SAFETY: (the closure) the program's arguments, passed through unchanged.
    let run = || unsafe { original(this) };
    if observing() {
        recorder::record_auto(this, run);
    } else {
        run();
    }
}

unsafe extern "system" fn draw_instanced_indirect(this: *mut c_void, args: *mut c_void, offset: u32) {
    let original = original!(DRAW_INSTANCED_INDIRECT, this, DrawInstancedIndirectFn);
    // SAFETY: (the closure) the program's arguments, passed through unchanged.
    let run = || unsafe { original(this, args, offset) };
    if observing() {
        recorder::record_indirect_draw(this, false, args, offset, run);
    } else {
        run();
    }
}

unsafe extern "system" fn draw_indexed_instanced_indirect(this: *mut c_void, args: *mut c_void, offset: u32) {
    let original = original!(DRAW_INDEXED_INSTANCED_INDIRECT, this, DrawIndexedInstancedIndirectFn);
    // SAFETY: (the closure) the program's arguments, passed through unchanged.
    let run = || unsafe { original(this, args, offset) };
    if observing() {
        recorder::record_indirect_draw(this, true, args, offset, run);
    } else {
        run();
    }
}

unsafe extern "system" fn dispatch(this: *mut c_void, x: u32, y: u32, z: u32) {
    let original = original!(DISPATCH, this, DispatchFn);
    // SAFETY: (the closure) the program's arguments, passed through unchanged.
    let run = || unsafe { original(this, x, y, z) };
    if observing() {
        recorder::record_dispatch(this, [x, y, z], None, run);
    } else {
        run();
    }
}

unsafe extern "system" fn dispatch_indirect(this: *mut c_void, args: *mut c_void, offset: u32) {
    let original = original!(DISPATCH_INDIRECT, this, DispatchIndirectFn);
    // SAFETY: (the closure) the program's arguments, passed through unchanged.
    let run = || unsafe { original(this, args, offset) };
    if observing() {
        recorder::record_dispatch(this, [0; 3], Some((args, offset)), run);
    } else {
        run();
    }
}

/// `SOSetTargets`: the bindings kept (`crate::stream_out`: D3D11 gives no offsets back), capture or not, then the
/// real call.
unsafe extern "system" fn so_set_targets(
    this: *mut c_void,
    count: u32,
    buffers: *const *mut c_void,
    offsets: *const u32,
) {
    let original = original!(SO_SET_TARGETS, this, SoSetTargetsFn);
    let read = count.min(4) as usize;
    let kept: Vec<usize> = if buffers.is_null() {
        Vec::new()
    } else {
        // SAFETY: the API's contract: `buffers` holds `count` pointers (at most 4 are read).
        unsafe { std::slice::from_raw_parts(buffers, read) }
            .iter()
            .map(|b| *b as usize)
            .collect()
    };
    let given = if offsets.is_null() {
        None
    } else {
        // SAFETY: as above, `offsets` holds `count` offsets.
        Some(unsafe { std::slice::from_raw_parts(offsets, read) })
    };
    crate::stream_out::set_targets(this as usize, &kept, given);
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe { original(this, count, buffers, offsets) }
}

unsafe extern "system" fn map(
    this: *mut c_void,
    resource: *mut c_void,
    subresource: u32,
    map_type: D3D11_MAP,
    flags: u32,
    mapped: *mut D3D11_MAPPED_SUBRESOURCE,
) -> HRESULT {
    let original = original!(MAP, this, MapFn, E_FAIL);
    if map_type != D3D11_MAP_READ && observing() {
        recorder::wrote(resource);
    }
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe { original(this, resource, subresource, map_type, flags, mapped) }
}

/// An `UpdateSubresource*` (named `call`) of `resource`'s `subresource` in `region` made on the context `this`
/// while a capture runs: the resource marked written and the `update` event recorded.
///
/// # Safety
/// `region` must be null or point at a box.
unsafe fn updated(
    this: *mut c_void,
    call: &'static str,
    resource: *mut c_void,
    subresource: u32,
    region: *const D3D11_BOX,
) {
    recorder::wrote(resource);
    // SAFETY: the caller's contract.
    let region = unsafe { region.as_ref() }.copied();
    let event = EventCall::Update {
        call,
        destination: resource,
        subresource,
        region,
    };
    recorder::record_event(this, event);
}

/// A `CopySubresourceRegion*` (named `call`) made on the context `this` while a capture runs: the destination
/// marked written and the `copy` event recorded.
///
/// # Safety
/// `region` must be null or point at a box.
#[allow(clippy::too_many_arguments)] // the API's
unsafe fn copied_region(
    this: *mut c_void,
    call: &'static str,
    destination: *mut c_void,
    destination_subresource: u32,
    at: [u32; 3],
    source: *mut c_void,
    source_subresource: u32,
    region: *const D3D11_BOX,
) {
    recorder::wrote(destination);
    // SAFETY: the caller's contract.
    let region = unsafe { region.as_ref() }.copied();
    let event = EventCall::CopyRegion {
        call,
        destination,
        destination_subresource,
        at,
        source,
        source_subresource,
        region,
    };
    recorder::record_event(this, event);
}

unsafe extern "system" fn update_subresource(
    this: *mut c_void,
    resource: *mut c_void,
    subresource: u32,
    region: *const D3D11_BOX,
    data: *const c_void,
    row_pitch: u32,
    depth_pitch: u32,
) {
    let original = original!(UPDATE_SUBRESOURCE, this, UpdateSubresourceFn);
    if observing() {
        // SAFETY: the API's contract: `region` is null or a box.
        unsafe { updated(this, "UpdateSubresource", resource, subresource, region) };
    }
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe { original(this, resource, subresource, region, data, row_pitch, depth_pitch) }
}

unsafe extern "system" fn update_subresource1(
    this: *mut c_void,
    resource: *mut c_void,
    subresource: u32,
    region: *const D3D11_BOX,
    data: *const c_void,
    row_pitch: u32,
    depth_pitch: u32,
    flags: u32,
) {
    let original = original!(UPDATE_SUBRESOURCE1, this, UpdateSubresource1Fn);
    if observing() {
        // SAFETY: the API's contract: `region` is null or a box.
        unsafe { updated(this, "UpdateSubresource1", resource, subresource, region) };
    }
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe { original(this, resource, subresource, region, data, row_pitch, depth_pitch, flags) }
}

unsafe extern "system" fn copy_resource(this: *mut c_void, destination: *mut c_void, source: *mut c_void) {
    let original = original!(COPY_RESOURCE, this, CopyResourceFn);
    if observing() {
        recorder::wrote(destination);
        recorder::record_event(this, EventCall::CopyResource { destination, source });
    }
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe { original(this, destination, source) }
}

#[allow(clippy::too_many_arguments)] // the API's
unsafe extern "system" fn copy_subresource_region(
    this: *mut c_void,
    destination: *mut c_void,
    destination_subresource: u32,
    x: u32,
    y: u32,
    z: u32,
    source: *mut c_void,
    source_subresource: u32,
    region: *const D3D11_BOX,
) {
    let original = original!(COPY_SUBRESOURCE_REGION, this, CopySubresourceRegionFn);
    if observing() {
        let at = [x, y, z];
        let call = "CopySubresourceRegion";
        // SAFETY: the API's contract: `region` is null or a box.
        unsafe {
            copied_region(
                this,
                call,
                destination,
                destination_subresource,
                at,
                source,
                source_subresource,
                region,
            )
        };
    }
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe {
        original(
            this,
            destination,
            destination_subresource,
            x,
            y,
            z,
            source,
            source_subresource,
            region,
        )
    }
}

#[allow(clippy::too_many_arguments)] // the API's
unsafe extern "system" fn copy_subresource_region1(
    this: *mut c_void,
    destination: *mut c_void,
    destination_subresource: u32,
    x: u32,
    y: u32,
    z: u32,
    source: *mut c_void,
    source_subresource: u32,
    region: *const D3D11_BOX,
    flags: u32,
) {
    let original = original!(COPY_SUBRESOURCE_REGION1, this, CopySubresourceRegion1Fn);
    if observing() {
        let at = [x, y, z];
        let call = "CopySubresourceRegion1";
        // SAFETY: the API's contract: `region` is null or a box.
        unsafe {
            copied_region(
                this,
                call,
                destination,
                destination_subresource,
                at,
                source,
                source_subresource,
                region,
            )
        };
    }
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe {
        original(
            this,
            destination,
            destination_subresource,
            x,
            y,
            z,
            source,
            source_subresource,
            region,
            flags,
        )
    }
}

unsafe extern "system" fn copy_structure_count(this: *mut c_void, buffer: *mut c_void, offset: u32, view: *mut c_void) {
    let original = original!(COPY_STRUCTURE_COUNT, this, CopyStructureCountFn);
    if observing() {
        recorder::wrote(buffer);
    }
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe { original(this, buffer, offset, view) }
}

unsafe extern "system" fn clear_render_target_view(this: *mut c_void, view: *mut c_void, color: *const f32) {
    let original = original!(CLEAR_RTV, this, ClearRtvFn);
    if observing() {
        recorder::wrote_view(view);
        // SAFETY: the API's contract: `color` is four floats (null is read as none).
        let color = unsafe { four(color) };
        recorder::record_event(this, EventCall::ClearRenderTarget { view, color });
    }
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe { original(this, view, color) }
}

unsafe extern "system" fn clear_depth_stencil_view(
    this: *mut c_void,
    view: *mut c_void,
    flags: u32,
    depth: f32,
    stencil: u8,
) {
    let original = original!(CLEAR_DSV, this, ClearDsvFn);
    if observing() {
        recorder::wrote_view(view);
        let call = EventCall::ClearDepthStencil {
            view,
            flags,
            depth,
            stencil,
        };
        recorder::record_event(this, call);
    }
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe { original(this, view, flags, depth, stencil) }
}

unsafe extern "system" fn clear_uav_uint(this: *mut c_void, view: *mut c_void, values: *const u32) {
    let original = original!(CLEAR_UAV_UINT, this, ClearUavUintFn);
    if observing() {
        recorder::wrote_view(view);
        // SAFETY: the API's contract: `values` is four integers (null is read as none).
        let values = unsafe { four(values) };
        recorder::record_event(this, EventCall::ClearUavUint { view, values });
    }
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe { original(this, view, values) }
}

unsafe extern "system" fn clear_uav_float(this: *mut c_void, view: *mut c_void, values: *const f32) {
    let original = original!(CLEAR_UAV_FLOAT, this, ClearUavFloatFn);
    if observing() {
        recorder::wrote_view(view);
        // SAFETY: the API's contract: `values` is four floats (null is read as none).
        let values = unsafe { four(values) };
        recorder::record_event(this, EventCall::ClearUavFloat { view, values });
    }
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe { original(this, view, values) }
}

unsafe extern "system" fn generate_mips(this: *mut c_void, view: *mut c_void) {
    let original = original!(GENERATE_MIPS, this, GenerateMipsFn);
    if observing() {
        recorder::wrote_view(view);
        recorder::record_event(this, EventCall::GenerateMips { view });
    }
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe { original(this, view) }
}

unsafe extern "system" fn resolve_subresource(
    this: *mut c_void,
    destination: *mut c_void,
    destination_subresource: u32,
    source: *mut c_void,
    source_subresource: u32,
    format: DXGI_FORMAT,
) {
    let original = original!(RESOLVE_SUBRESOURCE, this, ResolveSubresourceFn);
    // SAFETY: (the closure) the program's arguments, passed through unchanged.
    let run = || unsafe {
        original(
            this,
            destination,
            destination_subresource,
            source,
            source_subresource,
            format,
        )
    };
    if observing() && !destination.is_null() && !source.is_null() {
        let call = crate::capture::ResolveCall {
            destination,
            destination_subresource,
            source,
            source_subresource,
            format,
        };
        recorder::record_resolve(this, call, run);
    } else {
        if observing() {
            recorder::wrote(destination);
        }
        run();
    }
}

unsafe extern "system" fn discard_resource(this: *mut c_void, resource: *mut c_void) {
    let original = original!(DISCARD_RESOURCE, this, DiscardResourceFn);
    if observing() {
        recorder::discarded(resource);
    }
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe { original(this, resource) }
}

unsafe extern "system" fn discard_view(this: *mut c_void, view: *mut c_void) {
    let original = original!(DISCARD_VIEW, this, DiscardViewFn);
    if observing() {
        recorder::discarded_view(view);
    }
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe { original(this, view) }
}

unsafe extern "system" fn discard_view1(this: *mut c_void, view: *mut c_void, rects: *const RECT, count: u32) {
    let original = original!(DISCARD_VIEW1, this, DiscardView1Fn);
    if observing() {
        recorder::discarded_view(view);
    }
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe { original(this, view, rects, count) }
}

unsafe extern "system" fn clear_view(
    this: *mut c_void,
    view: *mut c_void,
    color: *const f32,
    rects: *const RECT,
    count: u32,
) {
    let original = original!(CLEAR_VIEW, this, ClearViewFn);
    if observing() {
        recorder::wrote_view(view);
        // SAFETY: the API's contract: `color` is four floats (null is read as none).
        let color = unsafe { four(color) };
        let rects = if rects.is_null() { 0 } else { count };
        recorder::record_event(this, EventCall::ClearView { view, color, rects });
    }
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe { original(this, view, color, rects, count) }
}

/// The four values at `values`, or `None` for a null pointer.
///
/// # Safety
/// `values` must be null or point at four readable values.
unsafe fn four<T: Copy>(values: *const T) -> Option<[T; 4]> {
    // SAFETY: the caller's contract.
    unsafe { values.cast::<[T; 4]>().as_ref() }.copied()
}

/// `ID3DUserDefinedAnnotation::BeginEvent`: a `begin` event named by the text, then the real call.
unsafe extern "system" fn begin_event(this: *mut c_void, name: PCWSTR) -> i32 {
    let original = original!(BEGIN_EVENT, this, BeginEventFn, -1);
    if observing() {
        // SAFETY: the API's contract: `name` is a zero-terminated string.
        let text = unsafe { wide_text(name) };
        recorder::record_annotation(this, EventCall::Begin(text));
    }
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe { original(this, name) }
}

/// `ID3DUserDefinedAnnotation::EndEvent`: an `end` event, then the real call.
unsafe extern "system" fn end_event(this: *mut c_void) -> i32 {
    let original = original!(END_EVENT, this, EndEventFn, -1);
    if observing() {
        recorder::record_annotation(this, EventCall::End);
    }
    // SAFETY: the program's call, passed through unchanged.
    unsafe { original(this) }
}

/// `ID3DUserDefinedAnnotation::SetMarker`: a `marker` event named by the text, then the real call.
unsafe extern "system" fn set_marker(this: *mut c_void, name: PCWSTR) {
    let original = original!(SET_MARKER, this, SetMarkerFn);
    if observing() {
        // SAFETY: the API's contract: `name` is a zero-terminated string.
        let text = unsafe { wide_text(name) };
        recorder::record_annotation(this, EventCall::Marker(text));
    }
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe { original(this, name) }
}

unsafe extern "system" fn execute_command_list(this: *mut c_void, list: *mut c_void, restore_state: BOOL) {
    let original = original!(EXECUTE_COMMAND_LIST, this, ExecuteCommandListFn);
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe { original(this, list, restore_state) };
    if observing() {
        recorder::executed_list(this, list);
    }
}

unsafe extern "system" fn finish_command_list(
    this: *mut c_void,
    restore_state: BOOL,
    out: *mut *mut c_void,
) -> HRESULT {
    let original = original!(FINISH_COMMAND_LIST, this, FinishCommandListFn, E_FAIL);
    // SAFETY: the program's arguments, passed through unchanged.
    let result = unsafe { original(this, restore_state, out) };
    if result.is_ok() && !out.is_null() && observing() {
        // SAFETY: on success `*out` is the new command list.
        recorder::finished_list(this, unsafe { *out });
    }
    result
}

/// Patches slot `$field` of each `(TABLE, field, hook)` in the vtable (of type `$vtbl`) of the object `$raw`, keeping
/// the original in `TABLE`.
macro_rules! patch_slots {
    ($raw:expr, $vtbl:ident, $(($table:ident, $field:ident, $hook:ident)),+ $(,)?) => {
        $(
            // SAFETY: each caller passes a live object whose vtable is a `$vtbl` (the function's doc says which);
            // the hook has the slot's signature.
            unsafe { $table.patch($raw, slot!($vtbl, $field), $hook as *const () as usize, stringify!($field)) };
        )+
    };
}

/// Patches the `ID3D11DeviceContext` slots of the vtable of `raw` (any interface version of a context).
fn patch_context_slots(raw: *mut c_void) {
    patch_slots!(
        raw,
        ID3D11DeviceContext_Vtbl,
        (DRAW, Draw, draw),
        (DRAW_INDEXED, DrawIndexed, draw_indexed),
        (DRAW_INSTANCED, DrawInstanced, draw_instanced),
        (DRAW_INDEXED_INSTANCED, DrawIndexedInstanced, draw_indexed_instanced),
        (DRAW_AUTO, DrawAuto, draw_auto),
        (DRAW_INSTANCED_INDIRECT, DrawInstancedIndirect, draw_instanced_indirect),
        (
            DRAW_INDEXED_INSTANCED_INDIRECT,
            DrawIndexedInstancedIndirect,
            draw_indexed_instanced_indirect
        ),
        (DISPATCH, Dispatch, dispatch),
        (SO_SET_TARGETS, SOSetTargets, so_set_targets),
        (DISPATCH_INDIRECT, DispatchIndirect, dispatch_indirect),
        (MAP, Map, map),
        (UPDATE_SUBRESOURCE, UpdateSubresource, update_subresource),
        (COPY_RESOURCE, CopyResource, copy_resource),
        (COPY_SUBRESOURCE_REGION, CopySubresourceRegion, copy_subresource_region),
        (COPY_STRUCTURE_COUNT, CopyStructureCount, copy_structure_count),
        (CLEAR_RTV, ClearRenderTargetView, clear_render_target_view),
        (CLEAR_DSV, ClearDepthStencilView, clear_depth_stencil_view),
        (CLEAR_UAV_UINT, ClearUnorderedAccessViewUint, clear_uav_uint),
        (CLEAR_UAV_FLOAT, ClearUnorderedAccessViewFloat, clear_uav_float),
        (GENERATE_MIPS, GenerateMips, generate_mips),
        (RESOLVE_SUBRESOURCE, ResolveSubresource, resolve_subresource),
        (EXECUTE_COMMAND_LIST, ExecuteCommandList, execute_command_list),
        (FINISH_COMMAND_LIST, FinishCommandList, finish_command_list),
    );
}

/// Patches the `ID3D11DeviceContext1` slots of the vtable of `raw` (an `ID3D11DeviceContext1` or later).
fn patch_context1_slots(raw: *mut c_void) {
    patch_slots!(
        raw,
        ID3D11DeviceContext1_Vtbl,
        (
            COPY_SUBRESOURCE_REGION1,
            CopySubresourceRegion1,
            copy_subresource_region1
        ),
        (UPDATE_SUBRESOURCE1, UpdateSubresource1, update_subresource1),
        (DISCARD_RESOURCE, DiscardResource, discard_resource),
        (DISCARD_VIEW, DiscardView, discard_view),
        (CLEAR_VIEW, ClearView, clear_view),
        (DISCARD_VIEW1, DiscardView1, discard_view1),
    );
}

/// Patches the `ID3DUserDefinedAnnotation` slots of the vtable of `raw` (a context's annotation interface).
fn patch_annotation_slots(raw: *mut c_void) {
    patch_slots!(
        raw,
        ID3DUserDefinedAnnotation_Vtbl,
        (BEGIN_EVENT, BeginEvent, begin_event),
        (END_EVENT, EndEvent, end_event),
        (SET_MARKER, SetMarker, set_marker),
    );
}

/// Hooks `context` on every interface version `QueryInterface` says it has, and its `ID3DUserDefinedAnnotation`
/// (the interface a program gets by `QueryInterface` on the context: every object of its class shares the vtable
/// patched here, so the one the program receives is hooked whenever it asks).
pub fn hook_context(context: &ID3D11DeviceContext) {
    if let Ok(annotation) = context.cast::<ID3DUserDefinedAnnotation>() {
        patch_annotation_slots(annotation.as_raw());
    }
    patch_context_slots(context.as_raw());
    let later = [
        context.cast::<ID3D11DeviceContext1>().ok().map(|c| c.as_raw()),
        context.cast::<ID3D11DeviceContext2>().ok().map(|c| c.as_raw()),
        context.cast::<ID3D11DeviceContext3>().ok().map(|c| c.as_raw()),
        context.cast::<ID3D11DeviceContext4>().ok().map(|c| c.as_raw()),
    ];
    for raw in later.into_iter().flatten() {
        patch_context_slots(raw);
        patch_context1_slots(raw);
    }
}
