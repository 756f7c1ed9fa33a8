//! Precompiled PTX: the file `stencil-opt --emit=ptx` writes, and how a runner without MLIR
//! checks that it belongs to the module it is about to run (docs/gpu.md, "Precompiled PTX").
//!
//! A build without the `mlir` feature cannot compile kernels, but it can still parse a program,
//! run the pass pipeline (gpu-map included) and execute the host side. The PTX for the kernels
//! comes from a file that a build with MLIR wrote for the same program and pipeline. Launching
//! PTX compiled from other kernels would read and write memory by the wrong rules, so every
//! `gpu.module` section of the file carries a header line
//!
//! ```text
//! // stencil-opt ptx v1: gpu.module @NAME chip=sm_90 index-bitwidth=64 fingerprint=sha256:HEX
//! ```
//!
//! where the fingerprint is a SHA-256 of the `gpu.module` as printed (custom form, without
//! locations or targets) and of the index bit width. The runner recomputes it for each
//! `gpu.module` it mapped and refuses a file whose modules differ in name, number or
//! fingerprint. The section's PTX follows its header up to the next header; `//` lines are PTX
//! comments, so a file of one module is also plain PTX for `ptxas`.

use super::{abi, kernel_signatures, PtxError, PtxModule};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use stencil_ir::ir::WalkOrder;
use stencil_ir::printer::{print_op, PrintOptions};
use stencil_ir::{Attribute, DialectRegistry, Ir, OpId};

/// What every section header starts with; the `v1` is the format's version.
pub const HEADER_PREFIX: &str = "// stencil-opt ptx v1: ";

