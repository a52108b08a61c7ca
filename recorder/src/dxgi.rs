//! Hooks on DXGI: the factory's `CreateSwapChain*` slots hook each swap chain made through DXGI, and every swap
//! chain's `Present`/`Present1` marks the end of a frame — where captures start and end.

use crate::log::log;
use crate::recorder::{self, Inside};
use crate::vtable::{hooked_slot, original, slot};
use std::ffi::c_void;
use windows::Win32::Foundation::{E_FAIL, HWND};
use windows::Win32::Graphics::Direct3D11::ID3D11Resource;
use windows::Win32::Graphics::Dxgi::*;
use windows::core::{HRESULT, Interface};

hooked_slot!(CREATE_SWAP_CHAIN, CreateSwapChainFn, (*mut c_void, *const DXGI_SWAP_CHAIN_DESC, *mut *mut c_void) -> HRESULT);
hooked_slot!(
    CREATE_FOR_HWND,
    CreateForHwndFn,
    (*mut c_void, HWND, *const DXGI_SWAP_CHAIN_DESC1, *const DXGI_SWAP_CHAIN_FULLSCREEN_DESC, *mut c_void, *mut *mut c_void) -> HRESULT
);
hooked_slot!(
    CREATE_FOR_CORE_WINDOW,
    CreateForCoreWindowFn,
    (*mut c_void, *mut c_void, *const DXGI_SWAP_CHAIN_DESC1, *mut c_void, *mut *mut c_void) -> HRESULT
);
hooked_slot!(
    CREATE_FOR_COMPOSITION,
    CreateForCompositionFn,
    (*mut c_void, *const DXGI_SWAP_CHAIN_DESC1, *mut c_void, *mut *mut c_void) -> HRESULT
);
hooked_slot!(PRESENT, PresentFn, (u32, DXGI_PRESENT) -> HRESULT);
hooked_slot!(PRESENT1, Present1Fn, (u32, DXGI_PRESENT, *const DXGI_PRESENT_PARAMETERS) -> HRESULT);
hooked_slot!(RELEASE, ReleaseFn, () -> u32);

/// Hooks the swap chain a creation call left in `out` if it succeeded.
fn hook_created(result: HRESULT, out: *mut *mut c_void) {
    if result.is_ok() && !out.is_null() {
        // SAFETY: on success `*out` is the new swap chain.
        hook_swap_chain_raw(unsafe { *out });
    }
}

unsafe extern "system" fn create_swap_chain(
    this: *mut c_void,
    device: *mut c_void,
    desc: *const DXGI_SWAP_CHAIN_DESC,
    out: *mut *mut c_void,
) -> HRESULT {
    let original = original!(CREATE_SWAP_CHAIN, this, CreateSwapChainFn, E_FAIL);
    // SAFETY: the program's arguments, passed through unchanged.
    let result = unsafe { original(this, device, desc, out) };
    hook_created(result, out);
    result
}

unsafe extern "system" fn create_for_hwnd(
    this: *mut c_void,
    device: *mut c_void,
    window: HWND,
    desc: *const DXGI_SWAP_CHAIN_DESC1,
    fullscreen: *const DXGI_SWAP_CHAIN_FULLSCREEN_DESC,
    output: *mut c_void,
    out: *mut *mut c_void,
) -> HRESULT {
    let original = original!(CREATE_FOR_HWND, this, CreateForHwndFn, E_FAIL);
    // SAFETY: the program's arguments, passed through unchanged.
    let result = unsafe { original(this, device, window, desc, fullscreen, output, out) };
    hook_created(result, out);
    result
}

unsafe extern "system" fn create_for_core_window(
    this: *mut c_void,
    device: *mut c_void,
    window: *mut c_void,
    desc: *const DXGI_SWAP_CHAIN_DESC1,
    output: *mut c_void,
    out: *mut *mut c_void,
) -> HRESULT {
    let original = original!(CREATE_FOR_CORE_WINDOW, this, CreateForCoreWindowFn, E_FAIL);
    // SAFETY: the program's arguments, passed through unchanged.
    let result = unsafe { original(this, device, window, desc, output, out) };
    hook_created(result, out);
    result
}

unsafe extern "system" fn create_for_composition(
    this: *mut c_void,
    device: *mut c_void,
    desc: *const DXGI_SWAP_CHAIN_DESC1,
    output: *mut c_void,
    out: *mut *mut c_void,
) -> HRESULT {
    let original = original!(CREATE_FOR_COMPOSITION, this, CreateForCompositionFn, E_FAIL);
    // SAFETY: the program's arguments, passed through unchanged.
    let result = unsafe { original(this, device, desc, output, out) };
    hook_created(result, out);
    result
}

unsafe extern "system" fn present(this: *mut c_void, sync_interval: u32, flags: DXGI_PRESENT) -> HRESULT {
    let original = original!(PRESENT, this, PresentFn, E_FAIL);
    if flags.0 & DXGI_PRESENT_TEST.0 == 0 {
        recorder::on_present();
        crate::perf_markers::after_present();
    }
    // SAFETY: the program's arguments, passed through unchanged.
    let result = unsafe { original(this, sync_interval, flags) };
    presented(this, flags);
    result
}

unsafe extern "system" fn present1(
    this: *mut c_void,
    sync_interval: u32,
    flags: DXGI_PRESENT,
    parameters: *const DXGI_PRESENT_PARAMETERS,
) -> HRESULT {
    let original = original!(PRESENT1, this, Present1Fn, E_FAIL);
    if flags.0 & DXGI_PRESENT_TEST.0 == 0 {
        recorder::on_present();
        crate::perf_markers::after_present();
    }
    // SAFETY: the program's arguments, passed through unchanged.
    let result = unsafe { original(this, sync_interval, flags, parameters) };
    presented(this, flags);
    result
}

