//! Primitive assembly (8.10 to 8.17): the vertices a draw's instance shades, each once, and the points, lines or
//! triangles they form, with their primitive IDs. The same for every instance (8.4's and 8.6's pseudocode restart the topology at each
//! instance and 8.17 restarts the primitive ID).

use crate::api::enums::PrimitiveTopology;

/// The marker of a strip cut in an assembled index stream (no vertex slot reaches it).
const CUT: u32 = u32::MAX;

/// How many of the latest vertex slots primitive assembly keeps.
const RECENT: usize = 10;

/// The most vertices a geometry program's input primitive has: a patch of 32 control points (13.10, 22.3.6).
pub const MAX_GEOMETRY_INPUT_VERTICES: usize = 32;

/// A geometry program invocation's input primitive (13.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GeometryInput {
    /// The primitive: its `SV_PrimitiveID`, its vertices leading vertex first (a patch's first control point three
    /// times, as a point).
    pub primitive: Primitive,
    /// The vertex slots the program reads as `v[0]`, `v[1]`...; the first [`GeometryInput::count`] are its.
    pub vertices: [u32; MAX_GEOMETRY_INPUT_VERTICES],
    /// How many vertices it has.
    pub count: usize,
}

/// The topologies Iridia assembles (8.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Topology {
    /// One vertex a point.
    PointList,
    /// Two vertices a line.
    LineList,
    /// Each vertex after the first makes a line with the one before it.
    LineStrip,
    /// Four vertices a line: the line's at 1, 2 and the adjacent ones at 0, 3 (dropped).
    LineListAdj,
    /// A strip over the vertices but the first and the last, which are adjacent (dropped).
    LineStripAdj,
    /// Three vertices a triangle.
    TriangleList,
    /// Each vertex after the second makes a triangle with the two before it, every other one wound the other way.
    TriangleStrip,
    /// Six vertices a triangle: the triangle's at 0, 2, 4 and the adjacent ones at 1, 3, 5 (dropped).
    TriangleListAdj,
    /// A strip over the even vertices, the odd ones adjacent (dropped).
    TriangleStripAdj,
    /// Patches of 1 to 32 control points (8.10), read with [`Primitives::next_patch`] for the hull program or
    /// [`Primitives::next_for_geometry`] without tessellation (11.8.1); the primitive walk itself gives none.
    PatchList(u8),
}

/// What a topology's primitives are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub enum PrimitiveKind {
    /// Points: [`Primitive::vertices`] repeats the one vertex.
    Point,
    /// Lines: [`Primitive::vertices`] is the start, the end, and the end again.
    Line,
    /// Triangles.
    #[default]
    Triangle,
}

impl PrimitiveKind {
    /// The kind's name in lower case (`point`, `line`, `triangle`).
    pub fn name(self) -> &'static str {
        match self {
            PrimitiveKind::Point => "point",
            PrimitiveKind::Line => "line",
            PrimitiveKind::Triangle => "triangle",
        }
    }
}

impl Topology {
    /// The topology `topology` is, or why Iridia does not assemble it.
    pub fn of(topology: PrimitiveTopology) -> Result<Self, String> {
        match topology {
            PrimitiveTopology::PointList => Ok(Self::PointList),
            PrimitiveTopology::LineList => Ok(Self::LineList),
            PrimitiveTopology::LineStrip => Ok(Self::LineStrip),
            PrimitiveTopology::LineListAdj => Ok(Self::LineListAdj),
            PrimitiveTopology::LineStripAdj => Ok(Self::LineStripAdj),
            PrimitiveTopology::TriangleList => Ok(Self::TriangleList),
            PrimitiveTopology::TriangleStrip => Ok(Self::TriangleStrip),
            PrimitiveTopology::TriangleListAdj => Ok(Self::TriangleListAdj),
            PrimitiveTopology::TriangleStripAdj => Ok(Self::TriangleStripAdj),
            PrimitiveTopology::Undefined => Err("no primitive topology is set".to_owned()),
            // D3D11_PRIMITIVE_TOPOLOGY_1_CONTROL_POINT_PATCHLIST is 33, each count one more
            other => match other.value().checked_sub(32).and_then(|n| u8::try_from(n).ok()) {
                Some(points @ 1..=32) => Ok(Self::PatchList(points)),
                _ => Err(format!("the topology {topology} is not one Iridia assembles")),
            },
        }
    }

