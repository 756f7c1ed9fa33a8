//! Calibration files: one versioned JSON file per device with the device's limits, the
//! parameters of both models, and where the numbers come from.
//!
//! Program-dependent parameters (the thesis' `α`, `β`, `γ`, §5.3.3.2; seed 004's `C_iter`,
//! §5.2) are stored per program and mapping (`sor_2d_5pt/staged`, `sor_2d_5pt/global`: a
//! staged and an unstaged kernel of one program are different code, with different costs per
//! warp and per memory operation) when a calibration measured them, and otherwise derived,
//! per mapping, from the program's arithmetic operations per point: `α = alpha.base +
//! alpha.per_operation × ops` (and `C_iter` likewise), `γ = gamma_per_byte × element bytes`.
//! The format is documented in `docs/tile-models.md`; `calibrations/h100.json` is the built-in
//! default.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::device::DeviceLimits;
use crate::error::{Result, TileModelError};
use crate::model::{ModelKind, TileModel};
use crate::prajapati::{PrajapatiModel, PrajapatiParams};
use crate::thesis::{ThesisModel, ThesisParams};

/// The calibration-file format this crate reads and writes.
pub const FORMAT: u64 = 1;

/// The built-in H100 calibration (derived from published figures and the simulator's cost
/// model; its `provenance` says how).
pub const H100_DEFAULT: &str = include_str!("../calibrations/h100.json");

/// The H200 calibration measured on 2026-11-27 (77 runs fitted by `stencil-calibrate`; its
/// `provenance` says which kernels it describes).
pub const H200_MEASURED: &str = include_str!("../calibrations/h200.json");

/// The built-in calibrations by name (`poly-tile{calibration=NAME}`): the default first. The
/// measured H200 file is the default: the H100 file is derived, and where the two disagree the
/// GPU sides with the measured one (staged 3-D SOR tiles: the derived file predicts them 4.6×
/// faster than global ones, the H200 measured them 3.6× slower; `docs/tile-models.md`). The
/// two devices share the SM (Hopper, 132 SMs, the same limits per SM).
pub const BUILT_IN: [(&str, &str); 2] = [("h200", H200_MEASURED), ("h100", H100_DEFAULT)];

/// A per-program parameter derived from the operations per point: `base + per_operation × ops`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PerOperation {
    /// Seconds for a body without arithmetic.
    pub base: f64,
    /// Seconds per arithmetic operation of the body.
    pub per_operation: f64,
}

impl PerOperation {
    /// The value for a body of `operations` operations.
    pub fn at(&self, operations: u32) -> f64 {
        self.base + self.per_operation * f64::from(operations)
    }
}

/// The thesis-model parameters of one program, measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ThesisProgram {
    /// `α`.
    pub alpha: f64,
    /// `β`.
    pub beta: f64,
    /// `γ`: seconds per memory operation of a tile, on problems whose fields do not fit in L2
    /// (or when the device's L2 is unknown).
    pub gamma: f64,
    /// `γ` of a global-memory kernel's loads that stay in L2 across launches; such a kernel
    /// takes `s·gamma_in_l2 + (1 − s)·gamma` with `s` the share of its loads L2 keeps
    /// ([`DeviceLimits::l2_share`]); `None`: `gamma` alone. Ours:
    /// fitted on the H200, one `γ` per program could not rank 2-D SOR's global tiles at both
    /// 2048² (a 32 MiB field) and 16384² (`bench/results/2026-11-27-fit-undetermined`).
    pub gamma_in_l2: Option<f64>,
}

impl ThesisProgram {
    /// The `γ` of a kernel whose loads L2 keeps in the share `share` ([`l2_share_of_kernel`]):
    /// `share·gamma_in_l2 + (1 − share)·gamma`, or `gamma` without a `γ_L2`.
    pub fn gamma_at(&self, share: f64) -> f64 {
        self.gamma_in_l2.map_or(self.gamma, |in_l2| share * in_l2 + (1.0 - share) * self.gamma)
    }
}

