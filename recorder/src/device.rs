//! Hooks on the device: every `Create*Shader` keeps the program's DXBC, `CreateInputLayout` its elements (neither
//! can be queried later), both as private data of the object made (`SetPrivateData`, so they live and die with it
//! and cost nothing after); `CreateDeferredContext*` hooks the contexts they make; `CreateTexture2D` makes
//! multisampled render targets readable by shaders, so that their samples can be read. Hooking a device also hooks
//! its immediate context and the DXGI factory that made its adapter.

use crate::log::log;
use crate::private_data::{DXBC_KEY, LAYOUT_KEY, STREAM_OUTPUT_KEY};
use crate::recorder::{self, Inside};
use crate::vtable::{hooked_slot, original, slot};
use std::ffi::c_void;
use windows::Win32::Foundation::E_FAIL;
use windows::Win32::Graphics::Direct3D11::*;
use windows::Win32::Graphics::Dxgi::{IDXGIDevice, IDXGIFactory};
use windows::core::{GUID, HRESULT, Interface, PCSTR};

hooked_slot!(CREATE_VS, CreateShaderFn, (*const c_void, usize, *mut c_void, *mut *mut c_void) -> HRESULT);
hooked_slot!(CREATE_PS, CreatePsFn, (*const c_void, usize, *mut c_void, *mut *mut c_void) -> HRESULT);
hooked_slot!(CREATE_GS, CreateGsFn, (*const c_void, usize, *mut c_void, *mut *mut c_void) -> HRESULT);
hooked_slot!(CREATE_HS, CreateHsFn, (*const c_void, usize, *mut c_void, *mut *mut c_void) -> HRESULT);
hooked_slot!(CREATE_DS, CreateDsFn, (*const c_void, usize, *mut c_void, *mut *mut c_void) -> HRESULT);
hooked_slot!(CREATE_CS, CreateCsFn, (*const c_void, usize, *mut c_void, *mut *mut c_void) -> HRESULT);
hooked_slot!(
    CREATE_GS_SO,
    CreateGsSoFn,
    (*const c_void, usize, *const D3D11_SO_DECLARATION_ENTRY, u32, *const u32, u32, u32, *mut c_void, *mut *mut c_void) -> HRESULT
);
hooked_slot!(
    CREATE_INPUT_LAYOUT,
    CreateInputLayoutFn,
    (*const D3D11_INPUT_ELEMENT_DESC, u32, *const c_void, usize, *mut *mut c_void) -> HRESULT
);
hooked_slot!(
    CREATE_TEXTURE_2D,
    CreateTexture2DFn,
    (*const D3D11_TEXTURE2D_DESC, *const D3D11_SUBRESOURCE_DATA, *mut *mut c_void) -> HRESULT
);
hooked_slot!(CREATE_DEFERRED, CreateDeferredFn, (u32, *mut *mut c_void) -> HRESULT);
hooked_slot!(CREATE_DEFERRED1, CreateDeferred1Fn, (u32, *mut *mut c_void) -> HRESULT);
hooked_slot!(CREATE_DEFERRED2, CreateDeferred2Fn, (u32, *mut *mut c_void) -> HRESULT);
hooked_slot!(CREATE_DEFERRED3, CreateDeferred3Fn, (u32, *mut *mut c_void) -> HRESULT);

/// Stores `bytes` as private data `key` of the device child `object` (a raw pointer the real runtime returned).
fn keep_private(object: *mut c_void, key: &GUID, bytes: &[u8]) {
    if object.is_null() {
        return;
    }
    let Ok(size) = u32::try_from(bytes.len()) else { return };
    let _inside = Inside::enter();
    // SAFETY: `object` is the live device child the runtime just created; borrowing adds no reference.
    let Some(child) = (unsafe { ID3D11DeviceChild::from_raw_borrowed(&object) }) else {
        return;
    };
    // SAFETY: `bytes` is readable for `size` bytes; the runtime copies them.
    if let Err(e) = unsafe { child.SetPrivateData(key, size, Some(bytes.as_ptr().cast())) } {
        log!("SetPrivateData failed ({e}); this object's draws cannot be recorded");
    }
}

