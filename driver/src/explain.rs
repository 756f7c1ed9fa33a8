//! `stencil-opt --explain-tile-sizes`: the tile model's search (thesis Alg. 5.1) for every
//! `stencil.program` of a pipeline that tiles with `poly-tile`, with its best layouts, their
//! predicted times and what it pruned and why (`docs/tile-models.md`).
//!
//! The programs are read as the pipeline's (first, top-level) `poly-tile` leaves them
//! ([`TilingPipeline`]: `stencil-opt` keeps that IR from its run of the pipeline, the
//! calibration tool runs the pipeline up to there on a copy); then, per
//! program, the search runs again as `poly-tile` ran it: over every tile size and block with
//! `sizes=auto`, or over the blocks of the given sizes otherwise — or just the given layout
//! when a later `gpu-map` names its block. `gpu-map`'s `staging` and `shared-memory` then
//! override `poly-tile`'s (they describe the kernels that will run). [`program_layouts`] is
//! shared with the calibration tool (`crate::calibrate`).

use stencil_ir::pass::pipeline::{parse_pipeline, PipelineElement, PipelineSpec};
use stencil_ir::pass::{PassManager, PassManagerOptions, PassOptions};
use stencil_ir::{Diagnostic, Location, Module};
use stencil_passes::stencil_to_poly::stencil_programs;
use stencil_passes::tile::{PolyTileOptions, TilingSpec};
use stencil_passes::tile_model::{
    compare_staging, program_shape, search_shape, AutoChoice, AutoOptions, RankedBlock, Staging,
};
use stencil_poly::tiling::IntraTile;
use stencil_tilemodel::search::{SearchOptions, SearchReport};
use stencil_tilemodel::ProgramShape;

use crate::opt::Registries;

/// One program of a pipeline, as the tile model sees it after `poly-tile`.
#[derive(Debug, Clone)]
pub struct ProgramLayout {
    /// The program's name.
    pub program: String,
    /// Its tiled nests and host loops at the problem sizes.
    pub shape: ProgramShape,
    /// The tiling `poly-tile` recorded (with its `auto` choice, if any).
    pub spec: TilingSpec,
    /// The search options: `poly-tile`'s, or those its `sizes=auto` recorded, with `gpu-map`'s
    /// staging and shared-memory limit.
    pub search: AutoOptions,
    /// The block a later `gpu-map` names (not `auto`).
    pub block: Option<[i64; 3]>,
    /// For given tile sizes, a later `gpu-map{staging=auto}`'s choice between staged and global
    /// tiles (the model's estimates of both, `compare_staging`; `None` where the model cannot
    /// make it and `gpu-map` stages), recorded as `poly-tile{sizes=auto}` records its own.
    pub staging_choice: Option<AutoChoice>,
    /// Whether a later `gpu-map{staging=auto}` stages these given sizes without the model's
    /// choice, and so maps them on global memory where staged tiles are refused (e.g. over the
    /// shared memory): the explanation then does the same.
    pub staging_fallback: bool,
    /// Where the program is in the input (errors about its layouts point there).
    pub location: Location,
}

/// What the tile model reads of a pipeline: its first top-level `poly-tile` (its options and
/// the pipeline up to it) and a later `gpu-map`'s staging, shared-memory limit and block, which
/// describe the kernels that will run. Parsed before anything runs, so that a pipeline the
/// model cannot explain is refused first.
pub struct TilingPipeline {
    /// The pipeline up to and including its first top-level `poly-tile`.
    prefix: PipelineSpec,
    tile_options: PolyTileOptions,
    mapping: Option<(Staging, i64)>,
    block: Option<[i64; 3]>,
    /// `gpu-map{block=auto}`.
    block_auto: bool,
    /// The pipeline has no `poly-tile` but a top-level `gpu-map{strategy=auto}`: the prefix is
    /// the one `auto` runs on an SOR-like program (`poly-schedule,poly-tile{sizes=auto}`), and
    /// only the programs `auto` maps that way are explained ([`TilingPipeline::explained`]).
    pub for_auto: bool,
}