/// The fingerprint of `gpu_module` compiled with `index_bitwidth`: `sha256:` and 64 hex
/// digits. Locations and the `targets` attribute are left out, so the same program read from
/// another path, or compiled for another chip, has the same fingerprint (the chip is checked on
/// its own: the driver refuses PTX for a newer GPU than it has).
pub fn fingerprint(ir: &Ir, registry: &DialectRegistry, gpu_module: OpId, index_bitwidth: u32) -> String {
    let options = PrintOptions { generic: false, debug_info: false };
    let text = if ir.attr(gpu_module, "targets").is_some() {
        let mut copy = ir.clone();
        copy.remove_attr(gpu_module, "targets");
        print_op(&copy, registry, gpu_module, options)
    } else {
        print_op(ir, registry, gpu_module, options)
    };
    let mut hasher = Sha256::new();
    hasher.update(format!("index-bitwidth={index_bitwidth}\n").as_bytes());
    hasher.update(text.as_bytes());
    let mut hex = String::with_capacity(7 + 64);
    hex.push_str("sha256:");
    for byte in hasher.finalize() {
        // Writing to a String cannot fail.
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

/// The `--emit=ptx` text of `modules`: per module its header line, `//` lines naming each
/// kernel's parameter ABI (for readers), then the PTX.
pub fn render_ptx_file(modules: &[PtxModule]) -> String {
    let mut text = String::new();
    for module in modules {
        let _ = writeln!(
            text,
            "{HEADER_PREFIX}gpu.module @{} chip={} index-bitwidth={} fingerprint={}",
            module.name, module.chip, module.index_bitwidth, module.fingerprint
        );
        for kernel in &module.kernels {
            let _ = writeln!(text, "// kernel @{}", kernel.name);
            for (i, argument) in kernel.arguments.iter().enumerate() {
                let params: Vec<String> =
                    argument.params.iter().map(|p| format!("{} {} {}", p.name, p.ptx_type, p.role)).collect();
                let _ = writeln!(text, "//   arg {i}: {} -> {}", argument.ty, params.join(", "));
            }
        }
        text.push_str(&module.ptx);
        if !text.ends_with('\n') {
            text.push('\n');
        }
    }
    text
}

/// Why a precompiled PTX file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PrecompiledError {
    /// No section header: plain PTX, or not PTX at all.
    #[error(
        "{origin} is not a PTX file written by stencil-opt --emit=ptx (no `{}` header line); \
         plain PTX cannot be checked against the mapped module and is refused",
        HEADER_PREFIX.trim_end()
    )]
    NoHeader {
        /// The file.
        origin: String,
    },
    /// A header line or the text before the first one is malformed.
    #[error("{origin}:{line}: {detail}")]
    Malformed {
        /// The file.
        origin: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        detail: String,
    },
    /// The mapped module has a `gpu.module` the file has no PTX for.
    #[error(
        "{origin} has no PTX for gpu.module @{module} (it holds {}): it was compiled from another \
         program or pipeline; recompile with `stencil-opt INPUT --pass-pipeline=... --emit=ptx` using \
         the same input and --pass-pipeline as this run",
        list(available)
    )]
    MissingModule {
        /// The file.
        origin: String,
        /// The `gpu.module` without PTX.
        module: String,
        /// The modules the file holds.
        available: Vec<String>,
    },
    /// The file holds PTX for a `gpu.module` the mapped module does not have.
    #[error(
        "{origin} holds PTX for gpu.module @{module}, which this run's pipeline does not produce: \
         it was compiled from another program or pipeline"
    )]
    ExtraModule {
        /// The file.
        origin: String,
        /// The unexpected module.
        module: String,
    },
    /// Two sections for one module.
    #[error("{origin}: gpu.module @{module} appears twice")]
    DuplicateModule {
        /// The file.
        origin: String,
        /// The module.
        module: String,
    },
    /// The file's PTX was compiled from a different `gpu.module` of the same name: stale PTX.
    #[error(
        "{origin}: the PTX of gpu.module @{module} was compiled from different kernels than this run \
         maps (fingerprint {found} in the file, {expected} here): the input, the pipeline, the \
         problem sizes or stencil-opt changed since it was written; recompile it with \
         `stencil-opt INPUT --pass-pipeline=... --param ... --emit=ptx` and the same input, \
         --pass-pipeline and --param values as this run (the tile model's choices, `sizes=auto`, \
         `block=auto` and `staging=auto`, depend on the problem sizes)"
    )]
    FingerprintMismatch {
        /// The file.
        origin: String,
        /// The module.
        module: String,
        /// This run's fingerprint.
        expected: String,
        /// The file's.
        found: String,
    },
    /// The run asks for an index width other than the one the PTX was compiled with.
    #[error(
        "{origin} was compiled with --gpu-index-bitwidth={file}, but this run asks for {requested}: \
         drop the flag or recompile the PTX with the width you want"
    )]
    IndexBitwidthMismatch {
        /// The file.
        origin: String,
        /// The file's width.
        file: u32,
        /// The run's.
        requested: u32,
    },
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        return "no module".to_string();
    }
    names.iter().map(|n| format!("@{n}")).collect::<Vec<_>>().join(", ")
}

/// One `gpu.module` section of a precompiled file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrecompiledSection {
    /// The `gpu.module`'s name.
    pub module: String,
    /// The chip it was compiled for.
    pub chip: String,
    /// The index width it was compiled with.
    pub index_bitwidth: u32,
    /// The fingerprint of the `gpu.module` it was compiled from.
    pub fingerprint: String,
    /// The PTX text (comments included).
    pub ptx: String,
}

/// A parsed precompiled PTX file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrecompiledPtx {
    /// Where it was read from (for messages).
    pub origin: String,
    /// Its sections, in file order.
    pub sections: Vec<PrecompiledSection>,
}

