//! Model-driven tile and block sizes on the IR (issue 15): `poly-tile{sizes=auto}`,
//! `gpu-map{block=auto}` and `stencil-opt --explain-tile-sizes` all come here.
//!
//! The IR-free crate `stencil-tilemodel` counts and searches; this module supplies what it
//! needs from the IR — the program's tiling (its band shape, read from a reference tiling: the
//! shape does not depend on the sizes), the problem sizes, each field's element size and each
//! apply's arithmetic operations — and records the choice.
//!
//! **Problem sizes** come from the discardable attribute [`PROBLEM_SIZE_ATTR`] of the program
//! (`{N = 16384 : i64, …}`, which `stencil-run` and `stencil-opt --param` set from their
//! `--param` values) and otherwise from the program's declared defaults.

use std::path::PathBuf;

use stencil_dialects::stencil::{FieldType, ProgramParams};
use stencil_dialects::support::op_error;
use stencil_ir::attributes::get_named;
use stencil_ir::ir::WalkOrder;
use stencil_ir::types::FloatKind;
use stencil_ir::{Attribute, Diagnostic, DialectRegistry, Ir, NamedAttribute, OpId};
use stencil_poly::tiling::{DimKind, IntraTile, TilingOptions};
use stencil_tilemodel::search::{SearchOptions, SearchReport};
use stencil_tilemodel::{search_nests, Block, Calibration, ModelKind, ProgramFacts, ProgramShape};

use crate::stencil_to_poly::ScopInfo;
use crate::tile::{tile_program_with, TiledProgram, TilingSpec};

/// Discardable attribute of a `stencil.program`: the problem sizes the tile models use, a
/// dictionary of parameter name to `i64`.
pub const PROBLEM_SIZE_ATTR: &str = "poly.problem_size";

/// How `sizes=auto` / `block=auto` search (the options of `poly-tile` that configure it).
#[derive(Debug, Clone, PartialEq)]
pub struct AutoOptions {
    /// The model that ranks layouts.
    pub model: ModelKind,
    /// A calibration file (`None`: the built-in default, the measured H200 file).
    pub calibration: Option<PathBuf>,
    /// Whether `gpu-map` stages tiles in shared memory (with [`AutoOptions::staging_by_model`],
    /// the staging the search chose).
    pub staging: bool,
    /// `staging=auto`: the search ran with and without staging and `staging` is the one whose
    /// best layout the model predicts faster ([`choose_layout`]).
    pub staging_by_model: bool,
    /// `gpu-map`'s shared-memory limit per block, in bytes.
    pub shared_memory: i64,
    /// Registers per thread (`None`: the calibration's).
    pub registers: Option<u32>,
    /// The data-reuse threshold (`None`: automatic).
    pub min_reuse: Option<f64>,
    /// `poly-tile{intra=model}`: where the first-hyperplane intra-tile wavefront runs a step's
    /// statements as groups, also search the skewed one and keep the faster prediction
    /// ([`choose_tiling`]). Not the default: on the H200 every skewed layout measured ran
    /// 3–6× slower than the first hyperplane's in the same program (2-D and 3-D Jacobi), as
    /// the simulator's cost report also says, while the calibrated models, which have one
    /// skewed run per program at most, predicted the skew faster (3-D Jacobi at 512³: 10 ms
    /// against 38 ms); and the skewed search is the slow one (3-D Jacobi at 256³: 8 s of 8.3).
    /// Only `poly-tile` reads it: not recorded in `poly.tiling`.
    pub compare_intra: bool,
    /// `poly-tile{search-threads}`: the threads the search runs on (0: the machine's, where
    /// the search is large enough; [`stencil_tilemodel::SearchOptions::threads`]). The result
    /// does not depend on it, so it is not recorded in `poly.tiling`.
    pub threads: usize,
}

impl Default for AutoOptions {
    fn default() -> Self {
        AutoOptions {
            model: ModelKind::Thesis,
            calibration: None,
            staging: true,
            staging_by_model: false,
            shared_memory: 48 * 1024,
            registers: None,
            min_reuse: None,
            compare_intra: false,
            threads: 0,
        }
    }
}

impl AutoOptions {
    /// The calibration these options name.
    pub fn load_calibration(&self) -> Result<Calibration, String> {
        match &self.calibration {
            Some(path) => Calibration::named_or_load(path),
            None => Calibration::built_in_default(),
        }
        .map_err(|e| e.to_string())
    }

