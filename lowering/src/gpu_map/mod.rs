//! The `gpu-map` pass: a `stencil.program` becomes a host `func.func` (the lowered-program
//! convention of `docs/runtime.md`) plus a `gpu.module` of kernels (thesis §3.3.2, Fig. 3.17,
//! §5.2.2; DESIGN §7).
//!
//! How the program's work is spread over launches, blocks and threads is a *mapping strategy*
//! (`MappingStrategy`); each owns its kernel builder and shares the op builders (`ops`,
//! `arith`) and the program walk (`nest`):
//!
//! * `wavefront` (default): the thesis' mapping of a scheduled and tiled program — one launch
//!   per inter-tile wavefront, tiles of a wavefront over the blocks, intra-tile wavefronts
//!   separated by barriers, each tile staged in shared memory (`wavefront`, `kernel`,
//!   `staging`). Works for every program `poly-schedule`/`poly-tile` can tile, SOR included.
//! * `naive`: the baseline people write by hand — one kernel per `stencil.apply` per time step
//!   over its whole box, one thread per point on a 1-, 2- or 3-D grid (`naive`). DOALL
//!   applies only.
//! * `overlapped`: temporal blocking for DOALL programs — each block loads its tile plus a halo
//!   into shared memory, runs several time steps there (recomputing the halo it needs instead of
//!   exchanging it) and writes its tile back; one launch per group of time steps (`overlapped`).
//! * `auto`: the strategy the measured benchmarks favour for the program — `wavefront` for a
//!   scheduled or tiled program, else `overlapped` (1-D/2-D) or `naive` (3-D) where they apply,
//!   else `wavefront` (`auto`).
//! * `streaming`: temporal blocking for 2-D/3-D DOALL programs that streams along the outermost
//!   dimension — a block owns a column, keeps rings of planes in shared memory and pipelines a
//!   launch's time steps along it, recomputing halos only in the other dimensions (`streaming`).
//! * `mlsor`: the kernels of the parallel multi-layer SOR method for a program `stencil-mlsor`
//!   rewrote — one launch per kernel and sweep, one thread per tile running all its layers
//!   (`mlsor`).

pub(crate) mod arith;
mod auto;
mod deal;
mod host;
mod kernel;
mod mlsor;
mod naive;
mod nest;
pub(crate) mod ops;
mod overlapped;
mod staging;
mod streaming;
mod wavefront;

use stencil_dialects::support::op_error;
use stencil_ir::pass::{OptionInfo, OptionKind, Pass, PassContext, PassFactory, PassInfo};
use stencil_ir::{Attribute, DiagResult, Diagnostic, DialectRegistry, Ir, NamedAttribute, OpId};
use stencil_passes::stencil_to_poly::stencil_programs;
pub use stencil_passes::tile_model::Staging;

/// Which mapping strategy `gpu-map` uses (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// The thesis' wavefront tiles (needs nothing, uses `poly-schedule`/`poly-tile` results).
    Wavefront,
    /// One thread per point, one launch per apply and time step (DOALL applies only).
    Naive,
    /// Temporal blocking with overlapped tiles in shared memory (DOALL applies only).
    Overlapped,
    /// Temporal blocking streaming along the outermost dimension (2-D/3-D DOALL applies only).
    Streaming,
    /// MLSOR's kernels, one thread per tile (programs `stencil-mlsor` rewrote).
    Mlsor,
    /// The strategy the measured benchmarks favour for the program (`auto` module docs).
    Auto,
}

impl Strategy {
    /// Parses `strategy=…`.
    pub fn parse(text: &str) -> Result<Strategy, String> {
        match text {
            "wavefront" => Ok(Strategy::Wavefront),
            "naive" => Ok(Strategy::Naive),
            "overlapped" => Ok(Strategy::Overlapped),
            "streaming" => Ok(Strategy::Streaming),
            "mlsor" => Ok(Strategy::Mlsor),
            "auto" => Ok(Strategy::Auto),
            other => Err(format!(
                "unknown strategy '{other}': choose wavefront (tiled, the default), naive, overlapped, streaming, mlsor or auto"
            )),
        }
    }

