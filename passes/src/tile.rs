//! The `poly-tile` pass: rectangular tiling of the first permutable band of every
//! `stencil.program`'s schedule, with the inter-tile wavefront `Θ_T` (thesis Eq. 3.17) and the
//! intra-tile wavefront (the balanced first hyperplane, Def. 4.1, or the skew `Θ_S` of
//! Eq. 3.19), multi-statement tiles as in thesis Fig. 4.7.
//!
//! **Recorded form** (`docs/passes.md`): the pass proves the tiling legal
//! ([`stencil_poly::tiling::tile`] checks every dependence against the tiled order) and
//! records the request on the program as a discardable dictionary attribute, which
//! `poly-codegen` and `gpu-map` realise:
//!
//! ```mlir
//! stencil.program @p(…) params […] attributes {poly.tiling = {inter = "wavefront",
//!     intra = "auto", order = "auto", sizes = array<i64: 32, 32>}} { … }
//! ```
//!
//! [`tile_program`] is the shared step of every consumer: SCoP, dependences, the stored (or
//! original) schedules, the tiling of [`TILING_ATTR`] if any, and the tiled schedule.
//!
//! With `sizes=auto` the sizes come from the tile model's search ([`crate::tile_model`], thesis
//! Alg. 5.1), which also records its choice of block and its predicted time under `auto`:
//!
//! ```mlir
//! attributes {poly.tiling = {auto = {block = array<i64: 32, 8, 1>, model = "thesis",
//!     predicted_s = 1.2e-04 : f64, problem = "T=10,N=32,M=32", shared_memory = 49152 : i64,
//!     staging = true}, inter = "wavefront", intra = "auto", order = "auto",
//!     sizes = array<i64: 8, 16, 16>}}
//! ```

use std::ops::Range;

use stencil_dialects::support::op_error;
use stencil_ir::attributes::get_named;
use stencil_ir::pass::{OptionInfo, OptionKind, Pass, PassContext, PassFactory, PassInfo};
use stencil_ir::{Attribute, DiagResult, Diagnostic, DialectRegistry, Ir, NamedAttribute, OpId, Type};
use stencil_poly::tiling::{
    tile, InterTile, IntraTile, StatementOrder, TileBand, TiledSchedule, TilingInput, TilingOptions,
};
use stencil_poly::{DependenceGraph, DependenceOptions, Schedule};

use crate::schedule::{read_bands, stored_schedules, SCHEDULE_ATTR};
use crate::stencil_to_poly::{extract_scop, stencil_programs, ScopInfo};
use crate::tile_model::{choose_tiling, AutoChoice, AutoOptions, Staging};

/// Discardable attribute of a `stencil.program`: the tiling `poly-tile` proved legal (a
/// dictionary with `sizes`, `inter`, `intra`, `order`; see the module documentation).
pub const TILING_ATTR: &str = "poly.tiling";

/// A tiling request: tile sizes of the first permutable band and the wavefront choices.
#[derive(Debug, Clone, PartialEq)]
pub struct TilingSpec {
    /// One size per row of the first band (thesis Eq. 3.14's `s`), each `≥ 1`.
    pub sizes: Vec<i64>,
    /// Inter-tile schedule, intra-tile schedule and statement placement.
    pub options: TilingOptions,
    /// When the sizes came from the tile model (`sizes=auto`): its choice.
    pub auto: Option<AutoChoice>,
}

/// The text of each [`InterTile`] choice in pass options and [`TILING_ATTR`].
const INTER: [(&str, InterTile); 2] = [("wavefront", InterTile::Wavefront), ("rectangular", InterTile::Rectangular)];
/// The text of each [`IntraTile`] choice.
const INTRA: [(&str, IntraTile); 3] =
    [("auto", IntraTile::Auto), ("first-hyperplane", IntraTile::FirstHyperplane), ("skew", IntraTile::Skew)];
