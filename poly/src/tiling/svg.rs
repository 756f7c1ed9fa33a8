//! A picture of a tiling (thesis Figs. 4.1, 4.3, 4.6): one statement's iteration space in its
//! original coordinates — a 2-D slice, the other iterators fixed — with every point, the tile
//! outlines, each tile's inter-tile wavefront number (the sequential tile dimension, thesis
//! Eq. 3.17), the intra-tile wavefront of every point (shading), and the uniform dependences
//! of the statement on itself as arrows. A user checks a tiling faster this way than by reading
//! loop bounds.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

use super::error::{TilingError, TilingResult};
use super::tiled::{DimKind, TiledSchedule};
use crate::dependence::{DependenceGraph, DependenceKind};
use crate::limits::Limits;
use crate::scop::{Scop, StatementId};

/// What to draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TilingPicture {
    /// Parameter values, in the SCoP's order.
    pub params: Vec<i64>,
    /// The statement whose iteration space is drawn.
    pub statement: StatementId,
    /// The iterators on the vertical (usually time, drawn upwards) and horizontal axes.
    pub axes: (usize, usize),
    /// Values of the other iterators (`None`: the middle of their range).
    pub fixed: Vec<Option<i64>>,
}

/// A point of the slice with what the picture shows of it.
struct DrawnPoint {
    /// Its coordinates on the (vertical, horizontal) axes.
    at: (i64, i64),
    /// Its tile (the values of the tile dimensions).
    tile: Vec<i64>,
    /// Its tile's inter-tile wavefront.
    wave: i64,
    /// Its intra-tile wavefront.
    intra: i64,
}

/// Pixels between neighbouring points.
const CELL: i64 = 26;
/// Margin around the grid (room for axis labels and the legend).
const MARGIN: i64 = 48;
/// Most points drawn (a picture is for small parameter values).
const MAX_POINTS: usize = 20_000;
/// Tile fill colours, alternating by wavefront so neighbouring wavefronts differ.
const TILE_COLORS: [&str; 6] = ["#cfe2f3", "#fce5cd", "#d9ead3", "#ead1dc", "#fff2cc", "#d0e0e3"];