/// The share of a kernel's loads that L2 keeps across launches, as the thesis model's `γ`
/// takes it ([`ThesisProgram::gamma_at`]): [`DeviceLimits::l2_share`] of the problem's fields
/// (`data_bytes`, 0: unknown) for global-memory kernels, 0 for staged ones (their memory term
/// is their box copies).
pub fn l2_share_of_kernel(device: &DeviceLimits, staged: bool, data_bytes: u64) -> f64 {
    if staged {
        0.0
    } else {
        device.l2_share(data_bytes)
    }
}

/// The thesis model's program parameters for programs not measured, of one mapping.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ThesisDefaults {
    /// `α`.
    pub alpha: PerOperation,
    /// `β`.
    pub beta: f64,
    /// `γ` per byte of element.
    pub gamma_per_byte: f64,
}

/// The thesis model's part of a calibration.
#[derive(Debug, Clone, PartialEq)]
pub struct ThesisCalibration {
    /// `σ_ker`.
    pub sigma_ker: f64,
    /// `σ_blk`.
    pub sigma_blk: f64,
    /// `σ_thd`.
    pub sigma_thd: f64,
    /// `σ_tile` ([`ThesisParams::sigma_tile`]; `sigma_tile_s`, optional: 0 when absent).
    pub sigma_tile: f64,
    /// Defaults of staged kernels.
    pub staged: ThesisDefaults,
    /// Defaults of unstaged kernels.
    pub global: ThesisDefaults,
    /// Measured programs, by [`program_key`].
    pub programs: BTreeMap<String, ThesisProgram>,
}

/// The key of a program and mapping in the per-program tables: `NAME/staged` or `NAME/global`.
pub fn program_key(program: &str, staged: bool) -> String {
    format!("{program}/{}", if staged { "staged" } else { "global" })
}

/// Seed 004's part of a calibration.
#[derive(Debug, Clone, PartialEq)]
pub struct PrajapatiCalibration {
    /// `L` (seconds per 4-byte word).
    pub l_word: f64,
    /// `τ_sync`.
    pub tau_sync: f64,
    /// `T_sync`.
    pub t_sync: f64,
    /// `C_iter` of staged kernels of programs not measured.
    pub c_iter_staged: PerOperation,
    /// `C_iter` of unstaged kernels of programs not measured.
    pub c_iter_global: PerOperation,
    /// Measured programs' `C_iter`, by [`program_key`].
    pub programs: BTreeMap<String, f64>,
}

/// One device's calibration (module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct Calibration {
    /// The device's limits.
    pub device: DeviceLimits,
    /// `derived` (from published figures and the cost model) or `measured` (by the calibration
    /// tool on the device).
    pub source: String,
    /// How the numbers were obtained.
    pub provenance: String,
    /// `R_T` when the compiler cannot ask ptxas (thesis Alg. 5.1 line 1) and the program was
    /// not measured.
    pub registers_per_thread: u32,
    /// `R_T` of measured programs, by `PROGRAM/staged` or `PROGRAM/global` (the staged
    /// kernels need many more registers).
    pub registers: BTreeMap<String, u32>,
    /// The thesis model's parameters.
    pub thesis: ThesisCalibration,
    /// Seed 004's parameters.
    pub prajapati: PrajapatiCalibration,
    /// What a fit recorded about itself (samples, residuals), as written.
    pub fit: Option<Value>,
}

impl Calibration {
    /// The built-in H100 calibration.
    pub fn h100_default() -> Result<Calibration> {
        Calibration::from_json(H100_DEFAULT, "<built-in h100.json>")
    }

    /// The default calibration: the first of [`BUILT_IN`] (the measured H200 file).
    pub fn built_in_default() -> Result<Calibration> {
        let (name, text) = BUILT_IN[0];
        Calibration::from_json(text, &format!("<built-in {name}.json>"))
    }