impl PrecompiledPtx {
    /// Parses the text of a file written by `stencil-opt --emit=ptx`. `origin` names it in
    /// messages. Text before the first header may only be `//` comments (the dependence and
    /// schedule reports) or blank lines.
    pub fn parse(text: &str, origin: &str) -> Result<Self, PrecompiledError> {
        let malformed =
            |line: usize, detail: String| PrecompiledError::Malformed { origin: origin.to_string(), line, detail };
        let mut sections: Vec<PrecompiledSection> = vec![];
        for (index, line) in text.split_inclusive('\n').enumerate() {
            let number = index + 1;
            if let Some(header) = line.strip_prefix(HEADER_PREFIX) {
                let section = parse_header(header.trim_end()).map_err(|detail| malformed(number, detail))?;
                if sections.iter().any(|s| s.module == section.module) {
                    return Err(PrecompiledError::DuplicateModule {
                        origin: origin.to_string(),
                        module: section.module,
                    });
                }
                sections.push(section);
                continue;
            }
            match sections.last_mut() {
                Some(section) => section.ptx.push_str(line),
                None if line.trim().is_empty() || line.trim_start().starts_with("//") => {}
                None => {
                    let has_header = text.lines().any(|l| l.starts_with(HEADER_PREFIX));
                    if !has_header {
                        return Err(PrecompiledError::NoHeader { origin: origin.to_string() });
                    }
                    return Err(malformed(number, "text before the first gpu.module header".to_string()));
                }
            }
        }
        if sections.is_empty() {
            return Err(PrecompiledError::NoHeader { origin: origin.to_string() });
        }
        for section in &sections {
            if !section.ptx.contains(".entry") && !section.ptx.contains(".version") {
                return Err(malformed(0, format!("gpu.module @{} has no PTX after its header", section.module)));
            }
        }
        Ok(PrecompiledPtx { origin: origin.to_string(), sections })
    }

    /// The index width the file's PTX was compiled with (every section has the same one; the
    /// writer compiles all modules with one option set).
    pub fn index_bitwidth(&self) -> Option<u32> {
        self.sections.first().map(|s| s.index_bitwidth)
    }
}

/// `gpu.module @NAME chip=CHIP index-bitwidth=N fingerprint=F`.
fn parse_header(header: &str) -> Result<PrecompiledSection, String> {
    let mut words = header.split(' ').filter(|w| !w.is_empty());
    if words.next() != Some("gpu.module") {
        return Err(format!("header `{header}` does not start with `gpu.module`"));
    }
    let module = words
        .next()
        .and_then(|w| w.strip_prefix('@'))
        .filter(|name| !name.is_empty())
        .ok_or_else(|| format!("header `{header}` names no module (`@NAME`)"))?
        .to_string();
    let (mut chip, mut index_bitwidth, mut fingerprint) = (None, None, None);
    for word in words {
        let (key, value) = word.split_once('=').ok_or_else(|| format!("`{word}` is not KEY=VALUE"))?;
        match key {
            "chip" if super::is_chip_name(value) => chip = Some(value.to_string()),
            "index-bitwidth" => match value {
                "32" => index_bitwidth = Some(32),
                "64" => index_bitwidth = Some(64),
                _ => return Err(format!("index-bitwidth={value} is not 32 or 64")),
            },
            "fingerprint"
                if value
                    .strip_prefix("sha256:")
                    .is_some_and(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit())) =>
            {
                fingerprint = Some(value.to_string())
            }
            _ => return Err(format!("unexpected or malformed `{word}` in the header")),
        }
    }
    Ok(PrecompiledSection {
        module,
        chip: chip.ok_or("the header has no chip=")?,
        index_bitwidth: index_bitwidth.ok_or("the header has no index-bitwidth=")?,
        fingerprint: fingerprint.ok_or("the header has no fingerprint=")?,
        ptx: String::new(),
    })
}