/// The program's bytecode argument as a slice.
///
/// # Safety
/// `bytecode` must be readable for `length` bytes (the API's contract), or null.
unsafe fn bytecode_slice<'a>(bytecode: *const c_void, length: usize) -> &'a [u8] {
    if bytecode.is_null() {
        return &[];
    }
    // SAFETY: the caller's contract.
    unsafe { std::slice::from_raw_parts(bytecode.cast::<u8>(), length) }
}

/// Defines the hook of a `Create*Shader` slot: the real call, then the DXBC kept on the shader made.
macro_rules! shader_hook {
    ($name:ident, $table:ident, $fn_type:ty) => {
        unsafe extern "system" fn $name(
            this: *mut c_void,
            bytecode: *const c_void,
            length: usize,
            linkage: *mut c_void,
            out: *mut *mut c_void,
        ) -> HRESULT {
            let original = original!($table, this, $fn_type, E_FAIL);
            // SAFETY: the program's arguments, passed through unchanged.
            let result = unsafe { original(this, bytecode, length, linkage, out) };
            if result.is_ok() && !out.is_null() {
                // SAFETY: the API's contract: `bytecode` holds `length` bytes; on success `*out` is the shader.
                unsafe { keep_private(*out, &DXBC_KEY, bytecode_slice(bytecode, length)) };
            }
            result
        }
    };
}

shader_hook!(create_vertex_shader, CREATE_VS, CreateShaderFn);
shader_hook!(create_pixel_shader, CREATE_PS, CreatePsFn);
shader_hook!(create_geometry_shader, CREATE_GS, CreateGsFn);
shader_hook!(create_hull_shader, CREATE_HS, CreateHsFn);
shader_hook!(create_domain_shader, CREATE_DS, CreateDsFn);
shader_hook!(create_compute_shader, CREATE_CS, CreateCsFn);

#[allow(clippy::too_many_arguments)] // the API's
unsafe extern "system" fn create_geometry_shader_so(
    this: *mut c_void,
    bytecode: *const c_void,
    length: usize,
    entries: *const D3D11_SO_DECLARATION_ENTRY,
    count: u32,
    strides: *const u32,
    stride_count: u32,
    rasterized: u32,
    linkage: *mut c_void,
    out: *mut *mut c_void,
) -> HRESULT {
    let original = original!(CREATE_GS_SO, this, CreateGsSoFn, E_FAIL);
    // SAFETY: the program's arguments, passed through unchanged.
    let result = unsafe {
        original(
            this,
            bytecode,
            length,
            entries,
            count,
            strides,
            stride_count,
            rasterized,
            linkage,
            out,
        )
    };
    if result.is_ok() && !out.is_null() {
        // SAFETY: the API's contract: `bytecode` holds `length` bytes; on success `*out` is the shader.
        unsafe { keep_private(*out, &DXBC_KEY, bytecode_slice(bytecode, length)) };
        // SAFETY: the API's contract: `entries` holds `count` entries and `strides` `stride_count` strides.
        match unsafe { stream_output_declaration(entries, count, strides, stride_count, rasterized) } {
            // SAFETY: as above: `*out` is the shader.
            Ok(json) => keep_private(unsafe { *out }, &STREAM_OUTPUT_KEY, &json),
            Err(e) => log!("a stream-output declaration is not kept ({e}); its draws are not recorded"),
        }
    }
    result
}