    /// The built-in calibration called `name` ([`BUILT_IN`]), if there is one.
    pub fn built_in(name: &str) -> Option<Result<Calibration>> {
        BUILT_IN
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(n, text)| Calibration::from_json(text, &format!("<built-in {n}.json>")))
    }

    /// A built-in calibration by name ([`BUILT_IN`]), else the calibration file at `path`
    /// (write `./h200` for a file that has a built-in's name).
    pub fn named_or_load(path: &std::path::Path) -> Result<Calibration> {
        match path.to_str().and_then(Calibration::built_in) {
            Some(calibration) => calibration,
            None => Calibration::load(path).map_err(|e| match e {
                TileModelError::Calibration { path, message } if message.starts_with("cannot read it") => {
                    let names: Vec<&str> = BUILT_IN.iter().map(|(n, _)| *n).collect();
                    TileModelError::Calibration {
                        path,
                        message: format!("{message}; or name a built-in calibration: {}", names.join(", ")),
                    }
                }
                other => other,
            }),
        }
    }

    /// Reads a calibration file.
    pub fn load(path: &std::path::Path) -> Result<Calibration> {
        let text = std::fs::read_to_string(path).map_err(|e| TileModelError::Calibration {
            path: path.display().to_string(),
            message: format!("cannot read it: {e}"),
        })?;
        Calibration::from_json(&text, &path.display().to_string())
    }

    /// Parses a calibration file's text (`path` names it in errors).
    pub fn from_json(text: &str, path: &str) -> Result<Calibration> {
        let bad = |message: String| TileModelError::Calibration { path: path.to_string(), message };
        let root: Value = serde_json::from_str(text).map_err(|e| bad(format!("not JSON: {e}")))?;
        let r = Reader { path };
        // Per-program tables are keyed by `program_key`: a key without its mapping would never
        // be looked up, so it is refused rather than silently ignored.
        let key = |table: &str, k: &str| -> Result<String> {
            if k.ends_with("/staged") || k.ends_with("/global") {
                Ok(k.to_string())
            } else {
                Err(bad(format!("{table}: key '{k}' must be PROGRAM/staged or PROGRAM/global")))
            }
        };
        let format = r.u64(&root, "format")?;
        if format != FORMAT {
            return Err(bad(format!("format {format}; this build reads format {FORMAT}")));
        }
        let d = r.object(&root, "device")?;
        let device = DeviceLimits {
            name: r.string(d, "name")?,
            multiprocessors: r.u32(d, "multiprocessors")?,
            schedulers_per_sm: r.u32(d, "schedulers_per_sm")?,
            max_threads_per_sm: r.u32(d, "max_threads_per_sm")?,
            max_blocks_per_sm: r.u32(d, "max_blocks_per_sm")?,
            max_threads_per_block: r.u32(d, "max_threads_per_block")?,
            registers_per_sm: r.u32(d, "registers_per_sm")?,
            max_registers_per_block: r.u32(d, "max_registers_per_block")?,
            max_registers_per_thread: r.u32(d, "max_registers_per_thread")?,
            register_granularity: r.u32(d, "register_granularity")?,
            shared_bytes_per_sm: r.u64(d, "shared_bytes_per_sm")?,
            max_shared_bytes_per_block: r.u64(d, "max_shared_bytes_per_block")?,
            shared_reserved_per_block: r.u64(d, "shared_reserved_per_block")?,
            shared_granularity: r.u64(d, "shared_granularity")?,
            vector_units_f32: r.u32(d, "vector_units_f32")?,
            vector_units_f64: r.u32(d, "vector_units_f64")?,
            issue_latency_warps: r.f64(d, "issue_latency_warps")?,
            // Optional: files written before it was a device figure take the H100's.
            memory_latency_warps_per_sm: if d.get("memory_latency_warps_per_sm").is_some() {
                r.f64(d, "memory_latency_warps_per_sm")?
            } else {
                DeviceLimits::h100().memory_latency_warps_per_sm
            },
            l2_bytes: if d.get("l2_bytes").is_some() { r.u64(d, "l2_bytes")? } else { 0 },
        };
        if device.multiprocessors == 0 || device.max_threads_per_sm == 0 {
            return Err(bad("device.multiprocessors and device.max_threads_per_sm must be positive".into()));
        }
        let t = r.object(&root, "thesis")?;
        let mut thesis_programs = BTreeMap::new();
        if let Some(programs) = t.get("programs") {
            let programs = programs.as_object().ok_or_else(|| bad("thesis.programs must be an object".into()))?;
            for (name, p) in programs {
                thesis_programs.insert(
                    key("thesis.programs", name)?,
                    ThesisProgram {
                        alpha: r.f64(p, "alpha_s")?,
                        beta: r.f64(p, "beta_s")?,
                        gamma: r.f64(p, "gamma_s")?,
                        gamma_in_l2: if p.get("gamma_in_l2_s").is_some() {
                            Some(r.f64(p, "gamma_in_l2_s")?)
                        } else {
                            None
                        },
                    },
                );
            }
        }
        let defaults = |kind: &str| -> Result<ThesisDefaults> {
            let d = r.object(t, kind)?;
            Ok(ThesisDefaults {
                alpha: r.per_operation(d, "alpha_s")?,
                beta: r.f64(d, "beta_s")?,
                gamma_per_byte: r.f64(d, "gamma_s_per_byte")?,
            })
        };
        let thesis = ThesisCalibration {
            sigma_ker: r.f64(t, "sigma_ker_s")?,
            sigma_blk: r.f64(t, "sigma_blk_s")?,
            sigma_thd: r.f64(t, "sigma_thd_s")?,
            sigma_tile: if t.get("sigma_tile_s").is_some() { r.f64(t, "sigma_tile_s")? } else { 0.0 },
            staged: defaults("staged")?,
            global: defaults("global")?,
            programs: thesis_programs,
        };
        let p = r.object(&root, "prajapati")?;
        let mut prajapati_programs = BTreeMap::new();
        if let Some(programs) = p.get("programs") {
            let programs = programs.as_object().ok_or_else(|| bad("prajapati.programs must be an object".into()))?;
            for (name, q) in programs {
                prajapati_programs.insert(key("prajapati.programs", name)?, r.f64(q, "c_iter_s")?);
            }
        }
        let prajapati = PrajapatiCalibration {
            l_word: r.f64(p, "l_s_per_word")?,
            tau_sync: r.f64(p, "tau_sync_s")?,
            t_sync: r.f64(p, "t_sync_s")?,
            c_iter_staged: r.per_operation(r.object(p, "c_iter_s")?, "staged")?,
            c_iter_global: r.per_operation(r.object(p, "c_iter_s")?, "global")?,
            programs: prajapati_programs,
        };
        let mut registers = BTreeMap::new();
        if let Some(map) = root.get("registers") {
            let map = map.as_object().ok_or_else(|| bad("registers must be an object".into()))?;
            for (k, v) in map {
                let v = v
                    .as_u64()
                    .and_then(|v| u32::try_from(v).ok())
                    .ok_or_else(|| bad(format!("registers.{k} must be an integer")))?;
                registers.insert(key("registers", k)?, v);
            }
        }
        Ok(Calibration {
            device,
            source: r.string(&root, "source")?,
            provenance: r.string(&root, "provenance")?,
            registers_per_thread: r.u32(&root, "registers_per_thread")?,
            registers,
            thesis,
            prajapati,
            fit: root.get("fit").cloned(),
        })
    }

    /// The file's JSON text (what [`Calibration::from_json`] reads back).
    pub fn to_json(&self) -> String {
        let d = &self.device;
        let per_op = |p: &PerOperation| json!({"base": p.base, "per_operation": p.per_operation});
        let defaults = |d: &ThesisDefaults| json!({"alpha_s": per_op(&d.alpha), "beta_s": d.beta, "gamma_s_per_byte": d.gamma_per_byte});
        let thesis_programs: Map<String, Value> = self
            .thesis
            .programs
            .iter()
            .map(|(k, p)| {
                let mut entry = json!({"alpha_s": p.alpha, "beta_s": p.beta, "gamma_s": p.gamma});
                if let Some(g) = p.gamma_in_l2 {
                    entry["gamma_in_l2_s"] = json!(g);
                }
                (k.clone(), entry)
            })
            .collect();
        let prajapati_programs: Map<String, Value> =
            self.prajapati.programs.iter().map(|(k, &c)| (k.clone(), json!({"c_iter_s": c}))).collect();
        let mut root = json!({
            "format": FORMAT,
            "source": self.source,
            "provenance": self.provenance,
            "device": {
                "name": d.name,
                "multiprocessors": d.multiprocessors,
                "schedulers_per_sm": d.schedulers_per_sm,
                "max_threads_per_sm": d.max_threads_per_sm,
                "max_blocks_per_sm": d.max_blocks_per_sm,
                "max_threads_per_block": d.max_threads_per_block,
                "registers_per_sm": d.registers_per_sm,
                "max_registers_per_block": d.max_registers_per_block,
                "max_registers_per_thread": d.max_registers_per_thread,
                "register_granularity": d.register_granularity,
                "shared_bytes_per_sm": d.shared_bytes_per_sm,
                "max_shared_bytes_per_block": d.max_shared_bytes_per_block,
                "shared_reserved_per_block": d.shared_reserved_per_block,
                "shared_granularity": d.shared_granularity,
                "vector_units_f32": d.vector_units_f32,
                "vector_units_f64": d.vector_units_f64,
                "issue_latency_warps": d.issue_latency_warps,
                "memory_latency_warps_per_sm": d.memory_latency_warps_per_sm,
                "l2_bytes": d.l2_bytes,
            },
            "registers_per_thread": self.registers_per_thread,
            "registers": self.registers.iter().map(|(k, &v)| (k.clone(), Value::from(v))).collect::<Map<String, Value>>(),
            "thesis": {
                "sigma_ker_s": self.thesis.sigma_ker,
                "sigma_blk_s": self.thesis.sigma_blk,
                "sigma_thd_s": self.thesis.sigma_thd,
                "sigma_tile_s": self.thesis.sigma_tile,
                "staged": defaults(&self.thesis.staged),
                "global": defaults(&self.thesis.global),
                "programs": thesis_programs,
            },
            "prajapati": {
                "l_s_per_word": self.prajapati.l_word,
                "tau_sync_s": self.prajapati.tau_sync,
                "t_sync_s": self.prajapati.t_sync,
                "c_iter_s": {"staged": per_op(&self.prajapati.c_iter_staged), "global": per_op(&self.prajapati.c_iter_global)},
                "programs": prajapati_programs,
            },
        });
        if let (Some(fit), Some(map)) = (&self.fit, root.as_object_mut()) {
            map.insert("fit".into(), fit.clone());
        }
        serde_json::to_string_pretty(&root).unwrap_or_default() + "\n"
    }

    /// The problem sizes (`T=64,N=2048,…`, names in alphabetical order) at which the runs that
    /// fixed `program`'s own constants, staged or not, were measured, as the fit recorded them
    /// (`fit.problems`); `None` when the program has no constants of its own or the file does
    /// not say.
    pub fn measured_problems(&self, program: &str, staged: bool) -> Option<Vec<String>> {
        let key = program_key(program, staged);
        if !self.thesis.programs.contains_key(&key) {
            return None;
        }
        let listed = self.fit.as_ref()?.get("problems")?.get(&key)?.as_array()?;
        Some(listed.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
    }

    /// `R_T` for `program`'s kernels, staged or not: measured, else the default.
    pub fn registers_for(&self, program: &str, staged: bool) -> u32 {
        self.registers.get(&program_key(program, staged)).copied().unwrap_or(self.registers_per_thread)
    }

    /// The thesis parameters for `program`'s kernels, staged or not (its measured ones, else
    /// derived from its `operations` per point and `element_bytes`), on a problem whose fields
    /// take `data_bytes` (0: unknown), which weighs `γ`'s regimes ([`ThesisProgram::gamma_in_l2`]).
    pub fn thesis_params(
        &self,
        program: &str,
        staged: bool,
        operations: u32,
        element_bytes: u32,
        data_bytes: u64,
    ) -> ThesisParams {
        let t = &self.thesis;
        let d = if staged { &t.staged } else { &t.global };
        let share = l2_share_of_kernel(&self.device, staged, data_bytes);
        let (alpha, beta, gamma) = match t.programs.get(&program_key(program, staged)) {
            Some(p) => (p.alpha, p.beta, p.gamma_at(share)),
            None => (d.alpha.at(operations), d.beta, d.gamma_per_byte * f64::from(element_bytes)),
        };
        ThesisParams {
            sigma_ker: t.sigma_ker,
            sigma_blk: t.sigma_blk,
            sigma_thd: t.sigma_thd,
            alpha,
            beta,
            gamma,
            sigma_tile: t.sigma_tile,
        }
    }

    /// Seed 004's parameters for `program`'s kernels, staged or not.
    pub fn prajapati_params(&self, program: &str, staged: bool, operations: u32) -> PrajapatiParams {
        let p = &self.prajapati;
        let default = if staged { &p.c_iter_staged } else { &p.c_iter_global };
        PrajapatiParams {
            l_word: p.l_word,
            tau_sync: p.tau_sync,
            t_sync: p.t_sync,
            c_iter: p.programs.get(&program_key(program, staged)).copied().unwrap_or_else(|| default.at(operations)),
        }
    }

    /// The model `kind` with this calibration's parameters for `program`'s kernels, on a
    /// problem whose fields take `data_bytes` (0: unknown).
    pub fn model(
        &self,
        kind: ModelKind,
        program: &str,
        staged: bool,
        operations: u32,
        element_bytes: u32,
        data_bytes: u64,
    ) -> Box<dyn TileModel> {
        match kind {
            ModelKind::Thesis => Box::new(ThesisModel {
                params: self.thesis_params(program, staged, operations, element_bytes, data_bytes),
            }),
            ModelKind::Prajapati => {
                Box::new(PrajapatiModel { params: self.prajapati_params(program, staged, operations) })
            }
        }
    }
}

