//! Hooks by patching COM vtables in place: a slot of an object's vtable is made to point at a hook, and the
//! function it held is kept, per vtable, for the hook to call. Every object of the same class shares its vtable,
//! so one patch hooks them all, whichever path the program took to the object (an out-parameter,
//! `GetImmediateContext`, `QueryInterface`, a resource's `GetDevice`). Wrapper objects would leak the real object
//! through those paths; patched vtables cannot.
//!
//! Slot numbers come from the `windows` crate's `*_Vtbl` structs ([`slot!`]), never typed by hand. A slot that
//! already holds the hook is left alone, so patching is idempotent and several interface versions of one object
//! that share a vtable are patched once.

use crate::log::log;
use std::ffi::c_void;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use windows::Win32::System::Memory::{PAGE_PROTECTION_FLAGS, PAGE_READWRITE, VirtualProtect};

/// The slot of field `$field` in vtable struct `$vtbl`: its byte offset over the size of a pointer.
macro_rules! slot {
    ($vtbl:ty, $field:ident) => {
        ::core::mem::offset_of!($vtbl, $field) / ::core::mem::size_of::<usize>()
    };
}
pub(crate) use slot;

/// The original of `$table` for `$this` as `$fn_type`; returns from the hook (with `$fail`, if given) if none was
/// recorded.
macro_rules! original {
    ($table:ident, $this:expr, $fn_type:ty) => {{
        // SAFETY: `$this` is the object the hooked slot was called on, a COM object.
        let address = unsafe { $table.get($this) };
        if address == 0 {
            return;
        }
        // SAFETY: the table holds what the hooked slot held, a function of this slot's signature.
        unsafe { std::mem::transmute::<usize, $fn_type>(address) }
    }};
    ($table:ident, $this:expr, $fn_type:ty, $fail:expr) => {{
        // SAFETY: `$this` is the object the hooked slot was called on, a COM object.
        let address = unsafe { $table.get($this) };
        if address == 0 {
            return $fail;
        }
        // SAFETY: the table holds what the hooked slot held, a function of this slot's signature.
        unsafe { std::mem::transmute::<usize, $fn_type>(address) }
    }};
}
pub(crate) use original;

/// The most distinct vtables one hooked slot tracks (a runtime has one or two per class; layers add a few).
const MAX_VTABLES: usize = 16;

/// The original functions of one hooked slot, by vtable: read without locks on every call.
pub struct Originals {
    /// (vtable address, original function) pairs; a pair is valid once its vtable is non-zero.
    entries: [(AtomicUsize, AtomicUsize); MAX_VTABLES],
    /// Serializes the patching.
    lock: Mutex<()>,
}

impl Originals {
    /// An empty table.
    pub const fn new() -> Self {
        Self {
            entries: [const { (AtomicUsize::new(0), AtomicUsize::new(0)) }; MAX_VTABLES],
            lock: Mutex::new(()),
        }
    }

    /// The original function for the object `this`: the one its vtable held, or, for an object whose vtable was
    /// not patched through this table (a copy made by another hooking layer), the first one recorded.
    ///
    /// # Safety
    /// `this` must point at a COM object (its first word is its vtable).
    pub unsafe fn get(&self, this: *mut c_void) -> usize {
        // SAFETY: the caller's contract: `this` is a COM object, whose first word is its vtable pointer.
        let vtable = unsafe { *(this as *const usize) };
        let mut first = 0;
        for (table, original) in &self.entries {
            let table = table.load(Ordering::Acquire);
            if table == 0 {
                break;
            }
            let original = original.load(Ordering::Relaxed);
            if first == 0 {
                first = original;
            }
            if table == vtable {
                return original;
            }
        }
        first
    }