/// The stream-output state `CreateGeometryShaderWithStreamOutput` was given (14.3: the declaration's entries,
/// the buffer strides, the rasterized stream), as the JSON the recorder keeps on the shader.
///
/// # Safety
/// `entries` must hold `count` entries (each name a NUL-terminated string or null) and `strides` `stride_count`
/// strides, or be null with a count of 0.
unsafe fn stream_output_declaration(
    entries: *const D3D11_SO_DECLARATION_ENTRY,
    count: u32,
    strides: *const u32,
    stride_count: u32,
    rasterized: u32,
) -> Result<Vec<u8>, String> {
    use iridia::capture::manifest::{StreamOutputDeclarationEntry, StreamOutputStateEntry};
    let entries = if entries.is_null() || count == 0 {
        &[][..]
    } else {
        // SAFETY: the caller's contract.
        unsafe { std::slice::from_raw_parts(entries, count as usize) }
    };
    let strides = if strides.is_null() || stride_count == 0 {
        &[][..]
    } else {
        // SAFETY: the caller's contract.
        unsafe { std::slice::from_raw_parts(strides, stride_count as usize) }
    };
    let mut declaration = Vec::with_capacity(entries.len());
    for entry in entries {
        let semantic_name = if entry.SemanticName.is_null() {
            None
        } else {
            // SAFETY: a non-null name is a NUL-terminated string the program keeps alive across the call.
            Some(unsafe { entry.SemanticName.to_string() }.map_err(|e| e.to_string())?)
        };
        declaration.push(StreamOutputDeclarationEntry {
            stream: entry.Stream,
            semantic_name,
            semantic_index: entry.SemanticIndex,
            start_component: entry.StartComponent,
            component_count: entry.ComponentCount,
            output_slot: u32::from(entry.OutputSlot),
        });
    }
    let state = StreamOutputStateEntry {
        declaration,
        strides: strides.to_vec(),
        rasterized_stream: rasterized,
        targets: Vec::new(),
    };
    serde_json::to_vec(&state).map_err(|e| e.to_string())
}

unsafe extern "system" fn create_input_layout(
    this: *mut c_void,
    descs: *const D3D11_INPUT_ELEMENT_DESC,
    count: u32,
    bytecode: *const c_void,
    length: usize,
    out: *mut *mut c_void,
) -> HRESULT {
    let original = original!(CREATE_INPUT_LAYOUT, this, CreateInputLayoutFn, E_FAIL);
    // SAFETY: the program's arguments, passed through unchanged.
    let result = unsafe { original(this, descs, count, bytecode, length, out) };
    if result.is_ok() && !out.is_null() && (!descs.is_null() || count == 0) {
        let elements = if count == 0 {
            &[][..]
        } else {
            // SAFETY: the API's contract: `descs` holds `count` element descriptions.
            unsafe { std::slice::from_raw_parts(descs, count as usize) }
        };
        let mut converted = Vec::with_capacity(elements.len());
        for element in elements {
            // SAFETY: a semantic name is a NUL-terminated string the program keeps alive across the call.
            let name = unsafe { PCSTR(element.SemanticName.0).to_string() }.unwrap_or_default();
            match crate::convert::input_element(element, name) {
                Ok(e) => converted.push(e),
                Err(e) => {
                    log!("an input layout is not recorded: {e}");
                    return result;
                }
            }
        }
        if let Ok(json) = serde_json::to_vec(&converted) {
            // SAFETY: on success `*out` is the input layout.
            keep_private(unsafe { *out }, &LAYOUT_KEY, &json);
        }
    }
    result
}

/// Whether a texture of `desc` is a multisampled render target a shader cannot read: one the recorder asks for with
/// the shader-resource bind flag added, so that it can load the samples through a view of the texture itself (a
/// copy may resolve them: the copy probe of `crate::msaa`). Depth-stencil targets are left alone (their typed
/// formats take no shader-resource view, and copies of them keep their samples where probed).
fn widens_to_shader_resource(desc: &D3D11_TEXTURE2D_DESC) -> bool {
    let bind = desc.BindFlags;
    desc.SampleDesc.Count > 1
        && desc.Usage == D3D11_USAGE_DEFAULT
        && bind & D3D11_BIND_RENDER_TARGET.0 as u32 != 0
        && bind & (D3D11_BIND_SHADER_RESOURCE.0 | D3D11_BIND_DEPTH_STENCIL.0) as u32 == 0
}