    fn implementation(self) -> &'static dyn MappingStrategy {
        match self {
            Strategy::Wavefront => &wavefront::Wavefront,
            Strategy::Naive => &naive::Naive,
            Strategy::Overlapped => &overlapped::Overlapped,
            Strategy::Streaming => &streaming::Streaming,
            Strategy::Mlsor => &mlsor::MlsorKernels,
            Strategy::Auto => &auto::Auto,
        }
    }
}

/// Options of [`map_program`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuMapOptions {
    /// The mapping strategy.
    pub strategy: Strategy,
    /// Threads per block along x, y, z (each `≥ 1`); `None`: the strategy's default for the
    /// program's rank (or, with `block_auto`, the tile model's choice).
    pub block: Option<[i64; 3]>,
    /// `block=auto` (wavefront strategy): the block the tile model chose with `poly-tile{sizes=auto}`,
    /// or its search over blocks for the given tile sizes (thesis Alg. 5.1).
    pub block_auto: bool,
    /// Wavefront strategy: the most blocks per grid axis (`0`: one block per tile of a
    /// wavefront, no loop over tiles in the kernel; an axis with more tiles than CUDA allows
    /// blocks takes several launches, each passing its first tile per axis as the kernel's last
    /// arguments); blocks of the cyclic fallback (`0`: [`FALLBACK_GRID`]). MLSOR strategy: the
    /// most blocks per axis (`0`: as many as the subdomains need).
    pub grid: i64,
    /// Stage each tile's footprint in workgroup (shared) memory (wavefront and MLSOR
    /// strategies; thesis Fig. 3.17 ①–③); `auto`: as `poly-tile{sizes=auto}` chose, for given
    /// sizes as the tile model estimates them (wavefront), else staged ([`Staging::resolve`]).
    pub staging: Staging,
    /// Most bytes of workgroup memory one kernel may use (CUDA's static limit by default).
    pub shared_memory: i64,
    /// Overlapped and streaming strategies: the points a block owns per dimension, outermost
    /// first (empty: the default for the rank).
    pub tile: Vec<i64>,
    /// Overlapped and streaming strategies: time steps per launch (`0`: the default).
    pub time_tile: i64,
    /// Wavefront strategy: tiles wholly inside the domains run loops with the tile's bounds
    /// alone (full/partial tile separation; on by default, as measured faster on an H200).
    pub full_tiles: bool,
    /// Wavefront strategy: what the tiles that are not run as full tiles run.
    pub partial_tiles: PartialTiles,
    /// Streaming strategy: load each plane one stream step ahead into registers, so that the
    /// global loads overlap the step's barriers and computation (software pipelining).
    pub prefetch: bool,
    /// MLSOR strategy: threads per tile (1: a thread runs its tile lexicographically; more: the
    /// tile's anti-diagonals one after another, 2-D; `0`: automatic, see `mlsor`).
    pub tile_threads: i64,
    /// Ask ptxas for the blocks per SM a model plans (`MIN_BLOCKS_ATTR` on the kernels), so
    /// that the kernels' registers allow that residency (`occupancy=model`): with the wavefront
    /// strategy's `block=auto` the tile model's for its layout; with overlapped and streaming
    /// tiles the residency that hides DRAM latency (`overlapped::latency_hiding_blocks`).
    /// `false`: ptxas chooses (`occupancy=ptxas`, the default).
    pub occupancy_by_model: bool,
    /// Type the fields with the run's sizes (`static-shapes=true`): static memref shapes for
    /// the problem sizes `--param` gave, so that strides are constants in the kernels (every
    /// neighbour an immediate offset in the PTX, `ptx::flat_addresses`) and the code, and its
    /// fingerprint, belong to those sizes. Refused where no sizes were given.
    pub static_shapes: bool,
}