/// A swap chain's `Release`: when the program lets go of its last reference (it is tearing down its window or
/// its renderer), the writers of ended captures are waited for, so that their files are finished before the
/// program can exit; a `Present` never waits for them.
unsafe extern "system" fn release(this: *mut c_void) -> u32 {
    let original = original!(RELEASE, this, ReleaseFn, 0);
    // SAFETY: the program's call, passed through unchanged; `this` is not used after it.
    let count = unsafe { original(this) };
    if count == 0 && !recorder::inside() {
        recorder::wait_for_writers("a swap chain was released");
    }
    count
}

/// After a `Present` of the swap chain `this` while a capture runs: its back buffer's contents are now undefined
/// (DXGI's discard and flip models give no guarantee about them), so the recorder reads them again, afresh.
fn presented(this: *mut c_void, flags: DXGI_PRESENT) {
    if flags.0 & DXGI_PRESENT_TEST.0 != 0 || !recorder::observing() {
        return;
    }
    // SAFETY: `this` is the live swap chain the hooked call was made on; borrowing adds no reference.
    let Some(chain) = (unsafe { IDXGISwapChain::from_raw_borrowed(&this) }) else {
        return;
    };
    let _inside = Inside::enter();
    // SAFETY: a live swap chain; buffer 0 is the one the program draws to next, AddRef'd and released on drop.
    if let Ok(buffer) = unsafe { chain.GetBuffer::<ID3D11Resource>(0) } {
        recorder::discarded(buffer.as_raw());
    }
}

/// Hooks a factory's `CreateSwapChain*` slots, on each interface version it has.
pub fn hook_factory(factory: &IDXGIFactory) {
    let raw = factory.as_raw();
    // SAFETY: a live factory whose vtable has `IDXGIFactory`'s slots; the hook has the slot's signature.
    unsafe {
        CREATE_SWAP_CHAIN.patch(
            raw,
            slot!(IDXGIFactory_Vtbl, CreateSwapChain),
            create_swap_chain as *const () as usize,
            "IDXGIFactory::CreateSwapChain",
        )
    };
    for raw in [
        factory.cast::<IDXGIFactory1>().ok().map(|f| f.as_raw()),
        factory.cast::<IDXGIFactory2>().ok().map(|f| f.as_raw()),
    ]
    .into_iter()
    .flatten()
    {
        // SAFETY: as above.
        unsafe {
            CREATE_SWAP_CHAIN.patch(
                raw,
                slot!(IDXGIFactory_Vtbl, CreateSwapChain),
                create_swap_chain as *const () as usize,
                "IDXGIFactory::CreateSwapChain",
            )
        };
    }
    if let Ok(factory2) = factory.cast::<IDXGIFactory2>() {
        let raw = factory2.as_raw();
        // SAFETY: a live `IDXGIFactory2`, whose vtable has these slots; each hook has its slot's signature.
        unsafe {
            CREATE_FOR_HWND.patch(
                raw,
                slot!(IDXGIFactory2_Vtbl, CreateSwapChainForHwnd),
                create_for_hwnd as *const () as usize,
                "CreateSwapChainForHwnd",
            );
            CREATE_FOR_CORE_WINDOW.patch(
                raw,
                slot!(IDXGIFactory2_Vtbl, CreateSwapChainForCoreWindow),
                create_for_core_window as *const () as usize,
                "CreateSwapChainForCoreWindow",
            );
            CREATE_FOR_COMPOSITION.patch(
                raw,
                slot!(IDXGIFactory2_Vtbl, CreateSwapChainForComposition),
                create_for_composition as *const () as usize,
                "CreateSwapChainForComposition",
            );
        }
    }
}

/// Hooks `Present` (and `Present1`) and `Release` of a swap chain given as a raw pointer, possibly null.
pub fn hook_swap_chain_raw(swap_chain: *mut c_void) {
    if swap_chain.is_null() || !recorder::get().settings.enabled {
        return;
    }
    let _inside = Inside::enter();
    // SAFETY: a live swap chain the runtime just returned; borrowing adds no reference.
    let Some(swap_chain) = (unsafe { IDXGISwapChain::from_raw_borrowed(&swap_chain) }) else {
        return;
    };
    // SAFETY: a live swap chain whose vtable has `IDXGISwapChain`'s slots; the hook has the slot's signature.
    unsafe {
        PRESENT.patch(
            swap_chain.as_raw(),
            slot!(IDXGISwapChain_Vtbl, Present),
            present as *const () as usize,
            "Present",
        );
        RELEASE.patch(
            swap_chain.as_raw(),
            slot!(windows::core::IUnknown_Vtbl, Release),
            release as *const () as usize,
            "IDXGISwapChain::Release",
        );
    };
    if let Ok(swap_chain1) = swap_chain.cast::<IDXGISwapChain1>() {
        let raw = swap_chain1.as_raw();
        // SAFETY: a live `IDXGISwapChain1`, whose vtable has both slots.
        unsafe {
            PRESENT.patch(
                raw,
                slot!(IDXGISwapChain_Vtbl, Present),
                present as *const () as usize,
                "Present",
            );
            PRESENT1.patch(
                raw,
                slot!(IDXGISwapChain1_Vtbl, Present1),
                present1 as *const () as usize,
                "Present1",
            );
        }
    } else {
        log!("the swap chain has no IDXGISwapChain1; Present1 is not hooked");
    }
}