    /// Control points of each patch, for a patch list.
    pub fn control_points(self) -> Option<u8> {
        match self {
            Self::PatchList(points) => Some(points),
            _ => None,
        }
    }

    /// What its primitives are.
    pub fn kind(self) -> PrimitiveKind {
        match self {
            Self::PointList => PrimitiveKind::Point,
            Self::LineList | Self::LineStrip | Self::LineListAdj | Self::LineStripAdj => PrimitiveKind::Line,
            Self::TriangleList | Self::TriangleStrip | Self::TriangleListAdj | Self::TriangleStripAdj => {
                PrimitiveKind::Triangle
            }
            // what reaches the rasterizer is the tessellator's; a patch list's own kind is never drawn
            Self::PatchList(_) => PrimitiveKind::Point,
        }
    }
}

/// The vertices of one instance, each shaded once, in the order they are first used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Vertices {
    /// `Draw*`: vertex `i` of `count` is the `i`-th read; its `SV_VertexID` is `i`.
    Sequential {
        /// How many.
        count: u32,
    },
    /// `DrawIndexed*`: each distinct index value once; `SV_VertexID` is the value (8.16).
    Indexed {
        /// The index values, in order of first use.
        values: Vec<u32>,
    },
}

impl Vertices {
    /// How many vertices.
    pub fn len(&self) -> usize {
        match self {
            Vertices::Sequential { count } => *count as usize,
            Vertices::Indexed { values } => values.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `SV_VertexID` of vertex `slot` (8.16): its place for `Draw*` (from 0, whatever the start vertex), its index
    /// value for `DrawIndexed*` (without the base vertex).
    pub fn vertex_id(&self, slot: usize) -> Option<u32> {
        match self {
            Vertices::Sequential { count } => u32::try_from(slot).ok().filter(|&s| s < *count),
            Vertices::Indexed { values } => values.get(slot).copied(),
        }
    }
}

/// The assembled topology of one instance: the vertices and the stream of vertex slots (with cuts) the primitives
/// are made from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assembly {
    /// How the stream forms primitives.
    pub topology: Topology,
    /// The vertices.
    pub vertices: Vertices,
    /// For indexed draws, the slot in `vertices` of each index read, or [`CUT`]; for sequential draws `None` (the
    /// stream is `0..count`).
    stream: Option<Vec<u32>>,
}

impl Assembly {
    /// The assembly of a `Draw*` of `count` vertices.
    pub fn sequential(topology: Topology, count: u32) -> Self {
        Self {
            topology,
            vertices: Vertices::Sequential { count },
            stream: None,
        }
    }

    /// The assembly of a `DrawIndexed*` reading `indices` (each index value, cut values included), where `cut` is
    /// the format's strip cut value (8.12). Each distinct value other than `cut` becomes one vertex.
    pub fn indexed(topology: Topology, indices: impl ExactSizeIterator<Item = u32>, cut: u32) -> Self {
        let mut stream = Vec::with_capacity(indices.len());
        let mut values: Vec<u32> = Vec::new();
        let mut slot_of = std::collections::HashMap::new();
        for value in indices {
            if value == cut {
                stream.push(CUT);
                continue;
            }
            let slot = *slot_of.entry(value).or_insert_with(|| {
                values.push(value);
                u32::try_from(values.len().saturating_sub(1)).unwrap_or(CUT)
            });
            stream.push(slot);
        }
        Self {
            topology,
            vertices: Vertices::Indexed { values },
            stream: Some(stream),
        }
    }

    /// Vertices read by the input assembler (cuts not counted): what `IAVertices` counts for one instance.
    pub fn vertices_read(&self) -> u64 {
        match &self.stream {
            Some(stream) => stream.iter().filter(|&&s| s != CUT).count() as u64,
            None => self.vertices.len() as u64,
        }
    }

    /// The stream entry at `position`: a vertex slot or [`CUT`].
    fn entry(&self, position: usize) -> Option<u32> {
        match &self.stream {
            Some(stream) => stream.get(position).copied(),
            None => u32::try_from(position).ok().filter(|_| position < self.vertices.len()),
        }
    }