/// The code the wavefront strategy runs in tiles that do not take the full-tile loops
/// (`gpu-map{partial-tiles=…}`): all tiles without `full-tiles`, the boundary tiles with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartialTiles {
    /// The general loops: at every level the maximum and minimum of every domain and tiling
    /// bound, recomputed at every step of the intra-tile wavefront.
    General,
    /// The full-tile loops (the tile's own bounds) with each statement instance guarded by its
    /// domain (`stencil_poly::codegen::FullTiles::guarded`): the same instances in the same
    /// order, simple bounds, one test per instance.
    Guarded,
}

impl PartialTiles {
    /// Parses `partial-tiles=…`.
    pub fn parse(text: &str) -> Result<PartialTiles, String> {
        match text {
            "general" => Ok(PartialTiles::General),
            "guarded" => Ok(PartialTiles::Guarded),
            other => Err(format!(
                "unknown partial-tile code '{other}': choose guarded (the full-tile loops with a domain test per instance) or general (the exact loops of the scanned nest)"
            )),
        }
    }

    /// The option's spelling.
    pub fn name(self) -> &'static str {
        match self {
            PartialTiles::General => "general",
            PartialTiles::Guarded => "guarded",
        }
    }
}

/// Blocks of the wavefront strategy's cyclic fallback when `grid` is automatic: one per SM of
/// the H100.
pub const FALLBACK_GRID: i64 = 132;

/// CUDA's limit on static shared memory per block (48 KiB); more needs dynamic shared memory.
pub const DEFAULT_SHARED_MEMORY: i64 = 48 * 1024;

impl Default for GpuMapOptions {
    fn default() -> Self {
        GpuMapOptions {
            strategy: Strategy::Wavefront,
            block: None,
            block_auto: false,
            grid: 0,
            staging: Staging::Auto,
            shared_memory: DEFAULT_SHARED_MEMORY,
            tile: vec![],
            time_tile: 0,
            full_tiles: true,
            partial_tiles: PartialTiles::Guarded,
            prefetch: false,
            tile_threads: 0,
            occupancy_by_model: false,
            static_shapes: false,
        }
    }
}

/// A way of mapping a `stencil.program` to a host function and kernels.
pub(crate) trait MappingStrategy {
    /// The name `gpu-map{strategy=…}` uses.
    fn name(&self) -> &'static str;

    /// Replaces `program` by its host function and a `gpu.module` of kernels; returns the host
    /// function. On error the IR is left as it was.
    fn map(
        &self,
        ir: &mut Ir,
        registry: &DialectRegistry,
        program: OpId,
        options: &GpuMapOptions,
    ) -> Result<OpId, Diagnostic>;
}

/// Replaces `program` by its host function and a `gpu.module` of kernels, with the strategy of
/// `options`; returns the host function. The enclosing module gets `gpu.container_module`.
pub fn map_program(
    ir: &mut Ir,
    registry: &DialectRegistry,
    program: OpId,
    options: &GpuMapOptions,
) -> Result<OpId, Diagnostic> {
    let strategy = options.strategy.implementation();
    let _span = tracing::debug_span!("gpu-map", strategy = strategy.name()).entered();
    let scope = ir.parent_op(program);
    let name = ir.attr(program, "sym_name").and_then(Attribute::as_str).unwrap_or("").to_string();
    // static-shapes=true without the sizes: one error, before any strategy builds anything.
    static_sizes(ir, program, options).map_err(|e| op_error(ir, program, format!("gpu-map failed: {e}")))?;
    let host = strategy.map(ir, registry, program, options).map_err(|refused| {
        // Only MLSOR's own kernels (and strategy=auto, which takes them) map the parallel
        // sweeps of a stencil-mlsor rewrite; say so where another strategy refused it.
        if matches!(options.strategy, Strategy::Mlsor | Strategy::Auto) || !auto::mlsor_program(ir, program) {
            return refused;
        }
        let location = refused.location.clone();
        refused.with_note(
            location,
            "the program is a stencil-mlsor rewrite: gpu-map{strategy=mlsor} maps it with MLSOR's own kernels (strategy=auto takes them too)",
        )
    })?;
    if let Some(scope) = scope {
        merge_common_subexpressions(ir, registry, scope, &format!("{name}_kernels"));
        // Calls of the program (raise-affine-to-stencil's wrappers) now call the host function.
        stencil_passes::raise::lower_stencil_calls(ir, scope, &name, host)
            .map_err(|e| op_error(ir, host, format!("gpu-map: {e}")))?;
    }
    Ok(host)
}

