//! The frame's outline (version 1.5): its draws, resolves and dispatches in the frame's order, with the program's own
//! markers as a tree around them and its clears, copies and updates between them, as a flat list of rows in
//! pre-order (each with its depth), the shape an event browser shows and a virtualised list scrolls through.
//!
//! - A `begin` event opens a group whose rows follow it one level deeper, up to the matching `end`; an `end` with no
//!   open group is ignored; groups still open at the frame's end close there (a frame recorded in the middle of a
//!   region). Groups nest at most [`MAX_DEPTH`] deep: deeper `begin`s are rows of their own, not groups.
//! - An event comes right before the first draw, resolve or dispatch that did not come before it (its
//!   `before_draw`, `before_resolve`, `before_dispatch`), events at one place in the manifest's order.
//! - The events are checked when the capture is opened ([`check_events`]): at most [`MAX_EVENTS`], their counts
//!   within the capture's and never going back, texts at most [`MAX_NAME_CHARS`] characters. A capture whose events
//!   do not check out still opens, without its events (the problem is reported).

use super::manifest::{EventEntry, Manifest};
use crate::{Error, Result};

/// The most events a capture may list.
pub const MAX_EVENTS: usize = 1 << 20;

/// The deepest markers nest as groups.
pub const MAX_DEPTH: u32 = 32;

/// The longest marker or call text, in characters.
pub const MAX_NAME_CHARS: usize = 1024;

/// One call of the frame a capture holds, by its index in its list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FrameEvent {
    /// Draw `n` of `draws`.
    Draw(usize),
    /// Resolve `n` of `resolves` (version 1.2).
    Resolve(usize),
    /// Dispatch `n` of `dispatches` (version 1.3).
    Dispatch(usize),
}

/// What a row of the outline is.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "index")]
pub enum OutlineKind {
    /// A marker region (`BeginEvent` .. `EndEvent`): the rows after it up to `end` (exclusive) are inside it.
    Group {
        /// The index of the first row after the group.
        end: usize,
    },
    /// Draw `n` of the capture.
    Draw(usize),
    /// Resolve `n`.
    Resolve(usize),
    /// Dispatch `n`.
    Dispatch(usize),
    /// A point marker (`SetMarker`).
    Marker,
    /// A clear, copy, update or other call (its event kind).
    Call(String),
}

/// One row of the outline.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct OutlineRow {
    /// How many groups it is in.
    pub depth: u32,
    /// What it is.
    #[serde(flatten)]
    pub kind: OutlineKind,
    /// The marker's or call's text (empty for draws, resolves and dispatches, which callers name).
    pub text: String,
}

/// The frame's outline: its rows in pre-order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outline {
    /// The rows.
    pub rows: Vec<OutlineRow>,
}

impl Outline {
    /// The marker path of each of `draw_count` draws: the texts of the groups it is in, outermost first.
    pub fn draw_paths(&self, draw_count: usize) -> Vec<Vec<String>> {
        let mut paths = vec![Vec::new(); draw_count];
        let mut open: Vec<(usize, &str)> = Vec::new();
        for (i, row) in self.rows.iter().enumerate() {
            while open.last().is_some_and(|(end, _)| *end <= i) {
                open.pop();
            }
            match &row.kind {
                OutlineKind::Group { end } => open.push((*end, &row.text)),
                OutlineKind::Draw(n) => {
                    if let Some(path) = paths.get_mut(*n) {
                        *path = open.iter().map(|(_, text)| (*text).to_owned()).collect();
                    }
                }
                _ => {}
            }
        }
        paths
    }

    /// Whether the frame has markers (any group or point marker).
    pub fn has_markers(&self) -> bool {
        self.rows
            .iter()
            .any(|r| matches!(r.kind, OutlineKind::Group { .. } | OutlineKind::Marker))
    }
}