    /// The primitives, in order, with their primitive IDs.
    pub fn primitives(&self) -> Primitives<'_> {
        Primitives {
            assembly: self,
            position: 0,
            recent: [0; RECENT],
            since_restart: 0,
            next_id: 0,
        }
    }
}

/// A point, line or triangle: its vertices (slots in the draw's [`Vertices`]) with the leading vertex (8.14) first and,
/// for a triangle, the winding of the topology's order; its `SV_PrimitiveID` (8.17) and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Primitive {
    /// The vertex slots, leading vertex first: a line's start, end, end; a point's one vertex three times.
    pub vertices: [u32; 3],
    /// The primitive ID: the count of primitives completed before it in the instance.
    pub id: u32,
    /// Point, line or triangle.
    pub kind: PrimitiveKind,
}

/// The primitives of one instance of a draw, made as the input assembler reads its vertex or index stream.
///
/// - A cut (8.12) restarts the topology: a partly read primitive is dropped (8.13), a strip starts over. Primitive
///   IDs go on counting across cuts (8.6.2).
/// - Points: each vertex is one. Lines: vertices `2k, 2k+1` make line `k` of a list; vertex `k + 1` completes line
///   `k` of `k, k+1` of a strip; with adjacency four vertices make a line of a list, its `1, 2`, and a strip's line
///   `k` is `k+1, k+2`, complete when vertex `k + 3` (its adjacent vertex) is read (8.10's figure). A line's leading
///   vertex is its first (8.14).
/// - Lists: vertices `3k, 3k+1, 3k+2` make triangle `k` (after a restart, counting from it); with adjacency six do,
///   and the triangle is their `0, 2, 4` (8.10's figure).
/// - Strips: vertex `k + 2` completes triangle `k` of vertices `k, k+1, k+2`; an odd `k` is wound the other way,
///   so that every triangle of a strip faces the same way, and written `k, k+2, k+1`, which keeps the leading vertex
///   `k` first (8.14) and is a rotation of the `k+1, k, k+2` order of the figure.
/// - Strips with adjacency: triangle `k` is vertices `2k, 2k+2, 2k+4` (odd ones written `2k, 2k+4, 2k+2`), complete
///   when vertex `2k+5` is read, so a strip of `n` vertices has `(n - 4) / 2` triangles when `n` is 6 or more (the
///   count of 8.4.2's pseudocode, whose last triangle it finishes at the strip's end).
pub struct Primitives<'a> {
    assembly: &'a Assembly,
    /// The next stream position.
    position: usize,
    /// The last vertex slots since the restart, newest last (a triangle strip with adjacency's geometry-program
    /// input looks ten back).
    recent: [u32; RECENT],
    /// Vertices read since the last restart.
    since_restart: usize,
    /// The next primitive ID.
    next_id: u32,
}

