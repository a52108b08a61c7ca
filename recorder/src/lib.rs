//! `d3d11.dll`, Iridia's recorder: a proxy for the system's Direct3D 11 runtime that a user drops beside a program's
//! executable. It loads the real `d3d11.dll` from the system directory, forwards every export to it, and hooks the
//! devices, contexts, DXGI factories and swap chains the program gets by patching their vtables in place. From the
//! start it keeps, cheaply, what cannot be queried later (each shader's DXBC, each input layout's elements); when a
//! capture is triggered (a frame number, a trigger file, a key) it records every draw of that frame — the whole
//! draw state, the contents of what the draw reads, and each target before and after — as an Iridia capture
//! (`docs/capture-format.md`), written as it goes. `docs/recorder.md` says how to use it and what it costs.
//!
//! The recorder never changes what the program renders: it reads through its own staging copies, turns
//! predication off only around them, restores what it touches, and when anything fails it logs and passes the
//! call through. On targets other than Windows the crate is empty (the workspace builds and tests it on Linux).
//!
//! `unsafe` is unavoidable here — a DLL's exports, COM vtables, raw pointers the program hands over — and each
//! block says why it holds.

#![cfg_attr(not(windows), allow(unused))]

#[cfg(any(windows, test))]
mod config;
#[cfg(any(windows, test))]
mod layout;

#[cfg(windows)]
mod capture;
#[cfg(windows)]
mod context;
#[cfg(windows)]
mod convert;
#[cfg(windows)]
mod device;
#[cfg(windows)]
mod dxgi;
#[cfg(windows)]
mod event;
#[cfg(windows)]
mod exports;
#[cfg(windows)]
mod job;
#[cfg(windows)]
mod log;
#[cfg(windows)]
mod msaa;
#[cfg(windows)]
mod perf_markers;
#[cfg(windows)]
mod private_data;
#[cfg(windows)]
mod probe;
#[cfg(windows)]
mod readback;
#[cfg(windows)]
mod recorder;
#[cfg(windows)]
mod stream_out;
#[cfg(windows)]
mod vtable;