/// Checks `manifest`'s events: at most [`MAX_EVENTS`], each within the capture's draws, resolves and dispatches and
/// not before the one listed before it, each text at most [`MAX_NAME_CHARS`] characters.
pub fn check_events(manifest: &Manifest) -> Result<()> {
    let events = &manifest.events;
    if events.len() > MAX_EVENTS {
        return Err(Error::new("capture", format!("{} events: at most {MAX_EVENTS}", events.len())).at("events"));
    }
    let totals = [
        manifest.draws.len() as u64,
        manifest.resolves.len() as u64,
        manifest.dispatches.len() as u64,
    ];
    let mut earliest = [0u64; 3];
    for (i, event) in events.iter().enumerate() {
        let at = || format!("events[{i}]");
        let counts = [event.before_draw, event.before_resolve, event.before_dispatch];
        for ((name, count), (total, first)) in ["draws", "resolves", "dispatches"]
            .iter()
            .zip(counts)
            .zip(totals.iter().zip(earliest.iter_mut()))
        {
            if count > *total {
                return Err(
                    Error::new("capture", format!("{count} {name} before it: the capture has {total}")).at(at()),
                );
            }
            if count < *first {
                return Err(Error::new(
                    "capture",
                    format!(
                        "{count} {name} before it, fewer than before the event listed before it ({first}): events are \
                         listed in the frame's order"
                    ),
                )
                .at(at()));
            }
            *first = count;
        }
        if event.name.as_ref().is_some_and(|n| n.chars().count() > MAX_NAME_CHARS) {
            return Err(Error::new(
                "capture",
                format!("its text is longer than {MAX_NAME_CHARS} characters"),
            )
            .at(at()));
        }
    }
    Ok(())
}

/// Builds the outline of `frame` (the draws, resolves and dispatches in order, [`super::Capture::events`]) with
/// `events` (checked by [`check_events`]) among them.
pub fn outline(frame: &[FrameEvent], events: &[EventEntry]) -> Outline {
    let mut builder = Builder::default();
    let mut pending = events.iter().peekable();
    for item in frame {
        // every event that does not come after `item`: its count for `item`'s kind is at most `item`'s index
        let (kind, index) = match *item {
            FrameEvent::Draw(i) => (0, i),
            FrameEvent::Resolve(i) => (1, i),
            FrameEvent::Dispatch(i) => (2, i),
        };
        let index = index as u64;
        while let Some(event) = pending.next_if(|e| {
            let count = [e.before_draw, e.before_resolve, e.before_dispatch];
            count.get(kind).is_some_and(|c| *c <= index)
        }) {
            builder.event(event);
        }
        builder.push(
            match *item {
                FrameEvent::Draw(i) => OutlineKind::Draw(i),
                FrameEvent::Resolve(i) => OutlineKind::Resolve(i),
                FrameEvent::Dispatch(i) => OutlineKind::Dispatch(i),
            },
            String::new(),
        );
    }
    for event in pending {
        builder.event(event);
    }
    builder.finish()
}

/// The outline under construction: its rows and the groups still open (their rows' indices).
#[derive(Default)]
struct Builder {
    rows: Vec<OutlineRow>,
    open: Vec<usize>,
    /// `begin`s past [`MAX_DEPTH`] not yet ended (their `end`s end nothing).
    too_deep: u32,
}

impl Builder {
    fn depth(&self) -> u32 {
        u32::try_from(self.open.len()).unwrap_or(u32::MAX)
    }

    fn push(&mut self, kind: OutlineKind, text: String) {
        let depth = self.depth();
        self.rows.push(OutlineRow { depth, kind, text });
    }

    fn event(&mut self, event: &EventEntry) {
        let text = event.name.clone().unwrap_or_default();
        match event.kind.as_str() {
            "begin" if self.depth() >= MAX_DEPTH => {
                self.too_deep = self.too_deep.saturating_add(1);
                self.push(OutlineKind::Marker, text);
            }
            "begin" => {
                let start = self.rows.len();
                self.push(OutlineKind::Group { end: 0 }, text);
                self.open.push(start);
            }
            "end" if self.too_deep > 0 => self.too_deep = self.too_deep.saturating_sub(1),
            "end" => self.close(),
            "marker" => self.push(OutlineKind::Marker, text),
            other => {
                let kind = other.to_owned();
                self.push(OutlineKind::Call(kind), text);
            }
        }
    }

    /// Closes the innermost open group (nothing when none is open).
    fn close(&mut self) {
        if let Some(start) = self.open.pop() {
            let end = self.rows.len();
            if let Some(OutlineRow {
                kind: OutlineKind::Group { end: group_end },
                ..
            }) = self.rows.get_mut(start)
            {
                *group_end = end;
            }
        }
    }

    fn finish(mut self) -> Outline {
        while !self.open.is_empty() {
            self.close();
        }
        Outline { rows: self.rows }
    }
}