/// Runs common-subexpression elimination over the kernels of the `gpu.module` `module` in
/// `scope`. The kernel builders derive every loop bound, guard and index from its affine form
/// on its own, so the same products and sums recur (a tile's origin times a row's coefficient,
/// in every bound and subscript that uses it); a GPU compiler merges them, and so must the code
/// the simulator counts, or its cost report would charge a kernel for repetitions no GPU
/// executes (2-D Jacobi, tiles of 16, 512², T=8: 6.45 → 3.67 warp-instructions per update).
/// Loop-invariant code motion would take another 4 % (3.54; `loop-invariant-code-motion` in a
/// pipeline does it) and is left to the pipeline.
fn merge_common_subexpressions(ir: &mut Ir, registry: &DialectRegistry, scope: OpId, module: &str) {
    let modules: Vec<OpId> = ir
        .regions(scope)
        .to_vec()
        .into_iter()
        .flat_map(|r| ir.blocks(r).to_vec())
        .flat_map(|b| ir.block_ops(b))
        .filter(|&op| {
            ir.op_name(op) == "gpu.module" && ir.attr(op, "sym_name").and_then(Attribute::as_str) == Some(module)
        })
        .collect();
    for m in modules {
        let erased = stencil_ir::pass::cse::eliminate_common_subexpressions(ir, m, registry);
        tracing::debug!(module, erased, "gpu-map: common subexpressions merged");
    }
}

/// The attribute of the host function that records how `gpu-map` mapped the program: a
/// dictionary with at least `strategy`, and the block, tile and shared-memory choices of that
/// strategy. `stencil-run` reports it.
pub const MAPPING_ATTR: &str = "stencil.gpu_mapping";

/// Whether the IR at or below `root` holds GPU kernels (a `gpu.module`: `gpu-map` ran), which
/// the simulator and GPU targets run; an unmapped program would run on the CPU there.
pub fn is_gpu_mapped(ir: &Ir, root: OpId) -> bool {
    ir.collect_ops(root, stencil_ir::ir::WalkOrder::PreOrder).into_iter().any(|op| ir.op_name(op) == "gpu.module")
}

/// The kernel attribute MLIR's NVVM lowering turns into PTX's `.minnctapersm` (the least
/// blocks per SM ptxas must leave room for: its register budget follows).
pub(super) const MIN_BLOCKS_ATTR: &str = "nvvm.minctasm";

/// Records the mapping on the host function `func` ([`MAPPING_ATTR`]).
pub(crate) fn record_mapping(ir: &mut Ir, func: OpId, strategy: &str, entries: Vec<(&str, Attribute)>) {
    // Sorted by name, as a parsed dictionary is: the printed program then parses back to the
    // same attribute and prints identically.
    let mut dictionary = vec![NamedAttribute::new("strategy", Attribute::string(strategy))];
    for (name, value) in entries {
        stencil_ir::attributes::set_named(&mut dictionary, name, value);
    }
    ir.set_attribute(func, MAPPING_ATTR, Attribute::Dictionary(dictionary));
}