/// Field access with errors that name the file and the field.
struct Reader<'a> {
    path: &'a str,
}

impl Reader<'_> {
    fn error(&self, field: &str, what: &str) -> TileModelError {
        TileModelError::Calibration { path: self.path.to_string(), message: format!("field '{field}' {what}") }
    }

    fn get<'v>(&self, v: &'v Value, field: &str) -> Result<&'v Value> {
        v.get(field).ok_or_else(|| self.error(field, "is missing"))
    }

    fn object<'v>(&self, v: &'v Value, field: &str) -> Result<&'v Value> {
        let x = self.get(v, field)?;
        if x.is_object() {
            Ok(x)
        } else {
            Err(self.error(field, "must be an object"))
        }
    }

    fn string(&self, v: &Value, field: &str) -> Result<String> {
        self.get(v, field)?.as_str().map(str::to_string).ok_or_else(|| self.error(field, "must be a string"))
    }

    fn u64(&self, v: &Value, field: &str) -> Result<u64> {
        self.get(v, field)?.as_u64().ok_or_else(|| self.error(field, "must be a non-negative integer"))
    }

    fn u32(&self, v: &Value, field: &str) -> Result<u32> {
        u32::try_from(self.u64(v, field)?).map_err(|_| self.error(field, "is too large"))
    }

    fn f64(&self, v: &Value, field: &str) -> Result<f64> {
        let x = self.get(v, field)?.as_f64().ok_or_else(|| self.error(field, "must be a number"))?;
        if x.is_finite() {
            Ok(x)
        } else {
            Err(self.error(field, "must be finite"))
        }
    }

    fn per_operation(&self, v: &Value, field: &str) -> Result<PerOperation> {
        let x = self.object(v, field)?;
        Ok(PerOperation { base: self.f64(x, "base")?, per_operation: self.f64(x, "per_operation")? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_file_round_trips() {
        let c = Calibration::h100_default().expect("the built-in calibration parses");
        assert_eq!(c.device, DeviceLimits::h100());
        assert_eq!(c.source, "derived");
        let again = Calibration::from_json(&c.to_json(), "round trip").expect("parses");
        assert_eq!(again, c);
    }

    /// The measured H200 file shipped beside the built-in one loads and covers every
    /// calibration program, so `poly-tile{calibration=tilemodel/calibrations/h200.json}` works.
    #[test]
    fn the_measured_h200_file_loads() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("calibrations/h200.json");
        let c = Calibration::load(&path).expect("h200.json parses");
        let by_name = Calibration::named_or_load(std::path::Path::new("h200")).expect("built in");
        assert_eq!(by_name, c);
        assert_eq!(
            Calibration::named_or_load(std::path::Path::new("h100")).expect("built in"),
            Calibration::h100_default().expect("parses")
        );
        let e = Calibration::named_or_load(std::path::Path::new("./h200")).unwrap_err().to_string();
        assert!(e.contains("./h200") && e.contains("h200, h100"), "a path, not the name: {e}");
        assert_eq!(c.source, "measured");
        assert_eq!(c.device.multiprocessors, 132);
        let builtin = Calibration::h100_default().expect("parses");
        assert_eq!(c.registers.len(), builtin.registers.len());
        // It says where its per-program constants were measured; programs without constants
        // of their own (and the derived file, which has none) say nothing.
        let measured = |program, staged| c.measured_problems(program, staged).unwrap_or_default();
        assert!(measured("jacobi_2d_5pt", true).contains(&"M=2048,N=2048,T=64".to_string()));
        assert!(measured("sor_3d_7pt", false).contains(&"L=256,M=256,N=256,T=16".to_string()));
        assert_eq!(c.measured_problems("heat_2d", true), None);
        assert_eq!(builtin.measured_problems("jacobi_2d_5pt", true), None);
    }

    /// A global-memory kernel's `γ` weighs the file's two by the share of loads L2 keeps;
    /// staged kernels, unknown sizes and a device without an L2 figure use `gamma`.
    #[test]
    fn gamma_follows_the_l2_share_of_global_kernels() {
        let mut c = Calibration::h100_default().expect("parses");
        c.device.l2_bytes = 1 << 20;
        for staged in [true, false] {
            c.thesis.programs.insert(
                program_key("p", staged),
                ThesisProgram { alpha: 1.0, beta: 0.0, gamma: 3.0, gamma_in_l2: Some(2.0) },
            );
        }
        let gamma = |c: &Calibration, staged: bool, bytes: u64| c.thesis_params("p", staged, 1, 8, bytes).gamma;
        assert_eq!(gamma(&c, false, 1 << 19), 2.0, "fields in L2");
        assert_eq!(gamma(&c, false, 1 << 20), 2.0, "exactly L2");
        assert_eq!(gamma(&c, false, 1 << 22), 0.25 * 2.0 + 0.75 * 3.0, "a quarter kept");
        assert_eq!(gamma(&c, false, 0), 3.0, "sizes unknown");
        assert_eq!(gamma(&c, true, 1 << 19), 3.0, "staged kernels have one γ");
        let again = Calibration::from_json(&c.to_json(), "round trip").expect("parses");
        assert_eq!(again, c);
        c.device.l2_bytes = 0;
        assert_eq!(gamma(&c, false, 1 << 19), 3.0, "no L2 figure");
    }

    #[test]
    fn errors_name_the_field() {
        let e = Calibration::from_json("{\"format\": 1}", "x.json").unwrap_err().to_string();
        assert!(e.contains("x.json") && e.contains("'device'"), "{e}");
        let e = Calibration::from_json("{\"format\": 7}", "x.json").unwrap_err().to_string();
        assert!(e.contains("format 7"), "{e}");
        // A per-program key without its mapping.
        let mut root: Value = serde_json::from_str(H100_DEFAULT).unwrap();
        root["registers"] = serde_json::json!({"sor_2d": 64});
        let e = Calibration::from_json(&root.to_string(), "x.json").unwrap_err().to_string();
        assert!(e.contains("registers: key 'sor_2d' must be PROGRAM/staged"), "{e}");
        root["registers"] = serde_json::json!({"sor_2d/staged": 64});
        assert_eq!(Calibration::from_json(&root.to_string(), "x.json").unwrap().registers_for("sor_2d", true), 64);
    }
}