/// Renders `picture` of `tiled` (a tiling of `scop` with dependences `graph`) as SVG text.
pub fn render_svg(
    scop: &Scop,
    tiled: &TiledSchedule,
    graph: &DependenceGraph,
    picture: &TilingPicture,
) -> TilingResult<String> {
    let stmt = scop
        .statement(picture.statement)
        .ok_or_else(|| TilingError::InvalidInput(format!("statement {} is not in the SCoP", picture.statement.0)))?;
    let names = stmt.space().dims().to_vec();
    let n = names.len();
    let (ya, xa) = picture.axes;
    if n < 2 || ya >= n || xa >= n || ya == xa {
        return Err(TilingError::InvalidInput(format!(
            "a tiling picture needs two distinct iterators of statement {} (it has {})",
            stmt.name(),
            names.join(", ")
        )));
    }
    if picture.params.len() != scop.params().len() {
        return Err(TilingError::InvalidInput(format!(
            "{} parameter values for the parameters [{}]",
            picture.params.len(),
            scop.params().join(", ")
        )));
    }
    let limits = Limits { max_enumerated_points: MAX_POINTS * 64, ..Limits::default() };
    let all = stmt.domain().enumerate(&picture.params, &limits)?;
    // The slice: other iterators at their given value or the middle of their range.
    let mut fixed = vec![None; n];
    for (k, f) in fixed.iter_mut().enumerate() {
        if k == ya || k == xa {
            continue;
        }
        *f = match picture.fixed.get(k).copied().flatten() {
            Some(v) => Some(v),
            None => {
                let (lo, hi) = all.iter().fold((i64::MAX, i64::MIN), |(lo, hi), p| (lo.min(p[k]), hi.max(p[k])));
                Some(lo + (hi - lo) / 2)
            }
        };
    }
    let points: Vec<Vec<i64>> =
        all.into_iter().filter(|p| fixed.iter().zip(p).all(|(f, v)| f.is_none_or(|f| f == *v))).collect();
    if points.is_empty() {
        return Err(TilingError::InvalidInput(format!("the slice of statement {} has no point", stmt.name())));
    }
    if points.len() > MAX_POINTS {
        return Err(TilingError::InvalidInput(format!(
            "the slice has {} points; draw at most {MAX_POINTS} (use smaller parameter values)",
            points.len()
        )));
    }
    // Tile of each point: its values of the tile dimensions; wavefront: the sequential tile
    // dimension (Θ_T, Eq. 3.17) or the first tile dimension; intra-tile wavefront: the first
    // point dimension.
    let tile_dims: Vec<usize> =
        (0..tiled.n_dims()).filter(|&d| matches!(tiled.dims[d].kind, DimKind::TileWavefront | DimKind::Tile)).collect();
    let wave_dim = tile_dims.first().copied();
    let point_wave = (0..tiled.n_dims()).find(|&d| tiled.dims[d].kind == DimKind::PointWavefront);
    let mut tile_of: HashMap<(i64, i64), Vec<i64>> = HashMap::new();
    let mut info: Vec<DrawnPoint> = Vec::with_capacity(points.len());
    for p in &points {
        let full: Vec<i64> = p.iter().chain(&picture.params).copied().collect();
        let stamp = tiled.time_stamp(picture.statement, &full)?;
        let tile: Vec<i64> = tile_dims.iter().map(|&d| stamp[d]).collect();
        let wave = wave_dim.map_or(0, |d| stamp[d]);
        let intra = point_wave.map_or(0, |d| stamp[d]);
        tile_of.insert((p[ya], p[xa]), tile.clone());
        info.push(DrawnPoint { at: (p[ya], p[xa]), tile, wave, intra });
    }
    let (ymin, ymax) = info.iter().fold((i64::MAX, i64::MIN), |(a, b), d| (a.min(d.at.0), b.max(d.at.0)));
    let (xmin, xmax) = info.iter().fold((i64::MAX, i64::MIN), |(a, b), d| (a.min(d.at.1), b.max(d.at.1)));
    let width = (xmax - xmin) * CELL + 2 * MARGIN + 220;
    let height = (ymax - ymin) * CELL + 2 * MARGIN;
    // Time grows upwards, as in the thesis' figures.
    let px = |x: i64| MARGIN + (x - xmin) * CELL;
    let py = |y: i64| MARGIN + (ymax - y) * CELL;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="10">"#
    );
    let _ = writeln!(
        s,
        "<title>Tiling of {} over ({}, {}){}</title>",
        stmt.name(),
        names[ya],
        names[xa],
        fixed_text(&names, &fixed)
    );
    let _ = writeln!(
        s,
        r##"<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="context-stroke"/></marker></defs>"##
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    // Tile cells: one square per point, coloured by the tile's wavefront.
    let _ = writeln!(s, "<g id=\"tiles\">");
    for DrawnPoint { at: (y, x), wave, .. } in &info {
        let color = TILE_COLORS[usize::try_from(wave.rem_euclid(TILE_COLORS.len() as i64)).unwrap_or(0)];
        let _ = writeln!(
            s,
            r#"<rect x="{}" y="{}" width="{CELL}" height="{CELL}" fill="{color}"/>"#,
            px(*x) - CELL / 2,
            py(*y) - CELL / 2
        );
    }
    let _ = writeln!(s, "</g>");
    // Tile outlines: cell edges between points of different tiles (or the domain's border).
    let _ = writeln!(s, "<g id=\"outlines\" stroke=\"#444\" stroke-width=\"1.5\">");
    for DrawnPoint { at: (y, x), tile, .. } in &info {
        let (cx, cy) = (px(*x), py(*y));
        let h = CELL / 2;
        for (dy, dx, x1, y1, x2, y2) in [
            (0, 1, cx + h, cy - h, cx + h, cy + h),
            (0, -1, cx - h, cy - h, cx - h, cy + h),
            (1, 0, cx - h, cy - h, cx + h, cy - h),
            (-1, 0, cx - h, cy + h, cx + h, cy + h),
        ] {
            if tile_of.get(&(y + dy, x + dx)) != Some(tile) {
                let _ = writeln!(s, r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>"#);
            }
        }
    }
    let _ = writeln!(s, "</g>");
    // Points, darker for later intra-tile wavefronts within their tile.
    let mut first_intra: BTreeMap<Vec<i64>, i64> = BTreeMap::new();
    for DrawnPoint { tile, intra, .. } in &info {
        let e = first_intra.entry(tile.clone()).or_insert(*intra);
        *e = (*e).min(*intra);
    }
    let _ = writeln!(s, "<g id=\"points\">");
    for DrawnPoint { at: (y, x), tile, intra, .. } in &info {
        let step = intra - first_intra.get(tile).copied().unwrap_or(*intra);
        let shade = 40 + (step * 37).rem_euclid(160);
        let _ = writeln!(
            s,
            r#"<circle cx="{}" cy="{}" r="4" fill="rgb({shade},{shade},{shade})"><title>{}: intra-tile wavefront step {step}</title></circle>"#,
            px(*x),
            py(*y),
            point_text(&names, &fixed, ya, xa, *y, *x)
        );
    }
    let _ = writeln!(s, "</g>");
    // Wavefront number of each tile at its centroid.
    let mut centroids: BTreeMap<Vec<i64>, (i64, i64, i64, i64)> = BTreeMap::new();
    for DrawnPoint { at: (y, x), tile, wave, .. } in &info {
        let c = centroids.entry(tile.clone()).or_insert((0, 0, 0, *wave));
        c.0 += px(*x);
        c.1 += py(*y);
        c.2 += 1;
    }
    let _ =
        writeln!(s, "<g id=\"wavefronts\" font-size=\"13\" font-weight=\"bold\" fill=\"#b00\" text-anchor=\"middle\">");
    for (sx, sy, count, wave) in centroids.values().filter(|_| !tile_dims.is_empty()) {
        let _ = writeln!(s, r#"<text x="{}" y="{}">{wave}</text>"#, sx / count, sy / count - 6);
    }
    let _ = writeln!(s, "</g>");
    // Uniform self dependences inside the slice, drawn from the point nearest the centre.
    let centre = info
        .iter()
        .map(|d| d.at)
        .min_by_key(|(y, x)| ((2 * y - ymin - ymax).abs(), (2 * x - xmin - xmax).abs()))
        .unwrap_or((ymin, xmin));
    let mut legend: Vec<(String, &str)> = Vec::new();
    let _ = writeln!(s, "<g id=\"dependences\" stroke-width=\"2\" fill=\"none\">");
    let mut drawn: Vec<(i64, i64, DependenceKind)> = Vec::new();
    for d in graph.dependences() {
        if d.source.statement != picture.statement || d.target.statement != picture.statement {
            continue;
        }
        let Some(dist) = &d.distance else { continue };
        if dist.iter().enumerate().any(|(k, &v)| k != ya && k != xa && v != 0) {
            continue;
        }
        let (dy, dx) = (dist[ya], dist[xa]);
        if drawn.contains(&(dy, dx, d.kind)) {
            continue;
        }
        drawn.push((dy, dx, d.kind));
        let color = match d.kind {
            DependenceKind::Flow => "#c00",
            DependenceKind::Anti => "#06c",
            DependenceKind::Output => "#080",
        };
        // Arrows end at the target; the source is the centre minus the distance.
        let (ty, tx) = centre;
        let _ = writeln!(
            s,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{color}" marker-end="url(#arrow)"/>"#,
            px(tx - dx),
            py(ty - dy),
            px(tx),
            py(ty)
        );
        legend.push((format!("{:?} ({dy}, {dx})", d.kind).to_lowercase(), color));
    }
    let _ = writeln!(s, "</g>");
    // Axes and legend.
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" font-size="12">{} →</text><text x="8" y="{}" font-size="12">{} ↑</text>"#,
        px(xmin),
        height - 12,
        names[xa],
        py(ymax) - 14,
        names[ya]
    );
    let lx = px(xmax) + 30;
    let mut ly = MARGIN;
    let summary = if tile_dims.is_empty() { "not tiled".to_string() } else { format!("{} tiles", centroids.len()) };
    let _ = writeln!(s, r#"<text x="{lx}" y="{ly}" font-size="12">{}: {summary}</text>"#, stmt.name());
    ly += 16;
    let _ = writeln!(s, r##"<text x="{lx}" y="{ly}" fill="#b00">bold: inter-tile wavefront</text>"##);
    ly += 14;
    let _ = writeln!(s, r#"<text x="{lx}" y="{ly}">dots: darker = later intra-tile step</text>"#);
    for (text, color) in legend {
        ly += 14;
        let _ = writeln!(s, r#"<text x="{lx}" y="{ly}" fill="{color}">→ {text}</text>"#);
    }
    let fixed_line = fixed_text(&names, &fixed);
    if !fixed_line.is_empty() {
        ly += 14;
        let _ = writeln!(s, r#"<text x="{lx}" y="{ly}">slice{fixed_line}</text>"#);
    }
    s.push_str("</svg>\n");
    Ok(s)
}

/// ` at j = 3, k = 4` for the fixed iterators (empty when none).
fn fixed_text(names: &[String], fixed: &[Option<i64>]) -> String {
    let parts: Vec<String> = names.iter().zip(fixed).filter_map(|(n, f)| f.map(|v| format!("{n} = {v}"))).collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(" at {}", parts.join(", "))
    }
}

/// `(t = 1, i = 3)` for a drawn point.
fn point_text(names: &[String], fixed: &[Option<i64>], ya: usize, xa: usize, y: i64, x: i64) -> String {
    let parts: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(k, n)| {
            let v = if k == ya {
                y
            } else if k == xa {
                x
            } else {
                fixed[k].unwrap_or(0)
            };
            format!("{n} = {v}")
        })
        .collect();
    format!("({})", parts.join(", "))
}