impl Primitives<'_> {
    /// The next input primitive of a geometry program (13.10): the primitive (its ID, its vertices leading vertex
    /// first) and the vertex slots `v[0]`, `v[1]`... in the order the figures of 13.10 give them: one for a point,
    /// two for a line, three for a triangle (in the order the rasterizer takes them), four for a line with adjacency
    /// and six for a triangle with adjacency (a list's in stream order; a line strip's line `k` is vertices
    /// `k..k+3`; a triangle strip's as [`Primitives::next_strip_with_adjacency`] says), and a patch's control
    /// points (11.8.1.1: without tessellation a patch is one input primitive). `None` at the end.
    pub fn next_for_geometry(&mut self) -> Option<GeometryInput> {
        let mut vertices = [0u32; MAX_GEOMETRY_INPUT_VERTICES];
        if let Some(points) = self.assembly.topology.control_points() {
            let id = self.read_patch(usize::from(points), |k, slot| {
                if let Some(v) = vertices.get_mut(k) {
                    *v = slot;
                }
            })?;
            let [first, ..] = vertices;
            let primitive = Primitive {
                vertices: [first; 3],
                id,
                kind: PrimitiveKind::Point,
            };
            return Some(GeometryInput {
                primitive,
                vertices,
                count: usize::from(points),
            });
        }
        if self.assembly.topology == Topology::TriangleStripAdj {
            return self.next_strip_with_adjacency();
        }
        let primitive = self.next()?;
        let [.., r2, r3, r4, r5] = self.recent;
        let [r0, r1] = [self.recent_at(5), self.recent_at(4)];
        let [a, b, c] = primitive.vertices;
        let (given, count): ([u32; 6], usize) = match self.assembly.topology {
            Topology::PointList => ([a; 6], 1),
            Topology::LineList | Topology::LineStrip => ([a, b, b, b, b, b], 2),
            // a line strip's line k with adjacency is vertices k..k+3, as a list's four (8.10's figure)
            Topology::LineListAdj | Topology::LineStripAdj => ([r2, r3, r4, r5, r5, r5], 4),
            Topology::TriangleListAdj => ([r0, r1, r2, r3, r4, r5], 6),
            _ => ([a, b, c, c, c, c], 3),
        };
        for (v, g) in vertices.iter_mut().zip(given) {
            *v = g;
        }
        Some(GeometryInput {
            primitive,
            vertices,
            count,
        })
    }

    /// The slot `back` vertices before the newest read since the restart (0 the newest).
    fn recent_at(&self, back: usize) -> u32 {
        RECENT
            .checked_sub(back.saturating_add(1))
            .and_then(|i| self.recent.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// The next triangle of a triangle strip with adjacency as a geometry program takes it (13.10's figures "GS
    /// invocations from TriStrip w/Adjacency" and its incomplete twin). Triangle `k` of a strip is vertices `2k`,
    /// `2k+2`, `2k+4`; the six are the leading vertex and then the others around the triangle in its winding:
    /// `2k, A, 2k+2, B, 2k+4, 2k+3` for an even `k` and `2k, 2k+3, 2k+4, B, 2k+2, 2k-2` for an odd one, where `A` is
    /// `2k-2` (vertex 1 for the first triangle) and `B` is `2k+6`, the next triangle's vertex (vertex `2k+5` for the
    /// strip's last triangle). So triangle `k` is known once vertex `2k+7` is read, or, for the last, at the cut or
    /// the end; a strip of `n` vertices has `(n - 4) / 2` triangles (rounded down: a dangling odd vertex belongs to
    /// none).
    fn next_strip_with_adjacency(&mut self) -> Option<GeometryInput> {
        loop {
            let Some(entry) = self.assembly.entry(self.position) else {
                // the end: the strip's last triangle, once
                let last = self.strip_adjacency_triangle(true);
                self.since_restart = 0;
                return last;
            };
            self.position = self.position.saturating_add(1);
            if entry == CUT {
                let last = self.strip_adjacency_triangle(true);
                self.since_restart = 0;
                match last {
                    Some(input) => return Some(input),
                    None => continue,
                }
            }
            self.recent.rotate_left(1);
            if let Some(newest) = self.recent.last_mut() {
                *newest = entry;
            }
            self.since_restart = self.since_restart.saturating_add(1);
            let n = self.since_restart;
            // vertex 2k+7 read: triangle k = (n - 8) / 2 is complete and not the last
            if n >= 8 && n.is_multiple_of(2) {
                return self.strip_adjacency_triangle(false);
            }
        }
    }

    /// Triangle `k` of the strip with adjacency read so far (see [`Primitives::next_strip_with_adjacency`]): the
    /// strip's last (`last`, at a cut or the end: `k = (n - 4) / 2 - 1`), or the one vertex `n - 1 = 2k + 7`
    /// completes. `None` when the strip has no such triangle.
    fn strip_adjacency_triangle(&mut self, last: bool) -> Option<GeometryInput> {
        let n = self.since_restart;
        let k = if last {
            (n.checked_sub(4)? / 2).checked_sub(1)?
        } else {
            n.checked_sub(8)? / 2
        };
        // vertex i of the strip is `n - 1 - i` back from the newest
        let at = |i: usize| {
            n.checked_sub(i.saturating_add(1))
                .map_or(0, |back| self.recent_at(back))
        };
        let first = k.saturating_mul(2);
        let from_first = |d: usize| at(first.saturating_add(d));
        let before = if k == 0 { at(1) } else { at(first.saturating_sub(2)) };
        let next = from_first(if last { 5 } else { 6 });
        let given = if k.is_multiple_of(2) {
            [from_first(0), before, from_first(2), next, from_first(4), from_first(3)]
        } else {
            [from_first(0), from_first(3), from_first(4), next, from_first(2), before]
        };
        let [v0, _, v2, _, v4, _] = given;
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        let primitive = Primitive {
            vertices: [v0, v2, v4],
            id,
            kind: PrimitiveKind::Triangle,
        };
        let mut vertices = [0u32; MAX_GEOMETRY_INPUT_VERTICES];
        for (v, g) in vertices.iter_mut().zip(given) {
            *v = g;
        }
        Some(GeometryInput {
            primitive,
            vertices,
            count: 6,
        })
    }
}

impl Primitives<'_> {
    /// The next patch of a patch list (8.10): its control points' vertex slots into `points` (cleared first) and its
    /// `SV_PrimitiveID` (8.17, counting patches); `None` at the end or for another topology. A cut (8.12) drops a
    /// partly read patch, as it drops a partly read list primitive.
    pub fn next_patch(&mut self, points: &mut Vec<u32>) -> Option<u32> {
        let count = usize::from(self.assembly.topology.control_points()?);
        points.clear();
        self.read_patch(count, |k, slot| {
            points.truncate(k);
            points.push(slot);
        })
    }

    /// Reads the next patch of `count` control points, giving each control point's place and slot to `put` (a cut
    /// starts the patch over: places count from 0 again); its `SV_PrimitiveID`, or `None` at the end.
    fn read_patch(&mut self, count: usize, mut put: impl FnMut(usize, u32)) -> Option<u32> {
        let mut read = 0usize;
        loop {
            let entry = self.assembly.entry(self.position)?;
            self.position = self.position.saturating_add(1);
            if entry == CUT {
                read = 0;
                continue;
            }
            put(read, entry);
            read = read.saturating_add(1);
            if read >= count {
                let id = self.next_id;
                self.next_id = self.next_id.wrapping_add(1);
                return Some(id);
            }
        }
    }
}

