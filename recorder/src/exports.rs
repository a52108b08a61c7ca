//! The DLL's exports. The real `d3d11.dll` is loaded by absolute path from the system directory
//! (`GetSystemDirectoryW`), never by name (which would find this DLL again). Every export of the real DLL is
//! exported here too: the three that make devices (`D3D11CreateDevice`, `D3D11CreateDeviceAndSwapChain`,
//! `D3D11On12CreateDevice`) call the real one and hook what it gives; every other is a jump to the real function,
//! resolved on its first call — Wine's DXGI finds this DLL by name and calls exports such as
//! `D3D11CoreRegisterLayers` on it, and Windows' runtime has exports Wine lacks.
//!
//! The list is the union of Wine 8's `d3d11.dll` exports (`objdump -p`) and Windows 10's. An export the real DLL
//! lacks answers `E_NOTIMPL`.

use crate::log::log;
use crate::recorder;
use std::ffi::c_void;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use windows::Win32::Foundation::{E_NOTIMPL, HMODULE};
use windows::Win32::System::LibraryLoader::{GetProcAddress, LoadLibraryW};
use windows::Win32::System::SystemInformation::GetSystemDirectoryW;
use windows::core::{HRESULT, PCSTR, PCWSTR};

/// The real `d3d11.dll`, loaded once.
static REAL: OnceLock<Option<usize>> = OnceLock::new();

/// The real DLL's module handle, loading it on first use.
pub fn real_module() -> Option<HMODULE> {
    let handle = REAL.get_or_init(|| {
        let mut directory = [0u16; 520];
        // SAFETY: the buffer is writable for its whole length, which is what the call is given.
        let length = unsafe { GetSystemDirectoryW(Some(&mut directory)) } as usize;
        let Some(directory) = directory.get(..length).filter(|d| !d.is_empty()) else {
            log!("GetSystemDirectoryW failed: cannot find the real d3d11.dll");
            return None;
        };
        let mut path: Vec<u16> = directory.to_vec();
        path.extend("\\d3d11.dll".encode_utf16());
        path.push(0);
        // SAFETY: `path` is a NUL-terminated UTF-16 string that lives across the call.
        match unsafe { LoadLibraryW(PCWSTR(path.as_ptr())) } {
            Ok(module) => Some(module.0 as usize),
            Err(e) => {
                log!("cannot load {}: {e}", String::from_utf16_lossy(&path[..path.len() - 1]));
                None
            }
        }
    });
    handle.map(|h| HMODULE(h as *mut c_void))
}

/// The address of the real DLL's export `name` (NUL-terminated), if it has it.
pub fn real_export(name: &[u8]) -> Option<usize> {
    let module = real_module()?;
    // SAFETY: `name` is NUL-terminated (every caller passes a literal ending in \0) and `module` is loaded for the
    // life of the process.
    let address = unsafe { GetProcAddress(module, PCSTR(name.as_ptr())) }?;
    Some(address as usize)
}

/// What an export the real DLL lacks answers.
extern "system" fn not_implemented() -> HRESULT {
    E_NOTIMPL
}

/// Resolves forwarded export `index` (called by its stub on first use): its real address, or [`not_implemented`].
extern "system" fn resolve_export(index: usize) -> usize {
    let Some(name) = FORWARDED.get(index) else {
        return not_implemented as *const () as usize;
    };
    let address = real_export(name.as_bytes()).unwrap_or_else(|| {
        log!(
            "the real d3d11.dll has no {}: answering E_NOTIMPL",
            name.trim_end_matches('\0')
        );
        not_implemented as *const () as usize
    });
    if let Some(slot) = TARGETS.get(index) {
        slot.store(address, Ordering::Release);
    }
    address
}