/// `CreateTexture2D`: a multisampled render target that no shader may read is created readable
/// ([`widens_to_shader_resource`]) — what it renders is unchanged; the program sees the extra flag only through
/// `GetDesc` — and as asked when the runtime refuses that (a format without multisample loads).
unsafe extern "system" fn create_texture_2d(
    this: *mut c_void,
    desc: *const D3D11_TEXTURE2D_DESC,
    initial: *const D3D11_SUBRESOURCE_DATA,
    out: *mut *mut c_void,
) -> HRESULT {
    let original = original!(CREATE_TEXTURE_2D, this, CreateTexture2DFn, E_FAIL);
    if !desc.is_null() && !out.is_null() && !recorder::inside() {
        // SAFETY: a non-null description the program passes, readable for the call.
        let asked = unsafe { *desc };
        if widens_to_shader_resource(&asked) {
            let widened = D3D11_TEXTURE2D_DESC {
                BindFlags: asked.BindFlags | D3D11_BIND_SHADER_RESOURCE.0 as u32,
                ..asked
            };
            // SAFETY: the program's arguments, the description a local copy with one more bind flag.
            let result = unsafe { original(this, &widened, initial, out) };
            if result.is_ok() {
                return result;
            }
            log!(
                "a {}x{} {}-sample render target could not be made readable ({result:?}); created as asked",
                asked.Width,
                asked.Height,
                asked.SampleDesc.Count
            );
        }
    }
    // SAFETY: the program's arguments, passed through unchanged.
    unsafe { original(this, desc, initial, out) }
}

/// Defines the hook of a `CreateDeferredContext*` slot: the real call, then hooks on the context made.
macro_rules! deferred_hook {
    ($name:ident, $table:ident, $fn_type:ty) => {
        unsafe extern "system" fn $name(this: *mut c_void, flags: u32, out: *mut *mut c_void) -> HRESULT {
            let original = original!($table, this, $fn_type, E_FAIL);
            // SAFETY: the program's arguments, passed through unchanged.
            let result = unsafe { original(this, flags, out) };
            if result.is_ok() && !out.is_null() {
                // SAFETY: on success `*out` is the new context, live; borrowing adds no reference.
                if let Some(context) = unsafe { ID3D11DeviceContext::from_raw_borrowed(&*out) } {
                    let _inside = Inside::enter();
                    crate::context::hook_context(context);
                }
            }
            result
        }
    };
}

deferred_hook!(create_deferred_context, CREATE_DEFERRED, CreateDeferredFn);
deferred_hook!(create_deferred_context1, CREATE_DEFERRED1, CreateDeferred1Fn);
deferred_hook!(create_deferred_context2, CREATE_DEFERRED2, CreateDeferred2Fn);
deferred_hook!(create_deferred_context3, CREATE_DEFERRED3, CreateDeferred3Fn);

/// Patches the `ID3D11Device` slots of the vtable of `raw` (any interface version of the device).
fn patch_device_slots(raw: *mut c_void) {
    // SAFETY: (each patch) `raw` is a live device whose vtable has every `ID3D11Device` slot; each hook has the
    // slot's signature.
    unsafe {
        CREATE_VS.patch(
            raw,
            slot!(ID3D11Device_Vtbl, CreateVertexShader),
            create_vertex_shader as *const () as usize,
            "CreateVertexShader",
        );
        CREATE_PS.patch(
            raw,
            slot!(ID3D11Device_Vtbl, CreatePixelShader),
            create_pixel_shader as *const () as usize,
            "CreatePixelShader",
        );
        CREATE_GS.patch(
            raw,
            slot!(ID3D11Device_Vtbl, CreateGeometryShader),
            create_geometry_shader as *const () as usize,
            "CreateGeometryShader",
        );
        CREATE_GS_SO.patch(
            raw,
            slot!(ID3D11Device_Vtbl, CreateGeometryShaderWithStreamOutput),
            create_geometry_shader_so as *const () as usize,
            "CreateGeometryShaderWithStreamOutput",
        );
        CREATE_HS.patch(
            raw,
            slot!(ID3D11Device_Vtbl, CreateHullShader),
            create_hull_shader as *const () as usize,
            "CreateHullShader",
        );
        CREATE_DS.patch(
            raw,
            slot!(ID3D11Device_Vtbl, CreateDomainShader),
            create_domain_shader as *const () as usize,
            "CreateDomainShader",
        );
        CREATE_CS.patch(
            raw,
            slot!(ID3D11Device_Vtbl, CreateComputeShader),
            create_compute_shader as *const () as usize,
            "CreateComputeShader",
        );
        CREATE_INPUT_LAYOUT.patch(
            raw,
            slot!(ID3D11Device_Vtbl, CreateInputLayout),
            create_input_layout as *const () as usize,
            "CreateInputLayout",
        );
        CREATE_TEXTURE_2D.patch(
            raw,
            slot!(ID3D11Device_Vtbl, CreateTexture2D),
            create_texture_2d as *const () as usize,
            "CreateTexture2D",
        );
        CREATE_DEFERRED.patch(
            raw,
            slot!(ID3D11Device_Vtbl, CreateDeferredContext),
            create_deferred_context as *const () as usize,
            "CreateDeferredContext",
        );
    }
}