impl Iterator for Primitives<'_> {
    type Item = Primitive;

    fn next(&mut self) -> Option<Primitive> {
        if self.assembly.topology.control_points().is_some() {
            return None;
        }
        loop {
            let entry = self.assembly.entry(self.position)?;
            self.position = self.position.saturating_add(1);
            if entry == CUT {
                self.since_restart = 0;
                continue;
            }
            self.recent.rotate_left(1);
            if let Some(newest) = self.recent.last_mut() {
                *newest = entry;
            }
            self.since_restart = self.since_restart.saturating_add(1);
            let [.., r2, r3, r4, r5] = self.recent;
            let r0 = self.recent_at(5);
            let n = self.since_restart;
            let vertices = match self.assembly.topology {
                Topology::PointList => {
                    self.since_restart = 0;
                    [r5, r5, r5]
                }
                Topology::LineList if n == 2 => {
                    self.since_restart = 0;
                    [r4, r5, r5]
                }
                Topology::LineStrip if n >= 2 => [r4, r5, r5],
                Topology::LineListAdj if n == 4 => {
                    self.since_restart = 0;
                    [r3, r4, r4]
                }
                // line k = n - 4 of r3, r4 (vertices k+1, k+2), done when its adjacent vertex k+3 is read
                Topology::LineStripAdj if n >= 4 => [r3, r4, r4],
                Topology::TriangleList if n == 3 => {
                    self.since_restart = 0;
                    [r3, r4, r5]
                }
                Topology::TriangleListAdj if n == 6 => {
                    self.since_restart = 0;
                    [r0, r2, r4]
                }
                // triangle k = n - 3 of r3, r4, r5; odd ones reversed with the leading vertex kept first
                Topology::TriangleStrip if n >= 3 => {
                    if n.wrapping_sub(3).is_multiple_of(2) {
                        [r3, r4, r5]
                    } else {
                        [r3, r5, r4]
                    }
                }
                // triangle k = (n - 6) / 2 of r0, r2, r4 (vertices 2k, 2k+2, 2k+4), done when n is even
                Topology::TriangleStripAdj if n >= 6 && n.is_multiple_of(2) => {
                    if (n.wrapping_sub(6) / 2).is_multiple_of(2) {
                        [r0, r2, r4]
                    } else {
                        [r0, r4, r2]
                    }
                }
                _ => continue,
            };
            let id = self.next_id;
            self.next_id = self.next_id.wrapping_add(1);
            let kind = self.assembly.topology.kind();
            return Some(Primitive { vertices, id, kind });
        }
    }
}
