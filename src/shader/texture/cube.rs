//! TextureCube addressing: the face a direction points at and its 2D coordinates (7.18.7, 5.3.8), the derivative
//! transform into that face (7.18.11), and filter taps that fall off a face (7.18.12).
//!
//! Faces are numbered as D3D stores them: +X, -X, +Y, -Y, +Z, -Z. On each face the coordinates `(sc, tc)` run as
//! D3D's cube layout has them (texel (0, 0) of +X looks along (1, 1, 1)): +X (-z, -y), -X (+z, -y), +Y (+x, +z),
//! -Y (+x, -z), +Z (+x, -y), -Z (-x, -y); `u = sc / |major| * 0.5 + 0.5`, `v = tc / |major| * 0.5 + 0.5`.

/// How a face lays out its coordinates: the 3D axis (0 = x, 1 = y, 2 = z) and sign of its major axis, `sc` and `tc`.
#[derive(Clone, Copy, Debug)]
struct FaceAxes {
    /// The major axis and the sign of the face's direction along it.
    major: (usize, i64),
    /// The axis `sc` reads and the sign it reads it with.
    s: (usize, i64),
    /// The axis `tc` reads and the sign it reads it with.
    t: (usize, i64),
}

/// The six faces' axes, in face order.
const FACES: [FaceAxes; 6] = [
    FaceAxes {
        major: (0, 1),
        s: (2, -1),
        t: (1, -1),
    },
    FaceAxes {
        major: (0, -1),
        s: (2, 1),
        t: (1, -1),
    },
    FaceAxes {
        major: (1, 1),
        s: (0, 1),
        t: (2, 1),
    },
    FaceAxes {
        major: (1, -1),
        s: (0, 1),
        t: (2, -1),
    },
    FaceAxes {
        major: (2, 1),
        s: (0, 1),
        t: (1, -1),
    },
    FaceAxes {
        major: (2, -1),
        s: (0, -1),
        t: (1, -1),
    },
];

/// A direction resolved to a face.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct FaceCoords {
    /// The face, 0..6.
    pub(super) face: u32,
    /// The face's 2D coordinate in [0, 1] (NaN for a zero or NaN direction).
    pub(super) uv: [f32; 2],
    /// `|major|`, the largest magnitude component.
    pub(super) axis_major: f32,
    /// The unprojected face coordinates `(sc, tc)` (`TC'.uv` of 7.18.11).
    pub(super) stc: [f32; 2],
    /// The major component's sign (1 or -1).
    pub(super) major_sign: f32,
    /// The major axis (0 = x .. 2 = z).
    pub(super) major_axis: usize,
}

/// The face axes of `face` (a face index from [`face_of`], always below 6).
fn axes(face: u32) -> FaceAxes {
    FACES.get(face as usize).copied().unwrap_or(FACES[0])
}

/// The component `axis` of a 3-vector (0 for an axis past z).
fn component(v: [f32; 3], axis: usize) -> f32 {
    v.get(axis).copied().unwrap_or(0.0)
}

/// 7.18.7: the face of the largest-magnitude component, ties going to Z, then Y, then X; a non-negative component
/// picks the positive face. The minor components selected and mirrored by the face's layout, divided by the
/// magnitude, mapped by `* 0.5 + 0.5`.
pub(super) fn face_of(direction: [f32; 3]) -> FaceCoords {
    let [x, y, z] = direction.map(f32::abs);
    let major_axis = if z >= y && z >= x {
        2
    } else if y >= x {
        1
    } else {
        0
    };
    let value = component(direction, major_axis);
    let negative = value < 0.0 || (value == 0.0 && value.is_sign_negative());
    let face = (major_axis as u32).wrapping_mul(2).wrapping_add(u32::from(negative));
    let layout = axes(face);
    let axis_major = value.abs();
    let read = |(axis, sign): (usize, i64)| component(direction, axis) * sign as f32;
    let stc = [read(layout.s), read(layout.t)];
    FaceCoords {
        face,
        uv: [stc[0] / axis_major * 0.5 + 0.5, stc[1] / axis_major * 0.5 + 0.5],
        axis_major,
        stc,
        major_sign: if negative { -1.0 } else { 1.0 },
        major_axis,
    }
}