impl TilingPipeline {
    /// Reads `pipeline` (`None`: no `--pass-pipeline`, an error).
    pub fn parse(pipeline: Option<&str>, registries: &Registries) -> Result<TilingPipeline, Diagnostic> {
        let text = pipeline.ok_or_else(|| model_error("give a --pass-pipeline with poly-schedule and poly-tile"))?;
        let spec = parse_pipeline(text).map_err(|e| model_error(&e.to_string()))?;
        let position = |name: &str| {
            spec.elements.iter().position(|e| matches!(e, PipelineElement::Pass { name: n, .. } if n == name))
        };
        let Some(tile_at) = position("poly-tile") else {
            return Self::for_auto(&spec, registries);
        };
        let options_of = |at: usize| -> Result<PassOptions, Diagnostic> {
            let PipelineElement::Pass { name, options } = &spec.elements[at] else {
                return Err(model_error("internal: not a pass"));
            };
            let info = registries.passes.get(name).ok_or_else(|| model_error(&format!("unknown pass '{name}'")))?;
            info.parse_options(options).map_err(|e| model_error(&e))
        };
        let tile_options = PolyTileOptions::parse(&options_of(tile_at)?).map_err(|e| model_error(&e))?;
        let (mut mapping, mut block, mut block_auto) = (None, None, false);
        if let Some(at) = position("gpu-map").filter(|&g| g > tile_at) {
            let o = options_of(at)?;
            let staging =
                Staging::parse(o.string("staging")).map_err(|e| model_error(&format!("gpu-map staging: {e}")))?;
            mapping = Some((staging, o.int("shared-memory")));
            // gpu-map's own reading of its option.
            (block_auto, block) = stencil_lowering::gpu_map::block_option(&o).map_err(|e| model_error(&e))?;
        }
        let prefix = PipelineSpec { anchor: spec.anchor.clone(), elements: spec.elements[..=tile_at].to_vec() };
        Ok(TilingPipeline { prefix, tile_options, mapping, block, block_auto, for_auto: false })
    }

    /// A pipeline without `poly-tile`: explained where its top-level `gpu-map` is
    /// `strategy=auto`, as the `poly-schedule,poly-tile{sizes=auto}` that `auto` runs on an
    /// SOR-like program, with that `gpu-map`'s staging, shared memory and block.
    fn for_auto(spec: &PipelineSpec, registries: &Registries) -> Result<TilingPipeline, Diagnostic> {
        let no_tiling = || {
            model_error(
                "the pipeline has no top-level poly-tile and no gpu-map{strategy=auto}: the tile model explains poly-tile's sizes, or the tiles strategy=auto chooses for an SOR-like program",
            )
        };
        let at = spec
            .elements
            .iter()
            .position(|e| matches!(e, PipelineElement::Pass { name, .. } if name == "gpu-map"))
            .ok_or_else(no_tiling)?;
        let PipelineElement::Pass { options, .. } = &spec.elements[at] else { return Err(no_tiling()) };
        let info = registries.passes.get("gpu-map").ok_or_else(|| model_error("unknown pass 'gpu-map'"))?;
        let o = info.parse_options(options).map_err(|e| model_error(&e))?;
        if o.string("strategy") != "auto" {
            return Err(no_tiling());
        }
        let staging = Staging::parse(o.string("staging")).map_err(|e| model_error(&format!("gpu-map staging: {e}")))?;
        let (block_auto, block) = stencil_lowering::gpu_map::block_option(&o).map_err(|e| model_error(&e))?;
        let tile = vec![("sizes".to_string(), "auto".to_string())];
        let tile_info = registries.passes.get("poly-tile").ok_or_else(|| model_error("unknown pass 'poly-tile'"))?;
        let tile_options = PolyTileOptions::parse(&tile_info.parse_options(&tile).map_err(|e| model_error(&e))?)
            .map_err(|e| model_error(&e))?;
        let mut elements = spec.elements[..at].to_vec();
        // A program the pipeline scheduled already keeps its schedule (auto tiles on it).
        if !elements.iter().any(|e| matches!(e, PipelineElement::Pass { name, .. } if name == "poly-schedule")) {
            elements.push(PipelineElement::Pass { name: "poly-schedule".into(), options: vec![] });
        }
        elements.push(PipelineElement::Pass { name: "poly-tile".into(), options: tile });
        Ok(TilingPipeline {
            prefix: PipelineSpec { anchor: spec.anchor.clone(), elements },
            tile_options,
            mapping: Some((staging, o.int("shared-memory"))),
            block,
            // auto's wavefront takes the model's block unless one is given.
            block_auto: block_auto || block.is_none(),
            for_auto: true,
        })
    }