    /// The dictionary entries that record these options in `poly.tiling` (so that
    /// `gpu-map{block=auto}` and `--explain-tile-sizes` search as `poly-tile` did).
    pub fn to_entries(&self) -> Vec<NamedAttribute> {
        let mut entries = vec![
            NamedAttribute::new("model", Attribute::string(self.model.name())),
            NamedAttribute::new("staging", Attribute::Bool(self.staging)),
            NamedAttribute::new("shared_memory", Attribute::i64(self.shared_memory)),
        ];
        if self.staging_by_model {
            entries.push(NamedAttribute::new("staging_by_model", Attribute::Bool(true)));
        }
        if let Some(path) = &self.calibration {
            entries.push(NamedAttribute::new("calibration", Attribute::string(&path.display().to_string())));
        }
        if let Some(r) = self.registers {
            entries.push(NamedAttribute::new("registers", Attribute::i64(i64::from(r))));
        }
        if let Some(t) = self.min_reuse {
            entries.push(NamedAttribute::new("min_reuse", Attribute::Float { value: t, kind: FloatKind::F64 }));
        }
        entries
    }

    /// Reads [`AutoOptions::to_entries`] back; missing entries take their defaults.
    pub fn from_entries(entries: &[NamedAttribute]) -> Result<AutoOptions, String> {
        let mut o = AutoOptions::default();
        if let Some(a) = get_named(entries, "model") {
            o.model = ModelKind::parse(a.as_str().ok_or("'model' must be a string")?).map_err(|e| e.to_string())?;
        }
        if let Some(a) = get_named(entries, "staging") {
            o.staging = a.as_int().ok_or("'staging' must be a bool")? != 0;
        }
        if let Some(a) = get_named(entries, "staging_by_model") {
            o.staging_by_model = a.as_int().ok_or("'staging_by_model' must be a bool")? != 0;
        }
        if let Some(a) = get_named(entries, "shared_memory") {
            o.shared_memory = a.as_i64().ok_or("'shared_memory' must be an integer")?;
        }
        if let Some(a) = get_named(entries, "calibration") {
            o.calibration = Some(PathBuf::from(a.as_str().ok_or("'calibration' must be a string")?));
        }
        if let Some(a) = get_named(entries, "registers") {
            let r = a.as_i64().ok_or("'registers' must be an integer")?;
            o.registers = Some(u32::try_from(r).map_err(|_| "'registers' is out of range")?);
        }
        if let Some(a) = get_named(entries, "min_reuse") {
            o.min_reuse = Some(a.as_float().ok_or("'min_reuse' must be a float")?);
        }
        Ok(o)
    }
}

/// What a search chose, as `poly.tiling` records it.
#[derive(Debug, Clone, PartialEq)]
pub struct AutoChoice {
    /// How the search ran.
    pub options: AutoOptions,
    /// The thread organisation it chose (for `gpu-map{block=auto}`).
    pub block: [i64; 3],
    /// The model's estimate of the chosen layout, in seconds.
    pub predicted_seconds: f64,
    /// The blocks per SM the model's estimate assumes for it (thesis Table 5.1's `B`, from the
    /// calibration's registers per thread); `None` in tilings recorded without it.
    /// `gpu-map{occupancy=model}` asks ptxas for them.
    pub blocks_per_sm: Option<u32>,
    /// The problem sizes it searched for, `N=…` in parameter order.
    pub problem: String,
    /// With [`AutoOptions::staging_by_model`] and global tiles chosen: the model's estimate of
    /// the best staged layout (`None`: staged tiles were chosen — the global search only looks
    /// for layouts faster than theirs — or none fits the shared memory).
    pub other_staging_seconds: Option<f64>,
    /// Whether `intra=auto` had two candidates, the first-hyperplane and the skewed intra-tile
    /// wavefront, and the model chose ([`choose_tiling`]).
    pub intra_by_model: bool,
    /// With [`AutoChoice::intra_by_model`] and the skew chosen: the first hyperplane's best
    /// prediction (`None` when the first hyperplane was chosen: the skewed search only looks
    /// for layouts faster than its choice).
    pub other_intra_seconds: Option<f64>,
    /// The sizes the model evaluated, when the recorded ones differ: a size past its row's
    /// whole range cut to the least size of one tile, the same tiles run as full ones
    /// (`ProgramShape::one_tile_sizes`). `None`: the model's sizes are the recorded ones.
    pub model_sizes: Option<Vec<i64>>,
    /// With [`AutoChoice::model_sizes`], when the block differs: the block the model chose
    /// with its sizes. [`AutoChoice::block`] is then the best block for the recorded sizes,
    /// the tiles that run, with their [`AutoChoice::blocks_per_sm`]; `predicted_seconds` stays
    /// the model's for its own layout, the one it compared.
    pub model_block: Option<[i64; 3]>,
}