/// `poly-tile{intra=model}`: `auto`, with the tile model comparing both wavefronts where both
/// apply (`AutoOptions::compare_intra`).
const INTRA_BY_MODEL: &str = "model";
/// The text of each [`StatementOrder`] choice.
const ORDER: [(&str, StatementOrder); 3] = [
    ("auto", StatementOrder::Auto),
    ("per-wavefront", StatementOrder::PerWavefront),
    ("innermost", StatementOrder::Innermost),
];

/// The value named `text` in `table`, or an error listing the choices.
fn choice<T: Copy>(table: &[(&str, T)], what: &str, text: &str) -> Result<T, String> {
    table.iter().find(|(n, _)| *n == text).map(|&(_, v)| v).ok_or_else(|| {
        let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
        format!("unknown {what} '{text}'; expected one of: {}", names.join(", "))
    })
}

/// The option text of an intra-tile wavefront choice (`poly-tile{intra=…}`).
pub fn intra_tile_name(intra: IntraTile) -> &'static str {
    name_of(&INTRA, intra)
}

/// The text of `value` in `table`.
fn name_of<T: Copy + PartialEq>(table: &[(&'static str, T)], value: T) -> &'static str {
    table.iter().find(|(_, v)| *v == value).map_or("?", |(n, _)| n)
}

impl TilingSpec {
    /// The [`TILING_ATTR`] dictionary of this request.
    pub fn to_attribute(&self) -> Attribute {
        let mut entries = vec![
            NamedAttribute::new("inter", Attribute::string(name_of(&INTER, self.options.inter_tile))),
            NamedAttribute::new("intra", Attribute::string(name_of(&INTRA, self.options.intra_tile))),
            NamedAttribute::new("order", Attribute::string(name_of(&ORDER, self.options.statement_order))),
            NamedAttribute::new("sizes", Attribute::DenseArray { element: Type::I64, values: self.sizes.clone() }),
        ];
        if let Some(auto) = &self.auto {
            let mut a = auto.options.to_entries();
            a.push(NamedAttribute::new(
                "block",
                Attribute::DenseArray { element: Type::I64, values: auto.block.to_vec() },
            ));
            a.push(NamedAttribute::new(
                "predicted_s",
                Attribute::Float { value: auto.predicted_seconds, kind: stencil_ir::types::FloatKind::F64 },
            ));
            a.push(NamedAttribute::new("problem", Attribute::string(&auto.problem)));
            if let Some(b) = auto.blocks_per_sm {
                a.push(NamedAttribute::new("blocks_per_sm", Attribute::i64(i64::from(b))));
            }
            if let Some(sizes) = &auto.model_sizes {
                a.push(NamedAttribute::new(
                    "model_sizes",
                    Attribute::DenseArray { element: Type::I64, values: sizes.clone() },
                ));
            }
            if let Some(block) = &auto.model_block {
                a.push(NamedAttribute::new(
                    "model_block",
                    Attribute::DenseArray { element: Type::I64, values: block.to_vec() },
                ));
            }
            if auto.intra_by_model {
                a.push(NamedAttribute::new("intra_by_model", Attribute::Bool(true)));
            }
            for (name, other) in
                [("other_staging_s", auto.other_staging_seconds), ("other_intra_s", auto.other_intra_seconds)]
            {
                if let Some(other) = other {
                    a.push(NamedAttribute::new(
                        name,
                        Attribute::Float { value: other, kind: stencil_ir::types::FloatKind::F64 },
                    ));
                }
            }
            a.sort_by(|x, y| x.name.cmp(&y.name));
            entries.insert(0, NamedAttribute::new("auto", Attribute::Dictionary(a)));
        }
        Attribute::Dictionary(entries)
    }

    /// Reads [`TILING_ATTR`] of `program`: `Ok(None)` when absent, an error at the program when
    /// malformed (not a dictionary, sizes not an `array<i64>` of positive sizes, unknown
    /// choices). Missing choices take their defaults.
    pub fn read(ir: &Ir, program: OpId) -> Result<Option<TilingSpec>, Diagnostic> {
        let Some(attr) = ir.attr(program, TILING_ATTR) else { return Ok(None) };
        let bad = |m: String| op_error(ir, program, format!("'{TILING_ATTR}' {m}"));
        let Attribute::Dictionary(entries) = attr else {
            return Err(bad("must be a dictionary {sizes = array<i64: …>, inter = …, intra = …, order = …}".into()));
        };
        for e in entries {
            if !["sizes", "inter", "intra", "order", "auto"].contains(&&*e.name) {
                return Err(bad(format!(
                    "has an unknown entry '{}' (expected sizes, inter, intra, order, auto)",
                    e.name
                )));
            }
        }
        let sizes = match get_named(entries, "sizes") {
            Some(Attribute::DenseArray { values, .. }) => values.clone(),
            _ => return Err(bad("needs 'sizes = array<i64: …>' (one tile size per band row)".into())),
        };
        if sizes.is_empty() || sizes.iter().any(|&s| s < 1) {
            return Err(bad("'sizes' must be a non-empty list of sizes >= 1".into()));
        }
        let text = |key: &str, default: &'static str| -> Result<String, Diagnostic> {
            match get_named(entries, key) {
                None => Ok(default.to_string()),
                Some(a) => a.as_str().map(str::to_string).ok_or_else(|| bad(format!("'{key}' must be a string"))),
            }
        };
        let options = TilingOptions {
            inter_tile: choice(&INTER, "inter-tile schedule", &text("inter", "wavefront")?).map_err(bad)?,
            intra_tile: choice(&INTRA, "intra-tile schedule", &text("intra", "auto")?).map_err(bad)?,
            statement_order: choice(&ORDER, "statement order", &text("order", "auto")?).map_err(bad)?,
            ..TilingOptions::default()
        };
        let auto = match get_named(entries, "auto") {
            None => None,
            Some(Attribute::Dictionary(a)) => {
                let options = AutoOptions::from_entries(a).map_err(|e| bad(format!("'auto': {e}")))?;
                let block = match get_named(a, "block") {
                    Some(Attribute::DenseArray { values, .. })
                        if values.len() == 3 && values.iter().all(|&b| b >= 1) =>
                    {
                        [values[0], values[1], values[2]]
                    }
                    _ => return Err(bad("'auto' needs 'block = array<i64: x, y, z>'".into())),
                };
                let predicted_seconds = get_named(a, "predicted_s").and_then(Attribute::as_float).unwrap_or(f64::NAN);
                let problem = get_named(a, "problem").and_then(Attribute::as_str).unwrap_or("").to_string();
                let other_staging_seconds = get_named(a, "other_staging_s").and_then(Attribute::as_float);
                let other_intra_seconds = get_named(a, "other_intra_s").and_then(Attribute::as_float);
                let intra_by_model = get_named(a, "intra_by_model").and_then(Attribute::as_int).is_some_and(|b| b != 0);
                let blocks_per_sm = match get_named(a, "blocks_per_sm") {
                    None => None,
                    Some(b) => Some(
                        b.as_int()
                            .and_then(|b| u32::try_from(b).ok())
                            .filter(|&b| b >= 1)
                            .ok_or_else(|| bad("'auto': 'blocks_per_sm' must be an integer >= 1".into()))?,
                    ),
                };
                // Informational (the sizes the model evaluated): a list of sizes >= 1, checked
                // for its form only — `sizes` may be one size for every row.
                let model_sizes = match get_named(a, "model_sizes") {
                    None => None,
                    Some(Attribute::DenseArray { element: Type::I64, values })
                        if !values.is_empty() && values.iter().all(|&s| s >= 1) =>
                    {
                        Some(values.clone())
                    }
                    Some(_) => return Err(bad("'auto': 'model_sizes' must be an array<i64> of sizes >= 1".into())),
                };
                // Informational too (the block the model chose with those sizes).
                let model_block = match get_named(a, "model_block") {
                    None => None,
                    Some(Attribute::DenseArray { element: Type::I64, values }) => match values.as_slice() {
                        &[x, y, z] if x >= 1 && y >= 1 && z >= 1 => Some([x, y, z]),
                        _ => return Err(bad("'auto': 'model_block' must be an array<i64> of 3 extents >= 1".into())),
                    },
                    Some(_) => return Err(bad("'auto': 'model_block' must be an array<i64> of 3 extents >= 1".into())),
                };
                Some(AutoChoice {
                    options,
                    block,
                    predicted_seconds,
                    blocks_per_sm,
                    problem,
                    other_staging_seconds,
                    intra_by_model,
                    other_intra_seconds,
                    model_sizes,
                    model_block,
                })
            }
            Some(_) => return Err(bad("'auto' must be a dictionary".into())),
        };
        Ok(Some(TilingSpec { sizes, options, auto }))
    }
}

/// A program's tiled schedule with what produced it.
#[derive(Debug, Clone)]
pub struct TiledProgram {
    /// The SCoP and the way back to the IR.
    pub info: ScopInfo,
    /// Its direct dependences (thesis Table 3.1).
    pub graph: DependenceGraph,
    /// The tiled (or, without [`TILING_ATTR`], only scheduled) iteration spaces, every
    /// dimension marked sequential or parallel.
    pub tiled: TiledSchedule,
}

/// SCoP, dependences and the tiled schedule of `program`: the schedules of `poly.schedule`
/// (the original β schedules when no apply has one), tiled as [`TILING_ATTR`] asks (not at
/// all when absent). The tiling is checked against every dependence; every failure is an
/// error located at the program.
pub fn tile_program(ir: &Ir, registry: &DialectRegistry, program: OpId) -> Result<TiledProgram, Diagnostic> {
    build_tiled_program(ir, registry, program, Source::Stored)
}

/// [`tile_program`] with the tiling `spec` instead of the program's [`TILING_ATTR`].
pub fn tile_program_with(
    ir: &Ir,
    registry: &DialectRegistry,
    program: OpId,
    spec: &TilingSpec,
) -> Result<TiledProgram, Diagnostic> {
    build_tiled_program(ir, registry, program, Source::Given(spec))
}

/// Which tiling [`build_tiled_program`] applies.
#[derive(Clone, Copy)]
enum Source<'a> {
    /// The stored schedules and [`TILING_ATTR`].
    Stored,
    /// The stored schedules and this tiling.
    Given(&'a TilingSpec),
    /// The original schedules, untiled.
    Original,
}

/// [`tile_program`] ignoring `poly.schedule` and `poly.tiling`: the program's own sequential
/// order (the β schedules of thesis §3.2.3), untiled — what a hand-written loop nest does.
pub fn original_program(ir: &Ir, registry: &DialectRegistry, program: OpId) -> Result<TiledProgram, Diagnostic> {
    build_tiled_program(ir, registry, program, Source::Original)
}

fn build_tiled_program(
    ir: &Ir,
    registry: &DialectRegistry,
    program: OpId,
    source: Source<'_>,
) -> Result<TiledProgram, Diagnostic> {
    let info = extract_scop(ir, registry, program)?;
    let graph = DependenceGraph::compute(&info.scop, &DependenceOptions::default())
        .map_err(|e| op_error(ir, program, format!("dependence analysis failed: {e}")))?;
    let (spec, stored) = match source {
        Source::Stored => (TilingSpec::read(ir, program)?, stored_schedules(ir, &info)?),
        Source::Given(spec) => (Some(spec.clone()), stored_schedules(ir, &info)?),
        Source::Original => (None, None),
    };
    let input = match (&spec, stored) {
        (None, stored) => {
            let schedules = match stored {
                Some(s) => s,
                None => {
                    original_schedules(&info).map_err(|e| op_error(ir, program, format!("original schedule: {e}")))?
                }
            };
            TilingInput::new(schedules, Vec::new())
        }
        (Some(_), None) => {
            return Err(op_error(
                ir,
                program,
                format!(
                    "'{TILING_ATTR}' needs the '{SCHEDULE_ATTR}' of every apply: run poly-schedule before poly-tile"
                ),
            ))
        }
        (Some(spec), Some(schedules)) => {
            let band = first_band(ir, &info, &schedules)?;
            let sizes = band_sizes(&spec.sizes, band.len())
                .map_err(|m| op_error(ir, program, format!("'{TILING_ATTR}': {m}")))?;
            TilingInput::new(schedules, vec![TileBand::new(band, sizes)])
        }
    };
    let options = spec.map_or_else(TilingOptions::default, |s| s.options);
    let tiled =
        tile(&info.scop, &input, &graph, &options).map_err(|e| op_error(ir, program, format!("tiling failed: {e}")))?;
    Ok(TiledProgram { info, graph, tiled })
}

/// The original β schedules of every statement (thesis §3.2.3), padded with zero rows to the
/// longest: a statement outside some iterate (an initialisation before the time loop) has fewer
/// rows, and trailing zeros keep the order the β entries already decide.
fn original_schedules(info: &ScopInfo) -> Result<Vec<Schedule>, stencil_poly::PolyError> {
    let statements = info.scop.statements();
    let depth = statements.iter().map(|s| s.schedule().len()).max().unwrap_or(0);
    statements
        .iter()
        .map(|s| {
            let mut rows = s.schedule().rows().to_vec();
            let columns = s.space().n_dims() + s.space().n_params();
            rows.resize(depth, stencil_poly::AffineForm::new(vec![0; columns], 0));
            Schedule::new(s.space(), rows)
        })
        .collect()
}

/// The band of `poly.bands` to tile: the first one with at least two rows — tiling a single row
/// (SSOR's time loop, which no hyperplane shares with the sweeps) gives no parallel tiles — or
/// else the first; an error when the schedule has none.
fn first_band(ir: &Ir, info: &ScopInfo, schedules: &[Schedule]) -> Result<Range<usize>, Diagnostic> {
    let depth = schedules.iter().map(Schedule::len).max().unwrap_or(0);
    let bands = read_bands(ir, info, depth)?;
    let wide = bands.iter().find(|b| b.len() >= 2).cloned();
    wide.or_else(|| bands.into_iter().next()).ok_or_else(|| {
        op_error(
            ir,
            info.program,
            "has no permutable band to tile: 'poly.bands' is missing or marks no loop row (run poly-schedule)",
        )
    })
}

/// The sizes of a band of `width` rows: one per row, or a single size for every row.
fn band_sizes(sizes: &[i64], width: usize) -> Result<Vec<i64>, String> {
    match sizes.len() {
        1 => Ok(vec![sizes[0]; width]),
        n if n == width => Ok(sizes.to_vec()),
        n => Err(format!(
            "{n} tile sizes for a band of {width} rows; give one size per row or a single size for all rows"
        )),
    }
}

/// Registration record of `poly-tile`.
pub fn pass_info() -> PassInfo {
    PassInfo {
        argument: "poly-tile",
        summary: "Tile the first permutable band of each scheduled stencil.program (thesis Eq. 3.14-3.19) and record the proven-legal tiling as poly.tiling; sizes=auto chooses the sizes with the thesis Ch. 5 or Prajapati et al. model (thesis Alg. 5.1)",
        options: vec![
            OptionInfo {
                name: "sizes",
                kind: OptionKind::String,
                default: "",
                description: "Tile sizes, one per row of the first band or one for all rows, or 'auto': chosen by the tile model's search (thesis Alg. 5.1) at the program's problem sizes (required)",
            },
            OptionInfo {
                name: "inter",
                kind: OptionKind::String,
                default: "wavefront",
                description: "Inter-tile schedule: wavefront (thesis Eq. 3.17, one sequential dimension, parallel tiles) or rectangular",
            },
            OptionInfo {
                name: "intra",
                kind: OptionKind::String,
                default: "auto",
                description: "Intra-tile wavefront: auto (the first hyperplane where it leaves parallel point loops, else the skew), first-hyperplane (thesis Def. 4.1), skew (Eq. 3.19), or model (with sizes=auto: as auto, but where both apply the tile model times both and keeps the faster prediction)",
            },
            OptionInfo {
                name: "order",
                kind: OptionKind::String,
                default: "auto",
                description: "Statement order inside tiles: auto, per-wavefront (thesis Fig. 4.7) or innermost",
            },
            OptionInfo {
                name: "model",
                kind: OptionKind::String,
                default: "thesis",
                description: "sizes=auto: the model that ranks layouts, thesis (thesis Ch. 5) or prajapati (Prajapati et al.)",
            },
            OptionInfo {
                name: "calibration",
                kind: OptionKind::String,
                default: "",
                description: "sizes=auto: the device's calibration: a built-in name (h100, derived; h200, measured) or a calibration file (JSON, docs/tile-models.md); empty: the built-in h200 (the measured one)",
            },
            OptionInfo {
                name: "staging",
                kind: OptionKind::String,
                default: "auto",
                description: "sizes=auto: whether gpu-map stages tiles in shared memory: true, false, or auto (search both, keep the layout the model predicts faster; gpu-map's staging=auto follows)",
            },
            OptionInfo {
                name: "shared-memory",
                kind: OptionKind::Int,
                default: "49152",
                description: "sizes=auto: gpu-map's shared-memory limit per block in bytes (give gpu-map the same)",
            },
            OptionInfo {
                name: "registers",
                kind: OptionKind::Int,
                default: "0",
                description: "sizes=auto: registers per thread of the kernels (thesis Alg. 5.1 line 1); 0: the calibration's figure",
            },
            OptionInfo {
                name: "min-reuse",
                kind: OptionKind::String,
                default: "",
                description: "sizes=auto: smallest data reuse L_TILE/N_mem of a staged tile (thesis 5.4.1); empty: 1, or half the best a size within the shared-memory limit reaches",
            },
            OptionInfo {
                name: "search-threads",
                kind: OptionKind::Int,
                default: "0",
                description: "sizes=auto: threads the search visits tile sizes on, at most 256; 0: as many as the machine runs at once for searches of 8192 sizes or more (3-D at GPU sizes), else one. The choice and --explain-tile-sizes do not depend on it",
            },
        ],
        factory: PassFactory::new(|opts| {
            let o = PolyTileOptions::parse(opts)?;
            Ok(Box::new(PolyTile { spec: o.spec, search: o.auto.then_some(o.search) }))
        }),
        // A second poly-tile would replace the first one's poly.tiling, not tile the tiles.
        contract: stencil_ir::pass::PassContract {
            unique: true,
            ..crate::contract::program_pass(
                "poly-tile works on stencil.program ops, after poly-schedule and before poly-codegen or gpu-map lower them, e.g. builtin.module(poly-schedule,poly-tile{sizes=16},gpu-map)",
            )
        },
    }
}

/// The options of one `poly-tile` in a pipeline.
#[derive(Debug, Clone, PartialEq)]
pub struct PolyTileOptions {
    /// The tiling (empty sizes with `sizes=auto`).
    pub spec: TilingSpec,
    /// How the tile model searches (used with `sizes=auto`).
    pub search: AutoOptions,
    /// Whether the sizes are `auto`.
    pub auto: bool,
}

impl PolyTileOptions {
    /// Reads `poly-tile`'s parsed options; errors name the option.
    pub fn parse(opts: &stencil_ir::pass::PassOptions) -> Result<PolyTileOptions, String> {
        let bad = |name: &str, e: String| format!("option '{name}' of pass 'poly-tile': {e}");
        let sizes = opts.auto_or_int_list("sizes").map_err(|text| {
            bad("sizes", format!("expected 'auto' or a list of integers such as 32,32 or 32x32, got '{text}'"))
        })?;
        let auto = sizes.is_none();
        let sizes = sizes.unwrap_or_default();
        if sizes.is_empty() && !auto {
            return Err("pass 'poly-tile' needs tile sizes: poly-tile{sizes=32,32}, or poly-tile{sizes=auto} for model-driven sizes".into());
        }
        if let Some(s) = sizes.iter().find(|&&s| s < 1) {
            return Err(bad("sizes", format!("tile size {s}; sizes must be at least 1")));
        }
        let options = TilingOptions {
            inter_tile: choice(&INTER, "inter-tile schedule", opts.string("inter")).map_err(|e| bad("inter", e))?,
            intra_tile: match opts.string("intra") {
                INTRA_BY_MODEL if auto => IntraTile::Auto,
                INTRA_BY_MODEL => {
                    return Err(bad(
                        "intra",
                        "'model' needs sizes=auto (the tile model compares the wavefronts)".into(),
                    ))
                }
                text => choice(&INTRA, "intra-tile schedule", text)
                    .map_err(|e| bad("intra", format!("{e}, or {INTRA_BY_MODEL} (with sizes=auto)")))?,
            },
            statement_order: choice(&ORDER, "statement order", opts.string("order")).map_err(|e| bad("order", e))?,
            ..TilingOptions::default()
        };
        let model =
            stencil_tilemodel::ModelKind::parse(opts.string("model")).map_err(|e| bad("model", e.to_string()))?;
        let calibration = match opts.string("calibration") {
            "" => None,
            path => Some(std::path::PathBuf::from(path)),
        };
        let registers = match opts.int("registers") {
            0 => None,
            r => Some(u32::try_from(r).map_err(|_| bad("registers", format!("{r} registers per thread")))?),
        };
        let min_reuse = match opts.string("min-reuse").trim() {
            "" => None,
            t => Some(
                t.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v >= 0.0)
                    .ok_or_else(|| bad("min-reuse", format!("expected a non-negative number, got '{t}'")))?,
            ),
        };
        let shared_memory = opts.int("shared-memory");
        if shared_memory < 0 {
            return Err(bad("shared-memory", format!("{shared_memory} bytes; give 0 or more")));
        }
        let staging = Staging::parse(opts.string("staging")).map_err(|e| bad("staging", e))?;
        let threads = opts.int("search-threads");
        let threads = usize::try_from(threads)
            .ok()
            .filter(|&t| t <= stencil_tilemodel::search::MAX_THREADS)
            .ok_or_else(|| {
                bad(
                    "search-threads",
                    format!("{threads} threads; give 0 (the machine's) to {}", stencil_tilemodel::search::MAX_THREADS),
                )
            })?;
        let search = AutoOptions {
            model,
            calibration,
            staging: staging.resolve(None),
            staging_by_model: staging == Staging::Auto,
            shared_memory,
            registers,
            min_reuse,
            compare_intra: opts.string("intra") == INTRA_BY_MODEL,
            threads,
        };
        // Read where it is named: with given sizes the file is used later, if at all
        // (`gpu-map{block=auto}`, `staging=auto` search with what `poly-tile` recorded), and a
        // file that cannot be read must not pass unnoticed until then.
        if search.calibration.is_some() {
            search.load_calibration().map_err(|e| bad("calibration", e))?;
        }
        Ok(PolyTileOptions { spec: TilingSpec { sizes, options, auto: None }, search, auto })
    }
}

/// Records [`TilingSpec`] on every `stencil.program` at or below the anchor after proving it
/// legal with [`tile_program`] (with `sizes=auto`, the sizes the tile model's search chose);
/// on failure the program keeps its previous attributes.
struct PolyTile {
    spec: TilingSpec,
    /// `sizes=auto`: how to search.
    search: Option<AutoOptions>,
}

impl Pass for PolyTile {
    fn argument(&self) -> &'static str {
        "poly-tile"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId, cx: &PassContext<'_>) -> DiagResult<()> {
        for program in stencil_programs(ir, root) {
            let spec = match &self.search {
                None => self.spec.clone(),
                Some(auto) => choose_tiling(ir, cx.registry, program, &self.spec, auto)?,
            };
            record_tiling(ir, cx.registry, program, &spec)?;
        }
        Ok(())
    }
}

