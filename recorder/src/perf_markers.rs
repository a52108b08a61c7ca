//! The program's Direct3D 9-era markers, `D3DPERF_BeginEvent`, `D3DPERF_EndEvent` and `D3DPERF_SetMarker`, recorded
//! as the frame's `begin`, `end` and `marker` events (capture format 1.5) like `ID3DUserDefinedAnnotation`'s.
//!
//! They are `d3d9.dll`'s exports and take no context, so there is no vtable to patch: a program reaches them through
//! an import table (its own, or one of its DLLs') or `GetProcAddress`. [`hook_imports`] rewrites, in every loaded
//! module outside the system directory but this one, each import-table slot that holds one of the three functions
//! (by its address, or by its name in an import of `d3d9.dll`) and each that holds `GetProcAddress`, whose hook hands
//! out this module's functions in place of the three. Each hook records its event while a capture runs and calls
//! the real function. It runs when a device is made and after the `Present` that starts a capture, so modules
//! loaded since are covered too; an address the program looked up before its first device was made is not
//! (docs/recorder.md).
//!
//! The events take no context: they are placed in the frame where the call is made, as the immediate context's
//! are (a D3D9-era tool shows them the same way).
//!
//! The module images are read as the loader mapped them (the PE format's import directory: `IMAGE_DIRECTORY_ENTRY_
//! IMPORT`, `IMAGE_IMPORT_DESCRIPTOR`, 64-bit thunks), each read checked against the image's `SizeOfImage` and the
//! walks bounded, so that a module with a malformed header is skipped, never read past.

use crate::event::{EventCall, wide_text};
use crate::log::log;
use crate::recorder::{self, observing};
use crate::vtable::WritableSlot;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use windows::Win32::Foundation::HMODULE;
use windows::Win32::System::LibraryLoader::{
    GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS, GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT, GetModuleFileNameW,
    GetModuleHandleExW, GetModuleHandleW, GetProcAddress,
};
use windows::Win32::System::ProcessStatus::EnumProcessModules;
use windows::Win32::System::SystemInformation::GetSystemDirectoryW;
use windows::Win32::System::Threading::GetCurrentProcess;
use windows::core::{PCSTR, PCWSTR, w};

/// `D3DPERF_BeginEvent(D3DCOLOR, LPCWSTR) -> int`.
type BeginEventFn = unsafe extern "system" fn(u32, PCWSTR) -> i32;
/// `D3DPERF_EndEvent() -> int`.
type EndEventFn = unsafe extern "system" fn() -> i32;
/// `D3DPERF_SetMarker(D3DCOLOR, LPCWSTR)`.
type SetMarkerFn = unsafe extern "system" fn(u32, PCWSTR);
/// `GetProcAddress(HMODULE, LPCSTR) -> FARPROC` (a null address when not found).
type GetProcAddressFn = unsafe extern "system" fn(HMODULE, PCSTR) -> usize;

/// The functions whose import slots are rewritten, by index: the three markers and `GetProcAddress`.
const NAMES: [&str; 4] = [
    "D3DPERF_BeginEvent",
    "D3DPERF_EndEvent",
    "D3DPERF_SetMarker",
    "GetProcAddress",
];
/// [`NAMES`]' index of `GetProcAddress`, the one function not `d3d9.dll`'s.
const GET_PROC_ADDRESS: usize = 3;

/// The real functions' addresses, by [`NAMES`] index: 0 until known (`d3d9.dll` may load after the first scan).
static REAL: [AtomicUsize; 4] = [const { AtomicUsize::new(0) }; 4];
/// A second real `GetProcAddress` (`kernelbase.dll`'s, which the `api-ms-win-core-*` sets bind to).
static REAL_GET_PROC_ADDRESS_BASE: AtomicUsize = AtomicUsize::new(0);
/// Serialises the scans, which may run on several threads (devices made on each).
static SCAN: Mutex<()> = Mutex::new(());