    /// Points slot `slot` of the vtable of `object` at `hook`, keeping what it held. Returns whether the slot is
    /// hooked now.
    ///
    /// # Safety
    /// `object` must be a live COM object whose vtable has more than `slot` entries, and `hook` a function of the
    /// slot's signature.
    pub unsafe fn patch(&self, object: *mut c_void, slot: usize, hook: usize, name: &str) -> bool {
        let Ok(_guard) = self.lock.lock() else { return false };
        // SAFETY: the caller's contract: `object` is a live COM object.
        let vtable = unsafe { *(object as *const *mut usize) };
        // SAFETY: the caller's contract: the vtable has more than `slot` entries.
        let entry = unsafe { vtable.add(slot) };
        // SAFETY: `entry` is within the vtable, readable as it is in use.
        let current = unsafe { entry.read_volatile() };
        if current == hook {
            return true;
        }
        let Some(free) = self
            .entries
            .iter()
            .find(|(table, _)| table.load(Ordering::Acquire) == 0)
        else {
            log!("{name}: more than {MAX_VTABLES} vtables; this one is not hooked");
            return false;
        };
        // SAFETY: `entry` is a pointer-aligned slot of a vtable in use, so mapped.
        let writable = match unsafe { WritableSlot::new(entry) } {
            Ok(writable) => writable,
            Err(e) => {
                log!("{name}: VirtualProtect failed ({e}); not hooked");
                return false;
            }
        };
        free.1.store(current, Ordering::Relaxed);
        free.0.store(vtable as usize, Ordering::Release);
        // another thread reading the slot sees the old or the new function, both of which work (the hook finds the
        // original just recorded)
        writable.write(hook);
        drop(writable);
        log!("hooked {name} (vtable {:#x} slot {slot})", vtable as usize);
        true
    }
}

/// A pointer-sized slot of mapped memory (a vtable entry, an import-table slot) made writable: its page's protection
/// is put back when this is dropped.
pub(crate) struct WritableSlot {
    address: *mut usize,
    old: PAGE_PROTECTION_FLAGS,
}

impl WritableSlot {
    /// Makes the slot at `address` writable (`VirtualProtect`, for one pointer's bytes).
    ///
    /// # Safety
    /// `address` must be a pointer-aligned slot of mapped memory, and nothing else may write it while this lives.
    pub(crate) unsafe fn new(address: *mut usize) -> windows::core::Result<WritableSlot> {
        let mut old = PAGE_PROTECTION_FLAGS(0);
        // SAFETY: the caller's contract: `address` is mapped; only its protection changes.
        unsafe { VirtualProtect(address as *const c_void, size_of::<usize>(), PAGE_READWRITE, &mut old) }?;
        Ok(WritableSlot { address, old })
    }

    /// Stores `value` in the slot in one aligned write: a thread reading it at the same time sees the old or the new
    /// value, never half of each.
    pub(crate) fn write(&self, value: usize) {
        // SAFETY: `new`'s contract: the slot is pointer-aligned and mapped, and writable until drop.
        unsafe { AtomicUsize::from_ptr(self.address) }.store(value, Ordering::Release);
    }
}

impl Drop for WritableSlot {
    fn drop(&mut self) {
        let mut ignored = PAGE_PROTECTION_FLAGS(0);
        // SAFETY: as in `new`: the slot's page gets back the protection it had.
        let _ = unsafe {
            VirtualProtect(
                self.address as *const c_void,
                size_of::<usize>(),
                self.old,
                &mut ignored,
            )
        };
    }
}

/// Declares a hooked slot: a static [`Originals`] table named `$table` and a function type `$fn_type` for the
/// originals, `unsafe extern "system" fn(this, $args) -> $ret`.
macro_rules! hooked_slot {
    ($table:ident, $fn_type:ident, ($($arg:ty),*) $(-> $ret:ty)?) => {
        static $table: $crate::vtable::Originals = $crate::vtable::Originals::new();
        type $fn_type = unsafe extern "system" fn(*mut ::core::ffi::c_void $(, $arg)*) $(-> $ret)?;
    };
}
pub(crate) use hooked_slot;