/// `[a, b, c]` as an attribute.
pub(crate) fn int_array(values: &[i64]) -> Attribute {
    Attribute::Array(values.iter().map(|&v| Attribute::i64(v)).collect())
}

/// What the direct strategies (`naive`, `overlapped`) start from: the SCoP (whose statement
/// bodies they copy into kernels) and the program's nest of iterates and applies.
fn direct_program(
    ir: &Ir,
    registry: &DialectRegistry,
    program: OpId,
    strategy: &str,
) -> Result<(stencil_passes::stencil_to_poly::ScopInfo, Vec<nest::NestItem>), Diagnostic> {
    let info = stencil_passes::stencil_to_poly::extract_scop(ir, registry, program)?;
    let nest = nest::program_nest(ir, program, &info).map_err(|e| mapping_error(ir, program, strategy, e))?;
    Ok((info, nest))
}

/// The reason of a strategy's refusal: its message without the op and pass prefix
/// ([`mapping_error`]'s `… failed: `).
pub(super) fn refusal_reason(e: &Diagnostic) -> &str {
    let message = e.message.strip_prefix("'stencil.program' op ").unwrap_or(&e.message);
    message.split_once("failed: ").map_or(message, |(_, r)| r)
}

/// The error of a strategy that cannot map `program`, located at it.
pub(super) fn mapping_error(ir: &Ir, program: OpId, strategy: &str, message: impl std::fmt::Display) -> Diagnostic {
    op_error(ir, program, format!("gpu-map{{strategy={strategy}}} failed: {message}"))
}