/// The most modules a scan looks at.
const MAX_MODULES: usize = 4096;
/// The most import descriptors read in one module.
const MAX_DESCRIPTORS: usize = 4096;
/// The most import slots read under one descriptor.
const MAX_THUNKS: usize = 1 << 16;
/// The most bytes of an imported function's or DLL's name compared.
const MAX_IMPORT_NAME: usize = 256;

/// This module's hook for each of [`NAMES`].
fn hooks() -> [usize; 4] {
    [
        perf_begin_event as *const () as usize,
        perf_end_event as *const () as usize,
        perf_set_marker as *const () as usize,
        get_proc_address as *const () as usize,
    ]
}

/// The real function `index` of [`NAMES`], if known.
fn real(index: usize) -> Option<usize> {
    REAL.get(index).map(|a| a.load(Ordering::Acquire)).filter(|a| *a != 0)
}

/// Looks up the real functions in the modules loaded now (`d3d9.dll`, `kernel32.dll`, `kernelbase.dll`).
fn find_real_functions() {
    let export = |module: PCWSTR, name: &str| -> Option<usize> {
        // SAFETY: `module` is a NUL-terminated literal; a module handle from `GetModuleHandleW` stays valid while
        // the module is loaded, which it is for the lookup.
        let handle = unsafe { GetModuleHandleW(module) }.ok()?;
        let name = format!("{name}\0");
        // SAFETY: `name` is NUL-terminated and lives across the call.
        unsafe { GetProcAddress(handle, PCSTR(name.as_ptr())) }.map(|f| f as usize)
    };
    for (index, name) in NAMES.iter().enumerate() {
        let module = if index == GET_PROC_ADDRESS {
            w!("kernel32.dll")
        } else {
            w!("d3d9.dll")
        };
        if let (Some(slot), Some(address)) = (REAL.get(index), export(module, name)) {
            let _ = slot.compare_exchange(0, address, Ordering::AcqRel, Ordering::Acquire);
        }
    }
    if let Some(address) = export(w!("kernelbase.dll"), "GetProcAddress") {
        REAL_GET_PROC_ADDRESS_BASE.store(address, Ordering::Release);
    }
}

/// Rewrites the import-table slots of the three marker functions and `GetProcAddress` in every loaded module
/// outside the system directory but this one (module documentation). Safe to run again: a slot already hooked is
/// left as it is.
pub fn hook_imports() {
    let _one_at_a_time = SCAN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    find_real_functions();
    if real(GET_PROC_ADDRESS).is_none() {
        log!("D3DPERF markers: GetProcAddress not found; the markers are not recorded");
        return;
    }
    let own = own_module();
    let system = system_directory();
    let mut rewritten = 0usize;
    for module in loaded_modules() {
        if Some(module.0 as usize) == own || system.as_deref().is_some_and(|dir| in_directory(module, dir)) {
            continue;
        }
        // SAFETY: `module` is a module handle the loader gave, i.e. the base of a mapped PE image; `imports` reads it
        // within its SizeOfImage only.
        rewritten += unsafe { rewrite_imports(module.0 as usize) };
    }
    if rewritten > 0 {
        log!("D3DPERF markers: {rewritten} import slot(s) rewritten to the recorder's hooks");
    }
}

/// Whether a capture ran at the last [`after_present`].
static WAS_CAPTURING: AtomicBool = AtomicBool::new(false);

/// Called after each `Present`'s own work: scans again when a capture has just started, for the modules loaded
/// since the devices were made.
pub fn after_present() {
    let now = recorder::capturing();
    if now && !WAS_CAPTURING.swap(now, Ordering::AcqRel) {
        hook_imports();
    } else {
        WAS_CAPTURING.store(now, Ordering::Release);
    }
}

/// This DLL's base address.
fn own_module() -> Option<usize> {
    let mut module = HMODULE::default();
    // SAFETY: with FROM_ADDRESS the "name" is an address inside the module (this function's); UNCHANGED_REFCOUNT
    // takes no reference; `module` is writable.
    unsafe {
        GetModuleHandleExW(
            GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
            PCWSTR(own_module as *const () as *const u16),
            &mut module,
        )
    }
    .ok()?;
    Some(module.0 as usize)
}