    /// For a pipeline of `gpu-map{strategy=auto}` (`for_auto`): of the programs in `layouts`, those
    /// `auto` mapped with the tile model's wavefront tiles in `mapped` (the module after the
    /// whole pipeline), and a line for each of the others saying what it took instead.
    pub fn explained(&self, layouts: Vec<ProgramLayout>, mapped: &Module) -> (Vec<ProgramLayout>, Vec<String>) {
        if !self.for_auto {
            return (layouts, vec![]);
        }
        let ir = &mapped.ir;
        let mut reasons = std::collections::HashMap::new();
        ir.walk(mapped.top, stencil_ir::ir::WalkOrder::PreOrder, &mut |op| {
            let name = ir.attr(op, "sym_name").and_then(stencil_ir::Attribute::as_str);
            if let (Some(name), Some(stencil_ir::Attribute::Dictionary(entries))) =
                (name, ir.attr(op, stencil_lowering::gpu_map::MAPPING_ATTR))
            {
                let get = |key: &str| {
                    stencil_ir::attributes::get_named(entries, key)
                        .and_then(stencil_ir::Attribute::as_str)
                        .map(str::to_string)
                };
                reasons
                    .insert(name.to_string(), (get("strategy").unwrap_or_default(), get("auto").unwrap_or_default()));
            }
        });
        let mut kept = vec![];
        let mut others = vec![];
        for layout in layouts {
            match reasons.get(&layout.program) {
                Some((strategy, why))
                    if strategy == "wavefront"
                        && why.contains("poly-tile{sizes=auto} would")
                        && !why.contains("intra-balance=false") =>
                {
                    kept.push(layout)
                }
                Some((strategy, why)) => others.push(format!(
                    "@{}: gpu-map{{strategy=auto}} mapped it with {strategy} ({why}), not with the tiles poly-tile{{sizes=auto}} chooses: nothing for the tile model to explain",
                    layout.program
                )),
                None => others.push(format!("@{}: gpu-map{{strategy=auto}} left no mapping record", layout.program)),
            }
        }
        (kept, others)
    }

    /// A copy of `module` after the pipeline up to its `poly-tile` (what the calibration tool
    /// reads; `stencil-opt` keeps it from its own run instead, `PassManager::keep_ir_after`).
    pub fn run_prefix(&self, module: &Module, registries: &Registries) -> Result<Module, Diagnostic> {
        let mut pm = PassManager::parse(&self.prefix.to_string(), &registries.passes, PassManagerOptions::default())
            .map_err(|e| model_error(&e.to_string()))?;
        let mut tiled = module.clone();
        pm.run(&mut tiled.ir, tiled.top, &registries.dialects)?;
        Ok(tiled)
    }

    /// Every program's [`ProgramLayout`] in `tiled`, the module as the pipeline's `poly-tile`
    /// left it.
    pub fn layouts(&self, tiled: &Module, registries: &Registries) -> Result<Vec<ProgramLayout>, Diagnostic> {
        let mut layouts = Vec::new();
        for program in stencil_programs(&tiled.ir, tiled.top) {
            let location = tiled.ir.location(program).clone();
            let spec = TilingSpec::read(&tiled.ir, program)?.ok_or_else(|| {
                Diagnostic::error(location.clone(), "tile model: poly-tile left a program untiled".to_string())
            })?;
            let mut search = spec.auto.as_ref().map_or_else(|| self.tile_options.search.clone(), |a| a.options.clone());
            let mut staging_choice = None;
            let mut staging_fallback = false;
            if let Some((staging, shared)) = self.mapping {
                // gpu-map's staging=auto follows what poly-tile chose; for given sizes it compares
                // them staged and on global memory as gpu-map does (or stages where the model
                // cannot tell).
                if staging == Staging::Auto && spec.auto.is_none() {
                    staging_choice = self.staging_choice(tiled, registries, program, &spec, shared);
                    staging_fallback = staging_choice.is_none();
                }
                let chosen = spec.auto.as_ref().or(staging_choice.as_ref()).map(|a| a.options.staging);
                search.staging = staging.resolve(chosen);
                search.shared_memory = shared;
            }
            let (shape, name) = program_shape(&tiled.ir, &registries.dialects, program, &spec)?;
            layouts.push(ProgramLayout {
                program: name,
                shape,
                spec,
                search,
                block: self.block,
                staging_choice,
                staging_fallback,
                location,
            });
        }
        Ok(layouts)
    }
}