/// Registration record of `gpu-map`.
pub fn pass_info() -> PassInfo {
    PassInfo {
        argument: "gpu-map",
        summary: "Map each stencil.program to a host func.func and a gpu.module of kernels, with a mapping strategy: wavefront (the thesis' tiles, default), naive (one thread per point), overlapped or streaming (temporal blocking of DOALL programs)",
        options: vec![
            OptionInfo {
                name: "strategy",
                kind: OptionKind::String,
                default: "wavefront",
                description: "wavefront: one launch per inter-tile wavefront of the poly-schedule/poly-tile tiling, tiles over blocks, barriers between intra-tile wavefronts; naive: one kernel per apply and time step, one thread per point (DOALL only); overlapped: several time steps per launch on tiles with halos in shared memory (DOALL only); streaming: several time steps per launch pipelined along the outermost dimension on rings of planes in shared memory (2-D/3-D DOALL only); mlsor: the kernels of a program stencil-mlsor rewrote, one launch per kernel and sweep, one thread per tile running all K layers; auto: wavefront for a scheduled or tiled program, mlsor for an MLSOR program, else overlapped (1-D/2-D), or in 3-D streaming with prefetch and occupancy=model where a step's applies fuse without recomputed halos (Jacobi's copy-back) and naive otherwise, where they apply, else wavefront",
            },
            OptionInfo {
                name: "naive",
                kind: OptionKind::Bool,
                default: "false",
                description: "Same as strategy=naive",
            },
            OptionInfo {
                name: "block",
                kind: OptionKind::String,
                default: "",
                description: "Threads per block along x[,y[,z]] (innermost dimension on x); default: wavefront shaped like a tile's intra-tile step (the tile sizes of the band rows after the first, innermost on x, 256 threads at most: 16,16 for 2-D tiles of 16), 256 when untiled; 256 / 32,8 / 32,4,2 for naive, overlapped and streaming by rank; auto (wavefront): the tile model's choice (poly-tile{sizes=auto}'s, or its search over blocks for the given sizes)",
            },
            OptionInfo {
                name: "staging",
                kind: OptionKind::String,
                default: "auto",
                description: "wavefront and mlsor: stage each tile in workgroup (shared) memory (true: load exactly what it reads, barrier, compute, barrier, store back exactly what it wrote) or not (false: global memory); auto: as poly-tile{sizes=auto} chose (its model compares both), for given sizes as the model compares those sizes at the problem sizes, else staged",
            },
            OptionInfo {
                name: "shared-memory",
                kind: OptionKind::Int,
                default: "49152",
                description: "Most bytes of workgroup memory per kernel; a larger tile footprint is an error",
            },
            OptionInfo {
                name: "grid",
                kind: OptionKind::Int,
                default: "0",
                description: "wavefront: at most this many blocks per grid axis, which then take several tiles in turn (0: a block per tile of the wavefront, no loop over tiles in the kernel, several launches where an axis exceeds CUDA's grid limits); the cyclic fallback for tile loops that do not map to grid axes uses this many blocks (0: 132); mlsor: at most this many blocks per axis (0: as many as the subdomains need)",
            },
            OptionInfo {
                name: "full-tiles",
                kind: OptionKind::Bool,
                default: "true",
                description: "wavefront: tiles wholly inside the iteration domain run loops with the tile's own bounds (tested once per tile, two code paths); false: every tile runs the partial-tile code",
            },
            OptionInfo {
                name: "partial-tiles",
                kind: OptionKind::String,
                default: "guarded",
                description: "wavefront: the code of the tiles that do not run as full tiles (all of them with full-tiles=false); guarded: the full-tile loops with a domain test per statement instance (simple bounds, same instances in the same order); general: the scanned loops, every domain and tiling bound at every level",
            },
            OptionInfo {
                name: "tile",
                kind: OptionKind::IntList,
                default: "",
                description: "overlapped: points per block along each dimension, outermost first; default 32,64 (2-D), 1024 (1-D), 4,8,32 (3-D); streaming: the chunk along the outermost dimension, then the plane tile; default 128,256 (2-D), 64,16,32 (3-D)",
            },
            OptionInfo {
                name: "time-tile",
                kind: OptionKind::Int,
                default: "0",
                description: "overlapped, streaming: time steps per launch (0: the largest the shared-memory limit allows, at most 8)",
            },
            OptionInfo {
                name: "tile-threads",
                kind: OptionKind::Int,
                default: "0",
                description: "mlsor: threads per tile; 1 runs a tile lexicographically (the thesis' kernels), more run its anti-diagonals one after another separated by barriers, each thread taking every n-th row (2-D; the same bits), the tile's threads on x; 0: automatic (2-D without a given block: the power of two covering a tile's P - 1 rows, at most 8; else 1)",
            },
            OptionInfo {
                name: "occupancy",
                kind: OptionKind::String,
                default: "ptxas",
                description: "model asks ptxas (nvvm.minctasm, .minnctapersm in the PTX: the registers that residency allows) for the blocks per SM a model plans: with wavefront block=auto the tile model's for the layout, with overlapped and streaming tiles the residency that hides DRAM latency (the cost model's 32 warps per SM, as far as shared memory allows); ptxas lets ptxas choose the registers (docs/gpu.md, \"ptxas\")",
            },
            OptionInfo {
                name: "static-shapes",
                kind: OptionKind::Bool,
                default: "false",
                description: "type the fields with the problem sizes --param gave (static memref shapes): strides become constants in the kernels, so every neighbour of a stencil is an immediate offset in the PTX; the code then runs at those sizes only (its fingerprint names them). Needs the sizes (--param)",
            },
            OptionInfo {
                name: "prefetch",
                kind: OptionKind::Bool,
                default: "false",
                description: "streaming: load each plane one stream step ahead into registers (software pipelining: the loads overlap the step's barriers and computation)",
            },
        ],
        factory: PassFactory::new(|opts| {
            let pass = |message: String| format!("option '{message}");
            let (block_auto, block) = block_option(opts)?;
            let grid = opts.int("grid");
            if grid < 0 {
                return Err(pass(format!("grid' of pass 'gpu-map': {grid} blocks; give at least 1 (or 0: automatic)")));
            }
            let shared_memory = opts.int("shared-memory");
            if shared_memory < 0 {
                return Err(pass(format!("shared-memory' of pass 'gpu-map': {shared_memory} bytes; give 0 or more")));
            }
            let mut strategy = Strategy::parse(opts.string("strategy")).map_err(|e| pass(format!("strategy' of pass 'gpu-map': {e}")))?;
            if opts.bool("naive") {
                if strategy != Strategy::Wavefront && strategy != Strategy::Naive {
                    return Err(pass("naive' of pass 'gpu-map': contradicts the strategy option".into()));
                }
                strategy = Strategy::Naive;
            }
            if block_auto && !matches!(strategy, Strategy::Wavefront | Strategy::Auto) {
                return Err(pass("block' of pass 'gpu-map': block=auto chooses the block of the wavefront strategy's tiles (thesis Alg. 5.1); give the naive, overlapped and streaming strategies a block".into()));
            }
            let tile = opts.int_list("tile").to_vec();
            if tile.iter().any(|&t| t < 1) {
                return Err(pass("tile' of pass 'gpu-map': every tile size must be at least 1".into()));
            }
            let partial_tiles = PartialTiles::parse(opts.string("partial-tiles"))
                .map_err(|e| pass(format!("partial-tiles' of pass 'gpu-map': {e}")))?;
            let time_tile = opts.int("time-tile");
            if time_tile < 0 {
                return Err(pass(format!("time-tile' of pass 'gpu-map': {time_tile}; give 1 or more (0: automatic)")));
            }
            let prefetch = opts.bool("prefetch");
            if prefetch && !matches!(strategy, Strategy::Streaming) {
                return Err(pass(format!(
                    "prefetch' of pass 'gpu-map': prefetching loads the planes of the streaming strategy; strategy={} has none (use strategy=streaming)",
                    strategy.implementation().name()
                )));
            }
            let staging = Staging::parse(opts.string("staging"))
                .map_err(|e| pass(format!("staging' of pass 'gpu-map': {e}")))?;
            let tile_threads = opts.int("tile-threads");
            if !(0..=1024).contains(&tile_threads) {
                return Err(pass(format!(
                    "tile-threads' of pass 'gpu-map': {tile_threads}; give 1 to 1024 (a block's threads at most; 0: automatic)"
                )));
            }
            if tile_threads > 1 && !matches!(strategy, Strategy::Mlsor | Strategy::Auto) {
                return Err(pass(format!(
                    "tile-threads' of pass 'gpu-map': threads per tile are the mlsor strategy's; strategy={} has none",
                    strategy.implementation().name()
                )));
            }
            let occupancy_by_model = match opts.string("occupancy") {
                "ptxas" => false,
                "model" if block_auto || matches!(strategy, Strategy::Overlapped | Strategy::Streaming | Strategy::Auto) => true,
                "model" => {
                    return Err(pass(format!(
                        "occupancy' of pass 'gpu-map': occupancy=model asks ptxas for the blocks per SM a model plans: the tile model's for the wavefront strategy's block=auto, the cost model's DRAM-latency residency for overlapped and streaming tiles; strategy={} without block=auto has neither",
                        strategy.implementation().name()
                    )))
                }
                other => {
                    return Err(pass(format!("occupancy' of pass 'gpu-map': '{other}'; give 'ptxas' or 'model'")))
                }
            };
            Ok(Box::new(GpuMap {
                options: GpuMapOptions {
                    strategy,
                    block,
                    block_auto,
                    grid,
                    staging,
                    shared_memory,
                    tile,
                    time_tile,
                    full_tiles: opts.bool("full-tiles"),
                    partial_tiles,
                    prefetch,
                    tile_threads,
                    occupancy_by_model,
                    static_shapes: opts.bool("static-shapes"),
                },
            }))
        }),
        contract: stencil_passes::contract::lowering_pass(
            "gpu-map lowers stencil.program ops to GPU kernels (in place of poly-codegen): on its own, e.g. builtin.module(gpu-map{strategy=auto}), or after poly-schedule and poly-tile for wavefront tiles, e.g. builtin.module(poly-schedule,poly-tile{sizes=16},gpu-map)",
        ),
    }
}