/// The [`PtxModule`]s of every `gpu.module` under `module`, taken from `file` instead of
/// compiled: each must have exactly one section of the same name and fingerprint, and the file
/// no other section. `requested_bitwidth` is the run's `--gpu-index-bitwidth`, if given. Each
/// kernel's parameter ABI is derived from its argument types and checked against the `.entry`
/// of the PTX, as for compiled PTX.
pub fn attach_precompiled(
    ir: &Ir,
    registry: &DialectRegistry,
    module: OpId,
    file: &PrecompiledPtx,
    requested_bitwidth: Option<u32>,
) -> Result<Vec<PtxModule>, PtxError> {
    let origin = &file.origin;
    let gpu_modules: Vec<OpId> =
        ir.collect_ops(module, WalkOrder::PreOrder).into_iter().filter(|&op| ir.op_name(op) == "gpu.module").collect();
    let name_of = |op: OpId| ir.attr(op, "sym_name").and_then(Attribute::as_str).unwrap_or("").to_string();
    let names: Vec<String> = gpu_modules.iter().map(|&op| name_of(op)).collect();
    if let Some(extra) = file.sections.iter().find(|s| !names.contains(&s.module)) {
        return Err(PrecompiledError::ExtraModule { origin: origin.clone(), module: extra.module.clone() }.into());
    }
    let mut attached = Vec::with_capacity(gpu_modules.len());
    for (&gm, name) in gpu_modules.iter().zip(&names) {
        let Some(section) = file.sections.iter().find(|s| &s.module == name) else {
            return Err(PrecompiledError::MissingModule {
                origin: origin.clone(),
                module: name.clone(),
                available: file.sections.iter().map(|s| s.module.clone()).collect(),
            }
            .into());
        };
        if let Some(requested) = requested_bitwidth.filter(|&w| w != section.index_bitwidth) {
            return Err(PrecompiledError::IndexBitwidthMismatch {
                origin: origin.clone(),
                file: section.index_bitwidth,
                requested,
            }
            .into());
        }
        let expected = fingerprint(ir, registry, gm, section.index_bitwidth);
        if expected != section.fingerprint {
            return Err(PrecompiledError::FingerprintMismatch {
                origin: origin.clone(),
                module: name.clone(),
                expected,
                found: section.fingerprint.clone(),
            }
            .into());
        }
        let kernels = kernel_signatures(ir, gm)?
            .into_iter()
            .map(|signature| abi::kernel_abi(&section.ptx, signature, section.index_bitwidth))
            .collect::<Result<Vec<_>, _>>()?;
        attached.push(PtxModule {
            name: name.clone(),
            chip: section.chip.clone(),
            index_bitwidth: section.index_bitwidth,
            fingerprint: section.fingerprint.clone(),
            ptx: section.ptx.clone(),
            kernels,
        });
    }
    Ok(attached)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEX: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    fn header(module: &str) -> String {
        format!("{HEADER_PREFIX}gpu.module @{module} chip=sm_90 index-bitwidth=32 fingerprint=sha256:{HEX}\n")
    }

    #[test]
    fn sections_split_at_headers() {
        let text = format!(
            "// dependences: none\n\n{}// kernel @k\n.version 7.8\n.entry k()\n{}.version 7.8\n.entry j()\n",
            header("a"),
            header("b")
        );
        let file = PrecompiledPtx::parse(&text, "f.ptx").unwrap();
        assert_eq!(file.sections.len(), 2);
        assert_eq!(file.sections[0].module, "a");
        assert_eq!(file.sections[0].ptx, "// kernel @k\n.version 7.8\n.entry k()\n");
        assert_eq!(file.sections[1].index_bitwidth, 32);
        assert_eq!(file.index_bitwidth(), Some(32));
    }

    #[test]
    fn plain_ptx_and_malformed_headers_are_refused() {
        assert!(matches!(
            PrecompiledPtx::parse(".version 7.8\n.entry k()\n", "p.ptx"),
            Err(PrecompiledError::NoHeader { .. })
        ));
        assert!(matches!(PrecompiledPtx::parse("", "p.ptx"), Err(PrecompiledError::NoHeader { .. })));
        let bad = [
            format!("{HEADER_PREFIX}gpu.module @a chip=sm_90 index-bitwidth=16 fingerprint=sha256:{HEX}\n.entry k\n"),
            format!("{HEADER_PREFIX}gpu.module @a chip=90 index-bitwidth=64 fingerprint=sha256:{HEX}\n.entry k\n"),
            format!("{HEADER_PREFIX}gpu.module @a chip=sm_90 index-bitwidth=64 fingerprint=md5:{HEX}\n.entry k\n"),
            format!("{HEADER_PREFIX}gpu.module @a chip=sm_90 index-bitwidth=64\n.entry k\n"),
            format!("{HEADER_PREFIX}gpu.module chip=sm_90\n.entry k\n"),
            format!(".version 7.8\n{}", header("a")),
            header("a"),
        ];
        for text in bad {
            let error = PrecompiledPtx::parse(&text, "p.ptx").unwrap_err();
            assert!(matches!(error, PrecompiledError::Malformed { .. }), "{text}: {error}");
        }
        let twice = format!("{}.entry k\n{}.entry k\n", header("a"), header("a"));
        assert!(matches!(PrecompiledPtx::parse(&twice, "p.ptx"), Err(PrecompiledError::DuplicateModule { .. })));
    }
}