/// 7.18.11's cube derivative transform: derivative vectors of the direction into derivatives of the face's
/// projected coordinate, `(|major| * d' - TC' * dMajor) / |major|^2`, with `d'` the derivative's minor components as
/// the face selects and mirrors them. `dMajor` is taken as the derivative of `|major|` (the major component's
/// derivative times its sign): the quotient rule for `sc / |major|`; on the positive faces this is the spec's
/// "major axis component of the derivative" unchanged, on the negative ones the spec's words would flip the result's
/// sign of that term, which we take for an oversight.
pub(super) fn face_derivatives(coords: &FaceCoords, derivative: [f32; 3]) -> [f32; 2] {
    let layout = axes(coords.face);
    let read = |(axis, sign): (usize, i64)| component(derivative, axis) * sign as f32;
    let d_minor = [read(layout.s), read(layout.t)];
    let d_major = component(derivative, coords.major_axis) * coords.major_sign;
    let m = coords.axis_major;
    [
        (m * d_minor[0] - coords.stc[0] * d_major) / (m * m),
        (m * d_minor[1] - coords.stc[1] * d_major) / (m * m),
    ]
}

/// A texel of a cube's level: face and position on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CubeTexel {
    /// The face, 0..6.
    pub(super) face: u32,
    /// Column.
    pub(super) x: u32,
    /// Row.
    pub(super) y: u32,
}

/// The texel a filter tap at column `i`, row `j` of `face` (a level `size` texels square) reads, spilling one texel
/// off an edge onto the adjacent face's edge row or column (7.18.12); `None` for a corner, where no face has it.
///
/// The tap's centre is placed in 3D (in half-texel units, the cube spanning `[-size, size]`), pushed `d` past the
/// edge; folding it around the edge puts it `d` inside the adjacent face, whose layout then gives the texel.
pub(super) fn spill(face: u32, i: i64, j: i64, size: u32) -> Option<CubeTexel> {
    let n = i64::from(size);
    let inside = |v: i64| (0..n).contains(&v);
    if inside(i) && inside(j) {
        return Some(CubeTexel {
            face,
            x: u32::try_from(i).ok()?,
            y: u32::try_from(j).ok()?,
        });
    }
    if !inside(i) && !inside(j) {
        return None;
    }
    // Only one texel past an edge is ever asked for (bilinear taps of a coordinate inside the face).
    if i < -1 || i > n || j < -1 || j > n {
        return None;
    }
    let layout = axes(face);
    let half = |t: i64| t.wrapping_mul(2).wrapping_add(1).wrapping_sub(n);
    let (s, t) = (half(i), half(j));
    let mut point = [0i64; 3];
    let mut put = |(axis, sign): (usize, i64), value: i64| {
        if let Some(p) = point.get_mut(axis) {
            *p = value.wrapping_mul(sign);
        }
    };
    put(layout.major, n);
    put(layout.s, s);
    put(layout.t, t);
    // The coordinate past the edge, on which axis, and by how much.
    let (over_axis, over_value) = if inside(i) {
        (layout.t.0, t.wrapping_mul(layout.t.1))
    } else {
        (layout.s.0, s.wrapping_mul(layout.s.1))
    };
    let depth = over_value.abs().wrapping_sub(n);
    if let Some(p) = point.get_mut(over_axis) {
        *p = over_value.signum().wrapping_mul(n);
    }
    if let Some(p) = point.get_mut(layout.major.0) {
        *p = layout.major.1.wrapping_mul(n.wrapping_sub(depth));
    }
    let new_face = u32::try_from(over_axis)
        .ok()?
        .wrapping_mul(2)
        .wrapping_add(u32::from(over_value < 0));
    let new_layout = axes(new_face);
    let read = |(axis, sign): (usize, i64)| point.get(axis).copied().unwrap_or(0).wrapping_mul(sign);
    let texel = |h: i64| u32::try_from(h.wrapping_add(n).wrapping_sub(1).wrapping_div(2)).ok();
    Some(CubeTexel {
        face: new_face,
        x: texel(read(new_layout.s))?,
        y: texel(read(new_layout.t))?,
    })
}