/// Defines one stub per forwarded export: a jump through its slot of `TARGETS`, or, while the slot is empty, a call
/// to [`resolve_export`] that keeps the four argument registers (integer and vector) of the Windows x64
/// convention, whatever the export's signature, then the jump.
macro_rules! forward {
    ($($index:literal $name:ident,)*) => {
        /// The forwarded exports' names, NUL-terminated, by index.
        const FORWARDED: &[&str] = &[$(concat!(stringify!($name), "\0"),)*];
        /// The resolved address of each forwarded export, 0 until its first call.
        static TARGETS: [AtomicUsize; FORWARDED.len()] = [const { AtomicUsize::new(0) }; FORWARDED.len()];
        $(
            #[doc = concat!("Forwards `", stringify!($name), "` to the real DLL.")]
            #[unsafe(no_mangle)]
            #[unsafe(naked)]
            pub unsafe extern "system" fn $name() {
                // On entry rsp is 8 mod 16 (the return address). Four pushes keep it 8 mod 16; 0x68 more bytes
                // make it 16-aligned for the call, with the 32-byte shadow space at rsp and xmm0-3 above it.
                core::arch::naked_asm!(
                    "mov rax, qword ptr [rip + {targets} + {offset}]",
                    "test rax, rax",
                    "jz 2f",
                    "jmp rax",
                    "2:",
                    "push rcx",
                    "push rdx",
                    "push r8",
                    "push r9",
                    "sub rsp, 0x68",
                    "movdqu xmmword ptr [rsp + 0x20], xmm0",
                    "movdqu xmmword ptr [rsp + 0x30], xmm1",
                    "movdqu xmmword ptr [rsp + 0x40], xmm2",
                    "movdqu xmmword ptr [rsp + 0x50], xmm3",
                    "mov ecx, {index}",
                    "call {resolve}",
                    "movdqu xmm0, xmmword ptr [rsp + 0x20]",
                    "movdqu xmm1, xmmword ptr [rsp + 0x30]",
                    "movdqu xmm2, xmmword ptr [rsp + 0x40]",
                    "movdqu xmm3, xmmword ptr [rsp + 0x50]",
                    "add rsp, 0x68",
                    "pop r9",
                    "pop r8",
                    "pop rdx",
                    "pop rcx",
                    "jmp rax",
                    targets = sym TARGETS,
                    offset = const $index * 8,
                    index = const $index,
                    resolve = sym resolve_export,
                )
            }
        )*
    };
}

forward! {
    0 D3D11CoreCreateDevice,
    1 D3D11CoreCreateLayeredDevice,
    2 D3D11CoreGetLayeredDeviceSize,
    3 D3D11CoreRegisterLayers,
    4 D3DKMTCheckVidPnExclusiveOwnership,
    5 D3DKMTCloseAdapter,
    6 D3DKMTCreateAllocation,
    7 D3DKMTCreateContext,
    8 D3DKMTCreateDevice,
    9 D3DKMTCreateSynchronizationObject,
    10 D3DKMTDestroyAllocation,
    11 D3DKMTDestroyContext,
    12 D3DKMTDestroyDevice,
    13 D3DKMTDestroySynchronizationObject,
    14 D3DKMTEscape,
    15 D3DKMTGetContextSchedulingPriority,
    16 D3DKMTGetDeviceState,
    17 D3DKMTGetDisplayModeList,
    18 D3DKMTGetMultisampleMethodList,
    19 D3DKMTGetRuntimeData,
    20 D3DKMTGetSharedPrimaryHandle,
    21 D3DKMTLock,
    22 D3DKMTOpenAdapterFromGdiDisplayName,
    23 D3DKMTOpenAdapterFromHdc,
    24 D3DKMTOpenResource,
    25 D3DKMTPresent,
    26 D3DKMTQueryAdapterInfo,
    27 D3DKMTQueryAllocationResidency,
    28 D3DKMTQueryResourceInfo,
    29 D3DKMTRender,
    30 D3DKMTSetAllocationPriority,
    31 D3DKMTSetContextSchedulingPriority,
    32 D3DKMTSetDisplayMode,
    33 D3DKMTSetDisplayPrivateDriverFormat,
    34 D3DKMTSetGammaRamp,
    35 D3DKMTSetVidPnSourceOwner,
    36 D3DKMTSignalSynchronizationObject,
    37 D3DKMTUnlock,
    38 D3DKMTWaitForSynchronizationObject,
    39 D3DKMTWaitForVerticalBlankEvent,
    40 OpenAdapter10,
    41 OpenAdapter10_2,
    42 CreateDirect3D11DeviceFromDXGIDevice,
    43 CreateDirect3D11SurfaceFromDXGISurface,
    44 D3D11CreateDeviceForD3D12,
    45 D3DPerformance_BeginEvent,
    46 D3DPerformance_EndEvent,
    47 D3DPerformance_GetAvailability,
    48 D3DPerformance_SetMarker,
    49 EnableFeatureLevelUpgrade,
}