/// `staging=…` of `poly-tile` and `gpu-map`: whether tiles are staged in shared memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Staging {
    /// `auto`: with `poly-tile{sizes=auto}` the tile model chooses (it searches both ways and
    /// keeps the faster prediction: [`choose_layout`]), and `gpu-map` follows that choice;
    /// with explicit tile sizes `gpu-map` asks the model about those sizes
    /// ([`compare_staging`]), and stages where the model cannot tell.
    Auto,
    /// `true`: staged in shared memory.
    Shared,
    /// `false`: every access on global memory.
    Global,
}

impl Staging {
    /// Parses the option's text: `auto`, `true` or `false`.
    pub fn parse(text: &str) -> Result<Staging, String> {
        match text.trim() {
            "auto" => Ok(Staging::Auto),
            "true" => Ok(Staging::Shared),
            "false" => Ok(Staging::Global),
            other => Err(format!(
                "expected auto (the tile model's choice where it can make one, else staged), true (stage tiles in shared memory) or false (global memory), got '{other}'"
            )),
        }
    }

    /// The staging a kernel uses: the given one, else the one the model chose (`recorded`:
    /// `poly-tile{sizes=auto}`'s record, or [`compare_staging`]'s answer), else staged.
    pub fn resolve(self, recorded: Option<bool>) -> bool {
        match self {
            Staging::Shared => true,
            Staging::Global => false,
            Staging::Auto => recorded.unwrap_or(true),
        }
    }
}

/// The [`PROBLEM_SIZE_ATTR`] that applies to `program`: its own, else the nearest enclosing
/// op's (the values given with `--param`); `None` where none was given.
pub fn given_problem_sizes(ir: &Ir, program: OpId) -> Option<&Attribute> {
    let mut holder = Some(program);
    while let Some(op) = holder.filter(|&op| ir.attr(op, PROBLEM_SIZE_ATTR).is_none()) {
        holder = ir.parent_op(op);
    }
    ir.attr(holder?, PROBLEM_SIZE_ATTR)
}

/// The problem sizes of `program`: [`PROBLEM_SIZE_ATTR`] (its own, else the nearest enclosing
/// op's: a program raised from `affine` loops during the pipeline has none of its own, and
/// `stencil-opt --param` puts the values on the module for it), else its declared defaults; in
/// the order of `params`.
pub fn problem_sizes(ir: &Ir, program: OpId, params: &[String]) -> Result<Vec<i64>, Diagnostic> {
    let given = match given_problem_sizes(ir, program) {
        None => None,
        Some(Attribute::Dictionary(entries)) => Some(entries),
        Some(_) => {
            return Err(op_error(ir, program, format!("'{PROBLEM_SIZE_ATTR}' must be a dictionary {{N = 64, …}}")))
        }
    };
    let declared = ProgramParams::of(ir, program);
    params
        .iter()
        .map(|name| {
            if let Some(v) = given.and_then(|e| get_named(e, name)) {
                return v.as_i64().ok_or_else(|| {
                    op_error(ir, program, format!("'{PROBLEM_SIZE_ATTR}': parameter '{name}' must be an integer"))
                });
            }
            let k = declared.names.iter().position(|n| n == name);
            k.and_then(|k| declared.defaults.get(k).copied().flatten()).ok_or_else(|| {
                op_error(
                    ir,
                    program,
                    format!("the tile model needs a value of parameter '{name}': give it with --param {name}=VALUE or declare a default"),
                )
            })
        })
        .collect()
}