impl TilingPipeline {
    /// `gpu-map{staging=auto}`'s choice for the given sizes of `spec` (`compare_staging`, with
    /// the block `gpu-map` will run), as an [`AutoChoice`] that says what it compared.
    fn staging_choice(
        &self,
        tiled: &Module,
        registries: &Registries,
        program: stencil_ir::OpId,
        spec: &TilingSpec,
        shared_memory: i64,
    ) -> Option<AutoChoice> {
        let block = RankedBlock::of_gpu_map(self.block, self.block_auto);
        let search = AutoOptions { shared_memory, ..AutoOptions::default() };
        compare_staging(&tiled.ir, &registries.dialects, program, spec, &search, block).ok().map(|e| e.choice())
    }
}

/// A tile-model error that no program location fits (the pipeline's).
fn model_error(message: &str) -> Diagnostic {
    Diagnostic::error(Location::Unknown, format!("tile model: {message}"))
}

/// Runs `pipeline` on a copy of `module` up to its first top-level `poly-tile` and reads every
/// program's [`ProgramLayout`] ([`TilingPipeline`]).
pub fn program_layouts(
    module: &Module,
    pipeline: Option<&str>,
    registries: &Registries,
) -> Result<Vec<ProgramLayout>, Diagnostic> {
    let tiling = TilingPipeline::parse(pipeline, registries)?;
    tiling.layouts(&tiling.run_prefix(module, registries)?, registries)
}