/// `D3D11CreateDevice`'s signature.
type CreateDeviceFn = unsafe extern "system" fn(
    *mut c_void,
    i32,
    HMODULE,
    u32,
    *const i32,
    u32,
    u32,
    *mut *mut c_void,
    *mut i32,
    *mut *mut c_void,
) -> HRESULT;

/// `D3D11CreateDeviceAndSwapChain`'s signature.
type CreateDeviceAndSwapChainFn = unsafe extern "system" fn(
    *mut c_void,
    i32,
    HMODULE,
    u32,
    *const i32,
    u32,
    u32,
    *const c_void,
    *mut *mut c_void,
    *mut *mut c_void,
    *mut i32,
    *mut *mut c_void,
) -> HRESULT;

/// `D3D11On12CreateDevice`'s signature.
type On12CreateDeviceFn = unsafe extern "system" fn(
    *mut c_void,
    u32,
    *const i32,
    u32,
    *const *mut c_void,
    u32,
    u32,
    *mut *mut c_void,
    *mut *mut c_void,
    *mut i32,
) -> HRESULT;

/// Nulls the out-parameters that are given, as the real functions do when they fail early.
///
/// # Safety
/// Each non-null pointer must be writable.
unsafe fn null_outputs(pointers: &[*mut *mut c_void]) {
    for pointer in pointers {
        if !pointer.is_null() {
            // SAFETY: the caller's contract: a non-null out-parameter is writable.
            unsafe { pointer.write(std::ptr::null_mut()) };
        }
    }
}

/// The failure a missing real DLL gives: `DXGI_ERROR_UNSUPPORTED`, what D3D11 answers for a driver it cannot use.
const UNSUPPORTED: HRESULT = HRESULT(0x887A_0004_u32 as i32);

/// `D3D11CreateDevice`: the real one, then hooks on the device (and its immediate context) it made.
///
/// # Safety
/// The program's contract with D3D11: pointers as `D3D11CreateDevice` documents them.
#[unsafe(no_mangle)]
pub unsafe extern "system" fn D3D11CreateDevice(
    adapter: *mut c_void,
    driver_type: i32,
    software: HMODULE,
    flags: u32,
    feature_levels: *const i32,
    levels: u32,
    sdk_version: u32,
    device: *mut *mut c_void,
    feature_level: *mut i32,
    context: *mut *mut c_void,
) -> HRESULT {
    recorder::start();
    let Some(real) = real_export(b"D3D11CreateDevice\0") else {
        // SAFETY: the out-parameters are the program's, writable when non-null.
        unsafe { null_outputs(&[device, context]) };
        return UNSUPPORTED;
    };
    // SAFETY: `real` is the real DLL's export of this name, whose signature is `CreateDeviceFn`.
    let real: CreateDeviceFn = unsafe { std::mem::transmute(real) };
    // SAFETY: the arguments are the program's, passed through unchanged.
    let result = unsafe {
        real(
            adapter,
            driver_type,
            software,
            flags,
            feature_levels,
            levels,
            sdk_version,
            device,
            feature_level,
            context,
        )
    };
    if result.is_ok() && !device.is_null() {
        // SAFETY: on success a non-null `device` out-parameter holds the new device.
        crate::device::hook_device_raw(unsafe { *device });
    }
    result
}