/// Element sizes and bytes (at the problem sizes `params`: each SCoP parameter with its value)
/// of the SCoP's arrays, and arithmetic operations of its statements.
pub fn program_facts(ir: &Ir, info: &ScopInfo, params: &[(String, i64)]) -> ProgramFacts {
    let fields: Vec<Option<FieldType>> =
        info.arrays.iter().map(|&field| FieldType::from_type(ir.value_type(field))).collect();
    let element_bytes: Vec<u32> = fields
        .iter()
        .map(|f| f.as_ref().and_then(|f| f.element_type().bit_width()).map_or(8, |bits| bits.div_ceil(8)))
        .collect();
    let value_of = |name: &str| params.iter().find(|(p, _)| p == name).map(|&(_, v)| v);
    // 0 (unknown) when an extent is not a known positive value or the product overflows.
    let array_bytes = fields
        .iter()
        .zip(&element_bytes)
        .map(|(f, &bytes)| {
            f.as_ref()
                .and_then(|f| {
                    f.shape.iter().try_fold(u64::from(bytes), |acc, extent| {
                        let e = u64::try_from(extent.eval(&value_of)?).ok().filter(|&e| e > 0)?;
                        acc.checked_mul(e)
                    })
                })
                .unwrap_or(0)
        })
        .collect();
    let operations = info
        .statements
        .iter()
        .map(|origin| {
            let mut n = 0u32;
            ir.walk(origin.apply, WalkOrder::PreOrder, &mut |op| {
                let name = ir.op_name(op);
                if (name.starts_with("arith.") || name.starts_with("math.")) && name != "arith.constant" {
                    n += 1;
                }
            });
            n.max(1)
        })
        .collect();
    ProgramFacts { element_bytes, operations, array_bytes }
}

/// The shape of `program` (scheduled by `poly-schedule`) at its problem sizes: its tiled
/// nests and the host loops around them.
pub fn program_shape(
    ir: &Ir,
    registry: &DialectRegistry,
    program: OpId,
    base: &TilingSpec,
) -> Result<(ProgramShape, String), Diagnostic> {
    let tiled = reference_tiling(ir, registry, program, base)?;
    let scop = &tiled.info.scop;
    let params = problem_sizes(ir, program, scop.params())?;
    let named: Vec<(String, i64)> = scop.params().iter().cloned().zip(params.iter().copied()).collect();
    let facts = program_facts(ir, &tiled.info, &named);
    let shape = ProgramShape::new(scop, &tiled.tiled, &params, &facts).map_err(|e| {
        op_error(ir, program, format!("model-driven tile sizes: {e}; give sizes explicitly (poly-tile{{sizes=…}})"))
    })?;
    Ok((shape, tiled.info.program_name(ir).to_string()))
}

/// Thesis Alg. 5.1 for `program`: every tile size (or only `fixed_sizes`) and every block (or
/// only `fixed_block`), as `auto` configures it.
pub fn search_program(
    ir: &Ir,
    registry: &DialectRegistry,
    program: OpId,
    base: &TilingSpec,
    auto: &AutoOptions,
    fixed_sizes: Option<Vec<i64>>,
    fixed_block: Option<[i64; 3]>,
) -> Result<SearchReport, Diagnostic> {
    let (shape, name) = program_shape(ir, registry, program, base)?;
    search_shape(&shape, &name, auto, fixed_sizes, fixed_block, CHOICE_ONLY, None).map_err(|e| op_error(ir, program, e))
}

/// The layouts a search keeps when only its choice is used (`poly-tile{sizes=auto}`,
/// `gpu-map{block=auto}`): the branch and bound then prunes against the best layout found so
/// far instead of the tenth, and finds the same best layout several times sooner (3-D SOR at
/// 512³ on global memory: 5.6 s → 0.9 s with the H200 file).
pub const CHOICE_ONLY: usize = 1;

/// `poly-tile{sizes=auto}`'s layout of `program`: the search's choice with `auto`'s staging,
/// or with [`AutoOptions::staging_by_model`] the faster of the two searches' choices (staged
/// in shared memory and on global memory; the model's own comparison, so that a device whose
/// calibration says 3-D staged tiles are slow gets global ones). The staged search runs first
/// (it is the cheaper: its shared-memory bound leaves few sizes) and the global one only looks
/// for layouts faster than its choice (`SearchOptions::beat`), which spares it most of its
/// counting where staged tiles win (2-D SOR at 16384², T=50: `poly-tile` 0.72 → 0.10 s). An error
/// only when neither search finds a layout (the staged one's error then, as it was the
/// default).
pub fn choose_layout(
    ir: &Ir,
    registry: &DialectRegistry,
    program: OpId,
    base: &TilingSpec,
    auto: &AutoOptions,
) -> Result<(Vec<i64>, AutoChoice), Diagnostic> {
    choose_layout_beating(ir, registry, program, base, auto, None)?
        .ok_or_else(|| op_error(ir, program, "model-driven tile sizes: the search chose nothing"))
}