/// Hooks a device that an export made (a raw `ID3D11Device` pointer, possibly null).
pub fn hook_device_raw(device: *mut c_void) {
    if device.is_null() || !recorder::get().settings.enabled {
        return;
    }
    let _inside = Inside::enter();
    crate::perf_markers::hook_imports();
    // SAFETY: `device` is the live device the real export just returned; borrowing it adds no reference.
    if let Some(device) = unsafe { ID3D11Device::from_raw_borrowed(&device) } {
        hook_device(device);
    }
}

/// Hooks `device` on every interface version it has, its immediate context, and its DXGI factory.
pub fn hook_device(device: &ID3D11Device) {
    patch_device_slots(device.as_raw());
    if let Ok(device1) = device.cast::<ID3D11Device1>() {
        patch_device_slots(device1.as_raw());
        // SAFETY: a live `ID3D11Device1`, whose vtable has this slot; the hook has its signature.
        unsafe {
            CREATE_DEFERRED1.patch(
                device1.as_raw(),
                slot!(ID3D11Device1_Vtbl, CreateDeferredContext1),
                create_deferred_context1 as *const () as usize,
                "CreateDeferredContext1",
            )
        };
    }
    if let Ok(device2) = device.cast::<ID3D11Device2>() {
        patch_device_slots(device2.as_raw());
        // SAFETY: as above, for `ID3D11Device2`.
        unsafe {
            CREATE_DEFERRED2.patch(
                device2.as_raw(),
                slot!(ID3D11Device2_Vtbl, CreateDeferredContext2),
                create_deferred_context2 as *const () as usize,
                "CreateDeferredContext2",
            )
        };
    }
    if let Ok(device3) = device.cast::<ID3D11Device3>() {
        patch_device_slots(device3.as_raw());
        // SAFETY: as above, for `ID3D11Device3`.
        unsafe {
            CREATE_DEFERRED3.patch(
                device3.as_raw(),
                slot!(ID3D11Device3_Vtbl, CreateDeferredContext3),
                create_deferred_context3 as *const () as usize,
                "CreateDeferredContext3",
            )
        };
    }
    for raw in [
        device.cast::<ID3D11Device4>().ok().map(|d| d.as_raw()),
        device.cast::<ID3D11Device5>().ok().map(|d| d.as_raw()),
    ]
    .into_iter()
    .flatten()
    {
        patch_device_slots(raw);
    }
    // SAFETY: a live device; the context it gives is AddRef'd and released when `context` drops.
    match unsafe { device.GetImmediateContext() } {
        Ok(context) => crate::context::hook_context(&context),
        Err(e) => log!("GetImmediateContext failed: {e}"),
    }
    hook_factory_of(device);
    let _ = recorder::get();
}

/// Hooks the DXGI factory that made `device`'s adapter.
fn hook_factory_of(device: &ID3D11Device) {
    let factory = (|| -> windows::core::Result<IDXGIFactory> {
        let dxgi: IDXGIDevice = device.cast()?;
        // SAFETY: a live DXGI device; the adapter and factory are AddRef'd and released on drop.
        let adapter = unsafe { dxgi.GetAdapter()? };
        // SAFETY: as above.
        unsafe { adapter.GetParent() }
    })();
    match factory {
        Ok(factory) => crate::dxgi::hook_factory(&factory),
        Err(e) => log!("cannot reach the device's DXGI factory ({e}); swap chains made through DXGI are not seen"),
    }
}