/// The system directory, lower case, with a trailing backslash.
fn system_directory() -> Option<String> {
    let mut buffer = [0u16; 520];
    // SAFETY: the buffer is writable for its whole length, which is what the call is given.
    let length = unsafe { GetSystemDirectoryW(Some(&mut buffer)) } as usize;
    let directory = buffer.get(..length).filter(|d| !d.is_empty())?;
    Some(format!("{}\\", String::from_utf16_lossy(directory).to_lowercase()))
}

/// Whether `module`'s file is in `directory` (lower case, ending in a backslash).
fn in_directory(module: HMODULE, directory: &str) -> bool {
    let mut buffer = vec![0u16; 32768];
    // SAFETY: the buffer is writable for its whole length; `module` is loaded.
    let length = unsafe { GetModuleFileNameW(Some(module), &mut buffer) } as usize;
    let path = String::from_utf16_lossy(buffer.get(..length).unwrap_or(&[])).to_lowercase();
    path.starts_with(directory)
}

/// The process's loaded modules (at most [`MAX_MODULES`]).
fn loaded_modules() -> Vec<HMODULE> {
    let mut modules = vec![HMODULE::default(); 256];
    loop {
        let mut needed = 0u32;
        let bytes = u32::try_from(std::mem::size_of_val(modules.as_slice())).unwrap_or(u32::MAX);
        // SAFETY: `modules` is writable for `bytes` bytes; the pseudo-handle of this process needs no closing.
        if unsafe { EnumProcessModules(GetCurrentProcess(), modules.as_mut_ptr(), bytes, &mut needed) }.is_err() {
            return Vec::new();
        }
        let count = needed as usize / std::mem::size_of::<HMODULE>();
        if count <= modules.len() {
            modules.truncate(count);
            return modules;
        }
        if count > MAX_MODULES {
            modules.truncate(MAX_MODULES);
            return modules;
        }
        modules.resize(count, HMODULE::default());
    }
}

/// A mapped PE image: reads of its bytes checked against its size.
struct Image {
    base: usize,
    size: usize,
}

impl Image {
    /// The image at `base`, if its headers are those of a 64-bit PE image; its size is the optional header's
    /// `SizeOfImage`.
    ///
    /// # Safety
    /// `base` must be the base of a mapped image (a module handle), whose first page holds its headers.
    unsafe fn at(base: usize) -> Option<Self> {
        // the headers are read within the first page, which every mapped image has
        let page = Image { base, size: 0x1000 };
        if page.u16(0)? != 0x5a4d {
            return None; // "MZ"
        }
        let nt = page.u32(0x3c)? as usize;
        if page.u32(nt)? != 0x4550 {
            return None; // "PE\0\0"
        }
        let optional = nt.checked_add(24)?;
        if page.u16(optional)? != 0x20b {
            return None; // PE32+
        }
        let size = page.u32(optional.checked_add(56)?)? as usize;
        Some(Image { base, size })
    }

    /// Whether `length` bytes at `offset` lie in the image.
    fn holds(&self, offset: usize, length: usize) -> bool {
        offset.checked_add(length).is_some_and(|end| end <= self.size)
    }

    /// The `u16` at `offset`, if in the image.
    fn u16(&self, offset: usize) -> Option<u16> {
        // SAFETY: in the image, which is mapped readable (`holds`); unaligned reads are allowed.
        self.holds(offset, 2)
            .then(|| unsafe { ((self.base + offset) as *const u16).read_unaligned() })
    }

    /// The `u32` at `offset`, if in the image.
    fn u32(&self, offset: usize) -> Option<u32> {
        // SAFETY: as `u16`.
        self.holds(offset, 4)
            .then(|| unsafe { ((self.base + offset) as *const u32).read_unaligned() })
    }

    /// The `u64` at `offset`, if in the image.
    fn u64(&self, offset: usize) -> Option<u64> {
        // SAFETY: as `u16`.
        self.holds(offset, 8)
            .then(|| unsafe { ((self.base + offset) as *const u64).read_unaligned() })
    }