/// [`choose_layout`] looking only for layouts predicted faster than `beat` seconds (`None`: any):
/// `Ok(None)` when there is none.
fn choose_layout_beating(
    ir: &Ir,
    registry: &DialectRegistry,
    program: OpId,
    base: &TilingSpec,
    auto: &AutoOptions,
    beat: Option<f64>,
) -> Result<Option<(Vec<i64>, AutoChoice)>, Diagnostic> {
    let (shape, name) = program_shape(ir, registry, program, base)?;
    type Chosen = Option<(Vec<i64>, AutoChoice)>;
    let chosen = |auto: &AutoOptions, sizes: Option<Vec<i64>>, beat: Option<f64>| -> Result<Chosen, Diagnostic> {
        let report =
            search_shape(&shape, &name, auto, sizes, None, CHOICE_ONLY, beat).map_err(|e| op_error(ir, program, e))?;
        Ok(choice_of(&report, auto))
    };
    // The model's sizes of the final choice as the code generator should see them: the same
    // tiles, whole. (Only there: the searches and the seed below compare the model's sizes.)
    // The block is then the best one for the tiles that run: a row cut to its range changes
    // the steps' shape, and the block the model chose for the longer row may no longer be the
    // best (3-D SOR at 512³, T=20: 8x4x8x24 on 8x8x4 runs as 8x4x8x20, whose best block is
    // 20x8x1; the H200 ran 8x4x8x20 on 20x8x1 16 % (f64) and 27 % (f32) faster than the
    // uncut 8x4x8x24 on 8x8x4, bench/results/2026-11-27-h200-54152c3). Where that search
    // finds no block (it searched the model's sizes, not these), the model's block stays.
    let whole = |(sizes, mut choice): (Vec<i64>, AutoChoice)| {
        let cut = shape.one_tile_sizes(&sizes);
        if cut != sizes {
            match chosen(&choice.options, Some(cut.clone()), None) {
                Ok(Some((_, best))) if best.block != choice.block => {
                    choice.model_block = Some(choice.block);
                    choice.block = best.block;
                    choice.blocks_per_sm = best.blocks_per_sm;
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::debug!(error = %e.message, "sizes=auto: no block for the cut sizes; the model's stays")
                }
            }
            choice.model_sizes = Some(sizes);
        }
        (cut, choice)
    };
    if !auto.staging_by_model {
        return Ok(chosen(auto, None, beat)?.map(whole));
    }
    let staged = chosen(&AutoOptions { staging: true, ..auto.clone() }, None, beat);
    let global_options = AutoOptions { staging: false, ..auto.clone() };
    let staged_choice = staged.as_ref().ok().and_then(Option::as_ref);
    // The time to beat: the staged choice's, or less — its tile sizes run on global memory
    // (the best block for them, one count), a real global layout, which is often at or near
    // the global search's answer and lets it prune from the first size on (3-D SOR at 512³:
    // poly-tile 2.3 → 0.67 s). Either way a layout's time: the best stays exact.
    let seed = staged_choice.and_then(|(sizes, _)| {
        chosen(&global_options, Some(sizes.clone()), None).ok().flatten().map(|(_, c)| c.predicted_seconds)
    });
    let beat = [staged_choice.map(|s| s.1.predicted_seconds), seed, beat].into_iter().flatten().reduce(f64::min);
    let global = chosen(&global_options, None, beat);
    // A global layout only comes back when it is predicted at least as fast as the staged
    // choice; a tie goes to the staged one, as before `staging=auto`.
    let (mut winner, other) = match (staged, global) {
        (Ok(Some(s)), Ok(Some(g))) if g.1.predicted_seconds < s.1.predicted_seconds => (g, Some(s.1.predicted_seconds)),
        (Ok(Some(s)), _) => (s, None),
        (_, Ok(Some(g))) => (g, None),
        (Err(e), _) => return Err(e),
        (Ok(None), Err(e)) => return Err(e),
        (Ok(None), Ok(None)) => return Ok(None),
    };
    winner.1.other_staging_seconds = other;
    tracing::debug!(staged = winner.1.options.staging, seconds = winner.1.predicted_seconds, ?other, "staging=auto");
    Ok(Some(whole(winner)))
}

