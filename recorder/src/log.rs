//! The recorder's log: a text file (by default `iridia-recorder.log` beside the executable), one line per event,
//! each with the milliseconds since the recorder started. Failures are logged, never raised into the program.

use std::fs::File;
use std::io::Write;
use std::sync::Mutex;
use std::sync::OnceLock;
use std::time::Instant;

/// The open log file and the recorder's start time.
struct Log {
    file: Mutex<Option<File>>,
    start: Instant,
}

static LOG: OnceLock<Log> = OnceLock::new();

/// Opens the log at `path` (appending). Later calls do nothing.
pub fn open(path: &std::path::Path) {
    let file = std::fs::OpenOptions::new().create(true).append(true).open(path).ok();
    let _ = LOG.set(Log {
        file: Mutex::new(file),
        start: Instant::now(),
    });
}

/// Writes one line to the log, if it is open.
pub fn write(line: std::fmt::Arguments<'_>) {
    let Some(log) = LOG.get() else { return };
    let elapsed = log.start.elapsed().as_secs_f64() * 1000.0;
    if let Ok(mut file) = log.file.lock()
        && let Some(file) = file.as_mut()
    {
        let _ = writeln!(file, "[{elapsed:10.1} ms] {line}");
        let _ = file.flush();
    }
}

/// Logs a formatted line.
macro_rules! log {
    ($($arg:tt)*) => { $crate::log::write(format_args!($($arg)*)) };
}
pub(crate) use log;