    /// The NUL-terminated ASCII name at `offset` (at most [`MAX_IMPORT_NAME`] bytes), if it ends in the image.
    fn name(&self, offset: usize) -> Option<String> {
        let mut bytes = Vec::new();
        for at in 0..MAX_IMPORT_NAME {
            // SAFETY: as `u16`.
            let byte = self
                .holds(offset.checked_add(at)?, 1)
                .then(|| unsafe { ((self.base + offset + at) as *const u8).read() })?;
            if byte == 0 {
                return Some(String::from_utf8_lossy(&bytes).into_owned());
            }
            bytes.push(byte);
        }
        None
    }
}

/// Rewrites module `base`'s import slots of [`NAMES`]' functions to this module's hooks; gives how many it rewrote.
///
/// # Safety
/// `base` must be the base of a mapped image.
unsafe fn rewrite_imports(base: usize) -> usize {
    // SAFETY: the caller's contract.
    let Some(image) = (unsafe { Image::at(base) }) else {
        return 0;
    };
    // the import directory: data directory 1, at the optional header's offset 120 (PE32+)
    let Some(nt) = image.u32(0x3c) else { return 0 };
    let directory = (nt as usize).saturating_add(24 + 120);
    let (Some(imports), Some(size)) = (image.u32(directory), image.u32(directory.saturating_add(4))) else {
        return 0;
    };
    if imports == 0 || size == 0 {
        return 0;
    }
    let hooks = hooks();
    let real_base = REAL_GET_PROC_ADDRESS_BASE.load(Ordering::Acquire);
    let mut rewritten = 0;
    for descriptor in 0..MAX_DESCRIPTORS {
        let at = (imports as usize).saturating_add(descriptor.saturating_mul(20));
        let (Some(names), Some(dll), Some(slots)) = (
            image.u32(at),
            image.u32(at.saturating_add(12)),
            image.u32(at.saturating_add(16)),
        ) else {
            break;
        };
        if dll == 0 && slots == 0 {
            break;
        }
        let from_d3d9 = image
            .name(dll as usize)
            .is_some_and(|n| n.eq_ignore_ascii_case("d3d9.dll"));
        for thunk in 0..MAX_THUNKS {
            let slot_at = (slots as usize).saturating_add(thunk.saturating_mul(8));
            let Some(value) = image.u64(slot_at) else { break };
            if value == 0 {
                break;
            }
            let value = value as usize;
            let mut function = (0..NAMES.len()).find(|&i| real(i) == Some(value));
            if function.is_none() && value != 0 && value == real_base {
                function = Some(GET_PROC_ADDRESS);
            }
            if function.is_none() && from_d3d9 && names != 0 {
                // by name, in case the slot holds something other than the export (another tool's hook)
                let by_name = image
                    .u64((names as usize).saturating_add(thunk.saturating_mul(8)))
                    .filter(|entry| entry >> 63 == 0)
                    .and_then(|entry| image.name((entry as usize & 0x7fff_ffff).saturating_add(2)));
                function = by_name.and_then(|n| NAMES.iter().take(GET_PROC_ADDRESS).position(|f| *f == n));
            }
            let (Some(function), Some(&hook)) = (function, function.and_then(|f| hooks.get(f))) else {
                continue;
            };
            if value == hook {
                continue;
            }
            if function != GET_PROC_ADDRESS && real(function).is_none() {
                // named but the real export is unknown: keep what the slot holds as the one to call
                if let Some(slot) = REAL.get(function) {
                    let _ = slot.compare_exchange(0, value, Ordering::AcqRel, Ordering::Acquire);
                }
            }
            // SAFETY: the slot lies in the image (`u64` read it); the loader mapped it, maybe read-only, which
            // `rewrite_slot` changes around its write.
            if unsafe { rewrite_slot(base + slot_at, hook) } {
                rewritten += 1;
            }
        }
    }
    rewritten
}