/// The block [`compare_staging`] predicts each staging with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RankedBlock {
    /// `gpu-map{block=…}`'s block.
    Given([i64; 3]),
    /// `gpu-map`'s default for tiled bands: the block that follows the tile
    /// ([`Block::following_tile`] of the sizes, one per band row).
    FollowingTile,
    /// `gpu-map{block=auto}`: each staging's best block for the sizes.
    Best,
}

/// The tile model's estimates for one set of tile sizes staged in shared memory and on global
/// memory ([`compare_staging`]).
#[derive(Debug, Clone, PartialEq)]
pub struct StagingEstimates {
    /// The staged layout: its block and predicted seconds.
    pub staged: AutoChoice,
    /// The same sizes on global memory.
    pub global: AutoChoice,
}

impl StagingEstimates {
    /// Whether the staged tiles are predicted at least as fast (a tie stages, as
    /// [`choose_layout`]'s comparison does).
    pub fn staging_wins(&self) -> bool {
        self.staged.predicted_seconds <= self.global.predicted_seconds
    }

    /// The winner as `poly-tile{sizes=auto staging=auto}` records its choice: with
    /// [`AutoOptions::staging_by_model`], and the loser's estimate as
    /// [`AutoChoice::other_staging_seconds`].
    pub fn choice(&self) -> AutoChoice {
        let (winner, loser) =
            if self.staging_wins() { (&self.staged, &self.global) } else { (&self.global, &self.staged) };
        let mut choice = winner.clone();
        choice.options.staging_by_model = true;
        choice.other_staging_seconds = Some(loser.predicted_seconds);
        choice
    }
}

impl RankedBlock {
    /// The block of `gpu-map`'s `block` option: `auto` (`block_auto`), a given block, or none.
    pub fn of_gpu_map(block: Option<[i64; 3]>, block_auto: bool) -> RankedBlock {
        match block {
            _ if block_auto => RankedBlock::Best,
            Some(block) => RankedBlock::Given(block),
            None => RankedBlock::FollowingTile,
        }
    }
}

/// `gpu-map{staging=auto}` for tile sizes `poly-tile` was given (`base.sizes`, not chosen by
/// the model): the model's estimate of those tiles staged and on global memory at the
/// program's problem sizes, each with the block `block` says — the comparison
/// [`choose_layout`] makes between its two searches' choices, for the layout that will run.
/// An error where the model cannot estimate either one (a program shape it does not cover,
/// staged tiles over `auto.shared_memory`, a block the sizes cannot run).
pub fn compare_staging(
    ir: &Ir,
    registry: &DialectRegistry,
    program: OpId,
    base: &TilingSpec,
    auto: &AutoOptions,
    block: RankedBlock,
) -> Result<StagingEstimates, Diagnostic> {
    let (shape, name) = program_shape(ir, registry, program, base)?;
    let sizes = row_sizes(&shape, base.sizes.clone());
    let block = match block {
        RankedBlock::Given(b) => Some(b),
        RankedBlock::FollowingTile => {
            let b = Block::following_tile(&sizes);
            Some([i64::from(b.x), i64::from(b.y), i64::from(b.z)])
        }
        RankedBlock::Best => None,
    };
    let estimate = |staging: bool| -> Result<AutoChoice, Diagnostic> {
        let options = AutoOptions { staging, staging_by_model: false, ..auto.clone() };
        let report = search_shape(&shape, &name, &options, Some(sizes.clone()), block, CHOICE_ONLY, None)
            .map_err(|e| op_error(ir, program, e))?;
        choice_of(&report, &options)
            .map(|(_, choice)| choice)
            .ok_or_else(|| op_error(ir, program, "model-driven staging: the model estimated no layout"))
    };
    Ok(StagingEstimates { staged: estimate(true)?, global: estimate(false)? })
}

/// The sizes the model evaluates for given tile `sizes` ([`search_shape`]): one per band row of
/// `shape`, each past its row's whole range cut to that range (the same tiles).
pub fn evaluated_sizes(shape: &ProgramShape, sizes: Vec<i64>) -> Vec<i64> {
    shape.one_tile_sizes(&row_sizes(shape, sizes))
}