/// The parameters' values the fields are typed with (`gpu-map{static-shapes=true}`): the
/// problem sizes given (`--param`, the declared defaults for the others), by name; `None`
/// without the option; an error when it is set and no sizes were given.
pub(crate) fn static_sizes(
    ir: &Ir,
    program: OpId,
    options: &GpuMapOptions,
) -> Result<Option<std::collections::BTreeMap<String, i64>>, String> {
    if !options.static_shapes {
        return Ok(None);
    }
    let names = stencil_dialects::stencil::ProgramParams::of(ir, program).names;
    if names.is_empty() {
        return Ok(Some(std::collections::BTreeMap::new()));
    }
    let Some(sizes) = overlapped::explicit_problem_sizes(ir, program) else {
        return Err(if stencil_passes::tile_model::given_problem_sizes(ir, program).is_some() {
            "static-shapes=true types the fields with the problem sizes: a parameter has neither a given value nor a \
             declared default; give it with --param"
        } else {
            "static-shapes=true types the fields with the problem sizes, and none were given: give them with --param \
             (stencil-opt, stencil-run) or run_pipeline_with_sizes"
        }
        .to_string());
    };
    Ok(Some(names.into_iter().zip(sizes).collect()))
}

/// Maps every `stencil.program` at or below the anchor with [`map_program`].
struct GpuMap {
    options: GpuMapOptions,
}

