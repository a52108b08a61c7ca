//! The isoline domain (10.10.4, 11.6, 11.7.8): lines of constant V, the first at V == 0 and none at V == 1, each
//! divided along U by the line detail factor.

use super::factors::IsolineFactors;
use super::mesh::Mesh;

/// Tessellates an isoline patch of `factors` into `mesh`, line by line from V == 0, each from U == 0; `lines` adds
/// each line's segments in order (else the caller lists the points).
pub(super) fn tessellate(factors: &IsolineFactors, mesh: &mut Mesh, lines: bool) {
    let density = factors.density.subdivision();
    let detail = factors.detail.subdivision();
    // the density's division has a point at V == 1 too, where no line is drawn
    let line_count = density.points.saturating_sub(1);
    for line in 0..line_count {
        let v = density.place(line);
        for point in 0..detail.points {
            mesh.point(detail.place(point), v);
        }
    }
    if lines {
        let per_line = u32::try_from(detail.points).unwrap_or(0);
        for line in 0..u32::try_from(line_count).unwrap_or(0) {
            let first = line.saturating_mul(per_line);
            for segment in 1..per_line {
                let end = first.saturating_add(segment);
                mesh.indices.extend([end.saturating_sub(1), end]);
            }
        }
    }
}