/// `sizes` with one size per band row of `shape` (a single size is every row's).
pub fn row_sizes(shape: &ProgramShape, sizes: Vec<i64>) -> Vec<i64> {
    match sizes.as_slice() {
        [size] if shape.width() > 1 => vec![*size; shape.width()],
        _ => sizes,
    }
}

/// `poly-tile{sizes=auto}`'s whole request for `program`: [`choose_layout`]'s sizes and
/// block, and with `intra=auto` also the intra-tile wavefront. Where the first hyperplane runs
/// a step's statements as barrier-separated groups (time for Jacobi-like programs, thesis
/// Fig. 4.7) and the skewed wavefront `Σ φ_k` also leaves the point loops parallel, the two
/// organise a tile's work differently — few steps of full warps, each pass over the points
/// running one statement, or many steps of partly filled warps running them all — so the model
/// times both and the faster prediction is recorded (`intra = "skew"` when that one wins; a
/// tie keeps the first hyperplane). Without groups the balanced first hyperplane (thesis
/// Def. 4.1, Thm 4.1) is `auto`'s only candidate, as before.
pub fn choose_tiling(
    ir: &Ir,
    registry: &DialectRegistry,
    program: OpId,
    base: &TilingSpec,
    auto: &AutoOptions,
) -> Result<TilingSpec, Diagnostic> {
    let (sizes, choice) = choose_layout(ir, registry, program, base, auto)?;
    let first = TilingSpec { sizes, options: base.options, auto: Some(choice) };
    if base.options.intra_tile != IntraTile::Auto
        || !auto.compare_intra
        || !grouped_first_hyperplane(ir, registry, program, base)?
    {
        return Ok(first);
    }
    let skew = TilingSpec { options: TilingOptions { intra_tile: IntraTile::Skew, ..base.options }, ..base.clone() };
    // The skew is a candidate where it tiles with parallel point loops.
    if !reference_tiling(ir, registry, program, &skew).is_ok_and(|t| t.tiled.points_parallel()) {
        return Ok(first);
    }
    let Some(mut chosen) = first.auto.clone() else { return Ok(first) };
    chosen.intra_by_model = true;
    // The skewed search only looks for layouts faster than the first hyperplane's choice: the
    // branch and bound prunes what cannot win (`SearchOptions::beat`), as the global search does
    // against the staged choice.
    match choose_layout_beating(ir, registry, program, &skew, auto, Some(chosen.predicted_seconds)) {
        Ok(Some((sizes, mut other))) if other.predicted_seconds < chosen.predicted_seconds => {
            tracing::debug!(first = chosen.predicted_seconds, skew = other.predicted_seconds, "intra=auto: skew");
            other.intra_by_model = true;
            other.other_intra_seconds = Some(chosen.predicted_seconds);
            Ok(TilingSpec { sizes, options: skew.options, auto: Some(other) })
        }
        Err(e) => {
            // The skew is only a candidate: its search failing leaves the first hyperplane's.
            tracing::debug!(error = %e, "intra=auto: no skewed layout");
            Ok(TilingSpec { auto: Some(chosen), ..first })
        }
        _ => Ok(TilingSpec { auto: Some(chosen), ..first }),
    }
}

/// `program` tiled with `spec`'s options and 2 per row: its layout (dimensions, parallel flags,
/// intra-tile wavefront) does not depend on the sizes, so this reads it.
fn reference_tiling(
    ir: &Ir,
    registry: &DialectRegistry,
    program: OpId,
    spec: &TilingSpec,
) -> Result<TiledProgram, Diagnostic> {
    let reference = TilingSpec { sizes: vec![2], options: spec.options, auto: None };
    tile_program_with(ir, registry, program, &reference)
}

/// Whether `spec`'s options resolve, for `program`, to the first hyperplane with statement
/// groups inside each step (a statement-order dimension right after the intra-tile wavefront).
fn grouped_first_hyperplane(
    ir: &Ir,
    registry: &DialectRegistry,
    program: OpId,
    spec: &TilingSpec,
) -> Result<bool, Diagnostic> {
    let tiled = reference_tiling(ir, registry, program, spec)?.tiled;
    let grouped = tiled.dims.windows(2).any(|w| w[0].kind == DimKind::PointWavefront && w[1].kind == DimKind::Scalar);
    Ok(tiled.intra_tile.first() == Some(&IntraTile::FirstHyperplane) && grouped)
}