/// `D3D11CreateDeviceAndSwapChain`: the real one, then hooks on the device and the swap chain it made.
///
/// # Safety
/// The program's contract with D3D11: pointers as `D3D11CreateDeviceAndSwapChain` documents them.
#[unsafe(no_mangle)]
pub unsafe extern "system" fn D3D11CreateDeviceAndSwapChain(
    adapter: *mut c_void,
    driver_type: i32,
    software: HMODULE,
    flags: u32,
    feature_levels: *const i32,
    levels: u32,
    sdk_version: u32,
    swap_chain_desc: *const c_void,
    swap_chain: *mut *mut c_void,
    device: *mut *mut c_void,
    feature_level: *mut i32,
    context: *mut *mut c_void,
) -> HRESULT {
    recorder::start();
    let Some(real) = real_export(b"D3D11CreateDeviceAndSwapChain\0") else {
        // SAFETY: the out-parameters are the program's, writable when non-null.
        unsafe { null_outputs(&[swap_chain, device, context]) };
        return UNSUPPORTED;
    };
    // SAFETY: `real` is the real DLL's export of this name, whose signature is `CreateDeviceAndSwapChainFn`.
    let real: CreateDeviceAndSwapChainFn = unsafe { std::mem::transmute(real) };
    // SAFETY: the arguments are the program's, passed through unchanged.
    let result = unsafe {
        real(
            adapter,
            driver_type,
            software,
            flags,
            feature_levels,
            levels,
            sdk_version,
            swap_chain_desc,
            swap_chain,
            device,
            feature_level,
            context,
        )
    };
    if result.is_ok() {
        if !device.is_null() {
            // SAFETY: on success a non-null `device` out-parameter holds the new device.
            crate::device::hook_device_raw(unsafe { *device });
        }
        if !swap_chain.is_null() {
            // SAFETY: on success a non-null `swap_chain` out-parameter holds the new swap chain.
            crate::dxgi::hook_swap_chain_raw(unsafe { *swap_chain });
        }
    }
    result
}

/// `D3D11On12CreateDevice`: the real one, then hooks on the device it made.
///
/// # Safety
/// The program's contract with D3D11: pointers as `D3D11On12CreateDevice` documents them.
#[unsafe(no_mangle)]
pub unsafe extern "system" fn D3D11On12CreateDevice(
    device12: *mut c_void,
    flags: u32,
    feature_levels: *const i32,
    levels: u32,
    queues: *const *mut c_void,
    queue_count: u32,
    node_mask: u32,
    device: *mut *mut c_void,
    context: *mut *mut c_void,
    feature_level: *mut i32,
) -> HRESULT {
    recorder::start();
    let Some(real) = real_export(b"D3D11On12CreateDevice\0") else {
        // SAFETY: the out-parameters are the program's, writable when non-null.
        unsafe { null_outputs(&[device, context]) };
        return UNSUPPORTED;
    };
    // SAFETY: `real` is the real DLL's export of this name, whose signature is `On12CreateDeviceFn`.
    let real: On12CreateDeviceFn = unsafe { std::mem::transmute(real) };
    // SAFETY: the arguments are the program's, passed through unchanged.
    let result = unsafe {
        real(
            device12,
            flags,
            feature_levels,
            levels,
            queues,
            queue_count,
            node_mask,
            device,
            context,
            feature_level,
        )
    };
    if result.is_ok() && !device.is_null() {
        // SAFETY: on success a non-null `device` out-parameter holds the new device.
        crate::device::hook_device_raw(unsafe { *device });
    }
    result
}