/// Writes `value` into the import slot at `address`, making its page writable for the write.
///
/// # Safety
/// `address` must be an 8-byte import slot of a mapped image.
unsafe fn rewrite_slot(address: usize, value: usize) -> bool {
    // SAFETY: the caller's contract: the slot is mapped and 8-byte aligned (import tables are arrays of 64-bit
    // thunks at aligned offsets).
    let Ok(writable) = (unsafe { WritableSlot::new(address as *mut usize) }) else {
        return false;
    };
    writable.write(value);
    true
}

/// The hook of `GetProcAddress`: the real lookup, then this module's hook in place of a marker function.
unsafe extern "system" fn get_proc_address(module: HMODULE, name: PCSTR) -> usize {
    let Some(real_lookup) = real(GET_PROC_ADDRESS) else {
        return 0;
    };
    // SAFETY: the address of the real `GetProcAddress`, whose signature `GetProcAddressFn` is.
    let real_lookup: GetProcAddressFn = unsafe { std::mem::transmute(real_lookup) };
    // SAFETY: the program's arguments, passed through unchanged.
    let found = unsafe { real_lookup(module, name) };
    if found == 0 {
        return 0;
    }
    // SAFETY: the program's argument: a NUL-terminated name or an ordinal.
    if (0..GET_PROC_ADDRESS).all(|i| real(i).is_none()) && unsafe { names_a_marker(name) } {
        // d3d9.dll loaded since the last scan: its exports are known from now on
        find_real_functions();
    }
    let hooks = hooks();
    (0..GET_PROC_ADDRESS)
        .find(|&i| real(i) == Some(found))
        .and_then(|i| hooks.get(i).copied())
        .unwrap_or(found)
}

/// Whether `GetProcAddress`'s `name` is a name starting `D3DPERF_` (not an ordinal), read no further than its first
/// byte that differs: the lookups of other functions, which a program may make by the thousand, cost no more.
///
/// # Safety
/// `name` must be an ordinal (at most 0xffff) or point at a NUL-terminated string.
unsafe fn names_a_marker(name: PCSTR) -> bool {
    if name.0 as usize <= 0xffff {
        return false;
    }
    b"D3DPERF_".iter().enumerate().all(|(at, expected)| {
        // SAFETY: the bytes before `at` matched the prefix, none of them NUL, so `at` is within the string.
        let byte = unsafe { name.0.add(at).read() };
        byte == *expected
    })
}

/// The hook of `D3DPERF_BeginEvent`: a `begin` event named by the text, then the real call.
unsafe extern "system" fn perf_begin_event(color: u32, name: PCWSTR) -> i32 {
    if observing() {
        // SAFETY: the API's contract: `name` is a zero-terminated string.
        let text = unsafe { wide_text(name) };
        recorder::record_unbound_event(EventCall::Begin(text));
    }
    match real(0) {
        // SAFETY: the real `D3DPERF_BeginEvent`, with the program's arguments.
        Some(f) => unsafe { std::mem::transmute::<usize, BeginEventFn>(f)(color, name) },
        None => 0,
    }
}

/// The hook of `D3DPERF_EndEvent`: an `end` event, then the real call.
unsafe extern "system" fn perf_end_event() -> i32 {
    if observing() {
        recorder::record_unbound_event(EventCall::End);
    }
    match real(1) {
        // SAFETY: the real `D3DPERF_EndEvent`.
        Some(f) => unsafe { std::mem::transmute::<usize, EndEventFn>(f)() },
        None => 0,
    }
}

/// The hook of `D3DPERF_SetMarker`: a `marker` event named by the text, then the real call.
unsafe extern "system" fn perf_set_marker(color: u32, name: PCWSTR) {
    if observing() {
        // SAFETY: the API's contract: `name` is a zero-terminated string.
        let text = unsafe { wide_text(name) };
        recorder::record_unbound_event(EventCall::Marker(text));
    }
    if let Some(f) = real(2) {
        // SAFETY: the real `D3DPERF_SetMarker`, with the program's arguments.
        unsafe { std::mem::transmute::<usize, SetMarkerFn>(f)(color, name) }
    }
}