/// [`search_program`] on a program shape already read (`name`: the program's, for per-program
/// calibration values).
pub fn search_shape(
    shape: &ProgramShape,
    name: &str,
    auto: &AutoOptions,
    fixed_sizes: Option<Vec<i64>>,
    fixed_block: Option<[i64; 3]>,
    keep: usize,
    beat: Option<f64>,
) -> Result<SearchReport, String> {
    let calibration = auto.load_calibration()?;
    // Given sizes past a row's whole range run as one tile along it, the same tiles as that
    // row's range: the model evaluates those, whose intra-tile steps exist (tiles of 65536
    // over a row of 9 would count 65536 steps, and take seconds).
    let fixed_sizes = fixed_sizes.map(|s| evaluated_sizes(shape, s));
    let to_u32 = |v: i64| u32::try_from(v).unwrap_or(0);
    let options = SearchOptions {
        model: auto.model,
        staged: auto.staging,
        shared_limit: u64::try_from(auto.shared_memory).unwrap_or(0),
        registers: auto.registers.unwrap_or_else(|| calibration.registers_for(name, auto.staging)),
        min_reuse: auto.min_reuse,
        fixed_sizes,
        fixed_block: fixed_block.map(|b| Block::new(to_u32(b[0]), to_u32(b[1]), to_u32(b[2]))),
        keep,
        beat,
        threads: auto.threads,
        ..SearchOptions::default()
    };
    let report = match search_nests(shape, name, &calibration, &options) {
        // A problem so small that every block of a warp or more leaves a loop of the tile with
        // idle threads (the blockDim constraint prunes them all, e.g. 3x3 at T=1): one warp
        // then, most of it idle, rather than no tiles. Another reason to prune stays an error.
        Err(stencil_tilemodel::TileModelError::NoLayout(why)) if options.fixed_block.is_none() => {
            let warp = SearchOptions { fixed_block: Some(Block::new(stencil_tilemodel::intra::WARP, 1, 1)), ..options };
            search_nests(shape, name, &calibration, &warp)
                .map_err(|_| format!("model-driven tile sizes: no tile layout survives the search: {why}"))?
        }
        other => other.map_err(|e| format!("model-driven tile sizes: {e}"))?,
    };
    tracing::debug!(program = %name, elapsed_ms = report.elapsed.as_secs_f64() * 1e3, "tile-size search");
    Ok(report)
}

/// The [`AutoChoice`] of a search's best layout.
pub fn choice_of(report: &SearchReport, auto: &AutoOptions) -> Option<(Vec<i64>, AutoChoice)> {
    let best = report.choice()?;
    let problem: Vec<String> = report.params.iter().map(|(n, v)| format!("{n}={v}")).collect();
    Some((
        best.sizes.clone(),
        AutoChoice {
            options: auto.clone(),
            block: [i64::from(best.block.x), i64::from(best.block.y), i64::from(best.block.z)],
            predicted_seconds: best.prediction.seconds,
            blocks_per_sm: Some(best.blocks_per_sm),
            problem: problem.join(","),
            other_staging_seconds: None,
            intra_by_model: false,
            other_intra_seconds: None,
            model_sizes: None,
            model_block: None,
        },
    ))
}

/// Sets [`PROBLEM_SIZE_ATTR`] on every `stencil.program` at or below `root` to the values of
/// `params` that name one of its parameters (`stencil-run --param`, `stencil-opt --param`).
pub fn set_problem_sizes(ir: &mut Ir, root: OpId, params: &[(String, i64)]) {
    for program in crate::stencil_to_poly::stencil_programs(ir, root) {
        let names = ProgramParams::of(ir, program).names;
        if let Some(sizes) = problem_size_attribute(params.iter().filter(|(n, _)| names.contains(n))) {
            ir.set_attribute(program, PROBLEM_SIZE_ATTR, sizes);
        }
    }
}

/// The value of [`PROBLEM_SIZE_ATTR`] holding `params` (by name, each once); `None` without any.
pub fn problem_size_attribute<'p>(params: impl Iterator<Item = &'p (String, i64)>) -> Option<Attribute> {
    let mut entries: Vec<NamedAttribute> = params.map(|(n, v)| NamedAttribute::new(n, Attribute::i64(*v))).collect();
    if entries.is_empty() {
        return None;
    }
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    entries.dedup_by(|a, b| a.name == b.name);
    Some(Attribute::Dictionary(entries))
}