/// What `--explain-tile-sizes` says about one program.
#[derive(Debug, Clone)]
pub struct Explanation {
    /// The program's name.
    pub program: String,
    /// The search (with `staging=auto`, the one of the staging chosen).
    pub report: SearchReport,
    /// `poly-tile{sizes=auto staging=auto}`'s choice, which says what it compared
    /// ([`AutoOptions::staging_by_model`]), or for given sizes `gpu-map{staging=auto}`'s
    /// ([`ProgramLayout::staging_choice`]); `None` otherwise.
    pub staging_choice: Option<AutoChoice>,
    /// Whether the tile sizes were given (not `sizes=auto`): a staging choice then compared
    /// the same tiles both ways.
    pub given_sizes: bool,
    /// Where the predictions extrapolate: per mapping searched whose constants the calibration
    /// fitted to this program's own runs, when none of those ran at this problem size.
    pub extrapolations: Vec<String>,
    /// `poly-tile{sizes=auto intra=model}`'s choice between the first-hyperplane and the skewed
    /// intra-tile wavefront, where it had both (`tile_model::choose_tiling`): (the wavefront
    /// chosen, its predicted seconds, the other's best when known).
    pub intra_choice: Option<(&'static str, f64, Option<f64>)>,
    /// The problem's fields against the device's L2 (which `γ` the thesis model's global-memory
    /// kernels take, `stencil_tilemodel::calibration::ThesisProgram::gamma_in_l2`); `None`
    /// when either size is unknown.
    pub l2_note: Option<String>,
    /// How neighbouring threads of a tile's intra-tile step move through the arrays, per
    /// statement of every nest (`stencil_tilemodel::threads`): whether tiles on global memory
    /// can load coalesced. Empty with the skewed intra-tile wavefront.
    pub thread_steps: Vec<String>,
    /// `sizes=auto`'s sizes as the model evaluated them and as `poly.tiling` records them, when
    /// they differ (`AutoChoice::model_sizes`: a size past its row's range cut to one tile).
    pub one_tile_cut: Option<OneTileCut>,
    /// Given sizes and the ones the model evaluated for them, when they differ (each past its
    /// row's whole range cut to that range: `tile_model::evaluated_sizes`).
    pub given_cut: Option<(Vec<i64>, Vec<i64>)>,
    /// Why staged tiles were refused where `gpu-map{staging=auto}` maps given sizes on global
    /// memory instead ([`ProgramLayout::staging_fallback`]).
    pub staging_refused: Option<String>,
}

/// `sizes=auto`'s layout as the model evaluated it and as `poly.tiling` records it
/// (`AutoChoice::model_sizes`, `AutoChoice::model_block`).
#[derive(Debug, Clone, PartialEq)]
pub struct OneTileCut {
    /// The sizes the model evaluated.
    pub model_sizes: Vec<i64>,
    /// The recorded sizes: each past its row's range cut to one tile.
    pub sizes: Vec<i64>,
    /// When the best block for the recorded sizes differs from the model's: (the model's, the
    /// recorded one).
    pub blocks: Option<([i64; 3], [i64; 3])>,
}

/// What [`Explanation::extrapolations`] says for `program` at the problem sizes `params`, for
/// the mappings searched (`staged` values) under `calibration`.
fn extrapolations(
    calibration: &stencil_tilemodel::Calibration,
    program: &str,
    params: &[(String, i64)],
    mappings: &[bool],
) -> Vec<String> {
    let problem = stencil_tilemodel::fit::problem_text(params);
    mappings
        .iter()
        .filter_map(|&staged| {
            let measured = calibration.measured_problems(program, staged)?;
            (!measured.is_empty() && !measured.contains(&problem)).then(|| {
                format!(
                    "the calibration fitted the constants of {} to runs at {} only; at {problem} its predictions extrapolate",
                    stencil_tilemodel::calibration::program_key(program, staged),
                    measured.join("; ")
                )
            })
        })
        .collect()
}

/// One line on the problem's fields against the device's L2 cache: whether global-memory
/// tiles' loads stay in L2 across launches, and which `γ` the calibration gives them.
fn l2_note(calibration: &stencil_tilemodel::Calibration, program: &str, shape: &ProgramShape) -> Option<String> {
    let bytes = shape.nests.first()?.data_bytes();
    let l2 = calibration.device.l2_bytes;
    if bytes == 0 || l2 == 0 {
        return None;
    }
    let mib = |b: u64| b as f64 / f64::from(1u32 << 20);
    let size =
        |b: u64| if b < 1 << 20 { format!("{:.1} KiB", b as f64 / 1024.0) } else { format!("{:.1} MiB", mib(b)) };
    let share = calibration.device.l2_share(bytes);
    let key = stencil_tilemodel::calibration::program_key(program, false);
    let split = calibration.thesis.programs.get(&key).is_some_and(|p| p.gamma_in_l2.is_some());
    let gamma = if split {
        format!("global-memory tiles take {:.0} % of the calibration's γ of loads L2 keeps", share * 100.0)
    } else {
        "the calibration has one γ for both".to_string()
    };
    Some(format!(
        "fields: {} at these sizes, L2 {:.0} MiB keeps {:.0} % of them; {gamma}",
        size(bytes),
        mib(l2),
        share * 100.0
    ))
}

/// One line on what `staging=auto` chose over what (`given`: for given tile sizes, which it
/// compared both ways).
fn staging_line(choice: &AutoChoice, given: bool) -> String {
    let name = |staged: bool| if staged { "staged in shared memory" } else { "on global memory" };
    let staged = choice.options.staging;
    let other = match choice.other_staging_seconds {
        Some(s) if given => format!("{} they take {:.3} ms", name(!staged), s * 1e3),
        Some(s) => format!("the best layout {} takes {:.3} ms", name(!staged), s * 1e3),
        None => format!("no layout {} is predicted faster", name(!staged)),
    };
    let tiles = if given { "these tiles" } else { "tiles" };
    format!(
        "staging=auto: the model chose {tiles} {} ({:.3} ms); {other}",
        name(staged),
        choice.predicted_seconds * 1e3
    )
}

/// The search report of every program of `layouts` ([`TilingPipeline::layouts`]: `stencil-opt`
/// reads them from the IR its own run kept after `poly-tile`, so that its searches run once).
pub fn explain_tile_sizes(layouts: Vec<ProgramLayout>) -> Result<Vec<Explanation>, Diagnostic> {
    let mut reports = Vec::new();
    for layout in layouts {
        let (sizes, block) = match &layout.spec.auto {
            Some(_) => (None, None),
            None => (Some(layout.spec.sizes.clone()), layout.block),
        };
        let keep = SearchOptions::default().keep;
        // Located at the program, as poly-tile's own errors are: the explanation was asked
        // for, and these sizes leave nothing to explain (e.g. no block fits tiles of 1).
        let failed = |e: String| {
            Diagnostic::error(layout.location.clone(), format!("--explain-tile-sizes: @{}: {e}", layout.program))
        };
        let mut search = layout.search.clone();
        let mut staging_refused = None;
        let report = match search_shape(&layout.shape, &layout.program, &search, sizes.clone(), block, keep, None) {
            Ok(report) => report,
            // As gpu-map{staging=auto} does: staged tiles refused, the same tiles on global
            // memory (and if those fail too, the staged refusal is the one to read).
            Err(refused) if layout.staging_fallback && search.staging => {
                search.staging = false;
                let report = search_shape(&layout.shape, &layout.program, &search, sizes.clone(), block, keep, None)
                    .map_err(|_| failed(refused.clone()))?;
                staging_refused = Some(refused);
                report
            }
            Err(e) => return Err(failed(e)),
        };
        let staging_choice =
            layout.spec.auto.clone().filter(|a| a.options.staging_by_model).or(layout.staging_choice.clone());
        let calibration = search.load_calibration().map_err(|e| failed(e.to_string()))?;
        let mappings: &[bool] = if staging_choice.is_some() { &[true, false] } else { &[search.staging] };
        let extrapolations = extrapolations(&calibration, &layout.program, &layout.shape.params, mappings);
        let l2_note = l2_note(&calibration, &layout.program, &layout.shape);
        let thread_steps = layout
            .shape
            .nests
            .iter()
            .filter_map(stencil_tilemodel::thread_steps)
            .flatten()
            .map(|step| step.to_string())
            .collect();
        let intra_choice = layout.spec.auto.as_ref().filter(|a| a.intra_by_model).map(|a| {
            let chosen = if layout.spec.options.intra_tile == IntraTile::Skew { "skewed" } else { "first-hyperplane" };
            (chosen, a.predicted_seconds, a.other_intra_seconds)
        });
        let one_tile_cut = layout.spec.auto.as_ref().and_then(|a| {
            a.model_sizes.clone().map(|model_sizes| OneTileCut {
                model_sizes,
                sizes: layout.spec.sizes.clone(),
                blocks: a.model_block.map(|model| (model, a.block)),
            })
        });
        let given_cut = sizes.as_ref().and_then(|given| {
            let evaluated = stencil_passes::tile_model::evaluated_sizes(&layout.shape, given.clone());
            let per_row = stencil_passes::tile_model::row_sizes(&layout.shape, given.clone());
            (evaluated != per_row).then_some((given.clone(), evaluated))
        });
        reports.push(Explanation {
            program: layout.program,
            report,
            staging_choice,
            given_sizes: layout.spec.auto.is_none(),
            intra_choice,
            extrapolations,
            l2_note,
            thread_steps,
            one_tile_cut,
            given_cut,
            staging_refused,
        });
    }
    Ok(reports)
}

/// The reports as `//` comment lines (they precede the IR in `stencil-opt`'s output).
pub fn render_comments(reports: &[Explanation]) -> String {
    let mut out = String::new();
    for e in reports {
        out.push_str(&format!("// tile sizes of @{}:\n", e.program));
        if let Some(choice) = &e.staging_choice {
            out.push_str(&format!("// {}\n", staging_line(choice, e.given_sizes)));
        }
        if let Some(reason) = &e.staging_refused {
            out.push_str(&format!(
                "// staging=auto: staged tiles are refused ({reason}); these tiles run on global memory\n"
            ));
        }
        let x = |s: &[i64]| s.iter().map(i64::to_string).collect::<Vec<_>>().join("x");
        if let Some((given, evaluated)) = &e.given_cut {
            out.push_str(&format!(
                "// sizes: the given {} are evaluated as {}: the same tiles, each size past its row's whole range cut to that range\n",
                x(given),
                x(evaluated)
            ));
        }
        if let Some(cut) = &e.one_tile_cut {
            out.push_str(&format!(
                "// sizes: the model's {} are tiled as {}: the same tiles, each size past its row's whole range cut to the least size of one tile, so that they run whole\n",
                x(&cut.model_sizes),
                x(&cut.sizes)
            ));
            if let Some((model, chosen)) = &cut.blocks {
                out.push_str(&format!(
                    "// block: {} (the best for {}; the model's {} chose {})\n",
                    x(chosen),
                    x(&cut.sizes),
                    x(&cut.model_sizes),
                    x(model)
                ));
            }
        }
        if let Some((chosen, seconds, other)) = &e.intra_choice {
            let other_name = if *chosen == "skewed" { "first-hyperplane" } else { "skewed" };
            let other = match other {
                Some(s) => format!("the best {other_name} layout takes {:.3} ms", s * 1e3),
                None => format!("no {other_name} layout is predicted faster"),
            };
            out.push_str(&format!(
                "// intra=model: the model chose the {chosen} intra-tile wavefront ({:.3} ms); {other}\n",
                seconds * 1e3
            ));
        }
        for note in &e.extrapolations {
            out.push_str(&format!("// note: {note}\n"));
        }
        if let Some(note) = &e.l2_note {
            out.push_str(&format!("// {note}\n"));
        }
        for line in e.report.to_string().lines() {
            out.push_str("// ");
            out.push_str(line);
            out.push('\n');
        }
        if !e.thread_steps.is_empty() {
            out.push_str("// neighbouring threads along x (one more on the last band row; tiles on global memory load so, staged ones copy their box row by row):\n");
            for step in &e.thread_steps {
                out.push_str(&format!("//   {step}\n"));
            }
        }
    }
    out
}

/// The reports as one JSON document: `{"programs": [{"program": …, "report": …}]}`, with
/// `"staging_auto": {"staged", "chosen_s", "other_s"}` where `staging=auto` chose and
/// `"intra_auto": {"chosen", "chosen_s", "other_s"}` where `intra=model` had two candidates.
pub fn render_json(reports: &[Explanation]) -> String {
    let programs: Vec<serde_json::Value> = reports
        .iter()
        .map(|e| {
            let mut entry = serde_json::json!({"program": e.program, "report": e.report.to_json()});
            if let Some(c) = &e.staging_choice {
                entry["staging_auto"] = serde_json::json!({
                    "staged": c.options.staging,
                    "chosen_s": c.predicted_seconds,
                    "other_s": c.other_staging_seconds,
                });
            }
            if let Some((chosen, seconds, other)) = e.intra_choice {
                entry["intra_auto"] = serde_json::json!({"chosen": chosen, "chosen_s": seconds, "other_s": other});
            }
            if let Some(reason) = &e.staging_refused {
                entry["staging_refused"] = serde_json::json!(reason);
            }
            if let Some((given, evaluated)) = &e.given_cut {
                entry["given_cut"] = serde_json::json!({"sizes": given, "evaluated_sizes": evaluated});
            }
            if let Some(cut) = &e.one_tile_cut {
                entry["one_tile_cut"] = serde_json::json!({"model_sizes": cut.model_sizes, "sizes": cut.sizes});
                if let Some((model, chosen)) = &cut.blocks {
                    entry["one_tile_cut"]["model_block"] = serde_json::json!(model);
                    entry["one_tile_cut"]["block"] = serde_json::json!(chosen);
                }
            }
            if !e.extrapolations.is_empty() {
                entry["extrapolations"] = serde_json::json!(e.extrapolations);
            }
            if !e.thread_steps.is_empty() {
                entry["thread_steps"] = serde_json::json!(e.thread_steps);
            }
            entry
        })
        .collect();
    serde_json::to_string_pretty(&serde_json::json!({ "programs": programs })).unwrap_or_default() + "\n"
}