/// Records `spec` as `program`'s [`TILING_ATTR`] after proving it legal with [`tile_program`];
/// on failure the program keeps its previous attribute (or none) and the error is returned.
pub fn record_tiling(ir: &mut Ir, registry: &DialectRegistry, program: OpId, spec: &TilingSpec) -> DiagResult<()> {
    let previous = ir.attr(program, TILING_ATTR).cloned();
    ir.set_attribute(program, TILING_ATTR, spec.to_attribute());
    if let Err(e) = tile_program(ir, registry, program) {
        match previous {
            Some(p) => ir.set_attribute(program, TILING_ATTR, p),
            None => {
                ir.remove_attr(program, TILING_ATTR);
            }
        }
        return Err(e);
    }
    Ok(())
}

/// What `stencil-opt --dump-tiling` draws: parameter values (program defaults where not
/// given), the statement (the first one with two or more iterators where not given), and the
/// two iterators on the axes (the outermost two where not given).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TilingSvgRequest {
    /// Parameter values by name, overriding the program's defaults.
    pub params: Vec<(String, i64)>,
    /// The statement (apply name) to draw.
    pub statement: Option<String>,
}

/// The SVG picture of `program`'s tiling ([`stencil_poly::tiling::render_svg`], thesis Figs.
/// 4.1/4.3/4.6) for `request`; every failure is an error located at the program.
pub fn tiling_svg(
    ir: &Ir,
    registry: &DialectRegistry,
    program: OpId,
    request: &TilingSvgRequest,
) -> Result<String, Diagnostic> {
    let tiled = tile_program(ir, registry, program)?;
    let scop = &tiled.info.scop;
    let defaults = stencil_dialects::stencil::ProgramParams::of(ir, program);
    for (name, _) in &request.params {
        if !scop.params().contains(name) {
            return Err(op_error(
                ir,
                program,
                format!(
                    "--dump-tiling: the program has no parameter '{name}' (parameters: {})",
                    scop.params().join(", ")
                ),
            ));
        }
    }
    let mut params = Vec::with_capacity(scop.params().len());
    for (k, name) in scop.params().iter().enumerate() {
        let given = request.params.iter().find(|(n, _)| n == name).map(|&(_, v)| v);
        let value = given.or(defaults.defaults.get(k).copied().flatten()).ok_or_else(|| {
            op_error(ir, program, format!("--dump-tiling: give a value for parameter '{name}' (it has no default)"))
        })?;
        params.push(value);
    }
    let statement = match &request.statement {
        Some(name) => scop.statements().iter().position(|s| s.name() == name).ok_or_else(|| {
            let names: Vec<&str> = scop.statements().iter().map(|s| s.name()).collect();
            op_error(ir, program, format!("--dump-tiling: no statement '{name}' (statements: {})", names.join(", ")))
        })?,
        None => scop
            .statements()
            .iter()
            .position(|s| s.n_iterators() >= 2)
            .ok_or_else(|| op_error(ir, program, "--dump-tiling: no statement has two iterators to draw"))?,
    };
    let picture = stencil_poly::tiling::TilingPicture {
        params,
        statement: stencil_poly::StatementId(statement),
        axes: (0, 1),
        fixed: Vec::new(),
    };
    stencil_poly::tiling::render_svg(scop, &tiled.tiled, &tiled.graph, &picture)
        .map_err(|e| op_error(ir, program, format!("--dump-tiling: {e}")))
}