impl Pass for GpuMap {
    fn argument(&self) -> &'static str {
        "gpu-map"
    }

    fn run(&mut self, ir: &mut Ir, root: OpId, cx: &PassContext<'_>) -> DiagResult<()> {
        for program in stencil_programs(ir, root) {
            map_program(ir, cx.registry, program, &self.options)?;
        }
        Ok(())
    }
}

/// `gpu-map`'s `block` option: whether it is `auto`, and the block it gives (`None`: auto or
/// not given; missing sizes are 1). An error, in the pass manager's words, for a list that is
/// not 1 to 3 sizes ≥ 1 of at most 1024 threads, at most 64 along z. `stencil-opt --explain-tile-sizes` reads the
/// option of a pipeline's `gpu-map` with it too.
pub fn block_option(opts: &stencil_ir::pass::PassOptions) -> Result<(bool, Option<[i64; 3]>), String> {
    let pass = |message: String| format!("option '{message}");
    let list = opts.auto_or_int_list("block").map_err(|text| {
        pass(format!(
            "block' of pass 'gpu-map': expected 'auto' or 1 to 3 block sizes such as 32,8 or 32x8, got '{text}'"
        ))
    })?;
    let Some(list) = list else { return Ok((true, None)) };
    if list.is_empty() {
        return Ok((false, None));
    }
    if list.len() > 3 || list.iter().any(|&b| b < 1) {
        return Err(pass(format!(
            "block' of pass 'gpu-map': give 1 to 3 block sizes >= 1, got '{}'",
            list.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
        )));
    }
    let threads = list.iter().try_fold(1i64, |acc, &b| acc.checked_mul(b));
    if threads.is_none_or(|t| t > 1024) {
        return Err(pass("block' of pass 'gpu-map': at most 1024 threads per block (CUDA's limit)".into()));
    }
    if list.get(2).is_some_and(|&z| z > 64) {
        return Err(pass(format!(
            "block' of pass 'gpu-map': at most 64 threads along z (CUDA's limit), got {}",
            list[2]
        )));
    }
    let mut block = [1i64; 3];
    block[..list.len()].copy_from_slice(&list);
    Ok((false, Some(block)))
}
