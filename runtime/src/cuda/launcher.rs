//! Running the host function with its launches on the device: the buffers the kernels use
//! live on the device from the first upload to the final download, and each
//! `gpu.launch_func` step of the loop interpreter becomes a `cuLaunchKernel` with the
//! parameters of MLIR's memref calling convention.

use super::abi::ParamValue;
use super::{CudaError, CudaOptions, CudaProgram, GpuReport, ParamRole};
use crate::error::{Loc, RuntimeError, RuntimeResult};
use crate::loops::exec::KernelLauncher;
use crate::loops::memory::BufferData;
use crate::loops::steps::Site;
use crate::loops::{MemRef, Memory, Value};
use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::{CudaSlice, DevicePtr, LaunchConfig, PushKernelArg};
use std::collections::{HashMap, HashSet};
use std::time::Instant;

/// The device copy of one buffer.
enum DeviceBuffer {
    F32(CudaSlice<f32>),
    F64(CudaSlice<f64>),
}

impl DeviceBuffer {
    fn pointer(&self, stream: &cudarc::driver::CudaStream) -> u64 {
        // Event tracking is off (one stream), so the guard records nothing when dropped.
        match self {
            DeviceBuffer::F32(s) => s.device_ptr(stream).0,
            DeviceBuffer::F64(s) => s.device_ptr(stream).0,
        }
    }
}

/// Launches the kernels of one [`CudaProgram`] for one host call and keeps its statistics.
pub(super) struct DeviceLauncher<'p, 'd> {
    program: &'p CudaProgram<'d>,
    options: &'p CudaOptions,
    /// Device copies, by host buffer handle.
    buffers: HashMap<u32, DeviceBuffer>,
    /// Buffers the host function allocated: device-only, never copied back.
    scratch: HashSet<u32>,
    /// Launches, blocks and threads per kernel, of the current run.
    counts: Vec<[u64; 3]>,
    /// The CUDA error behind the last failed launch (the interpreter carries only
    /// [`RuntimeError`]s).
    failure: Option<CudaError>,
    report: GpuReport,
}

fn element_bytes(data: &BufferData) -> u64 {
    match data {
        BufferData::F32(v) => 4 * v.len() as u64,
        BufferData::F64(v) => 8 * v.len() as u64,
        BufferData::Int(v) => 8 * v.len() as u64,
    }
}

impl<'p, 'd> DeviceLauncher<'p, 'd> {
    /// A launcher for `program` with no buffers on the device yet.
    pub fn new(program: &'p CudaProgram<'d>, options: &'p CudaOptions) -> Self {
        let report = GpuReport {
            device: program.device.properties().clone(),
            kernels: program.kernels(),
            kernel_seconds: 0.0,
            host_seconds: 0.0,
            upload_seconds: 0.0,
            download_seconds: 0.0,
            bytes_uploaded: 0,
            bytes_downloaded: 0,
            warmup_runs: options.warmup_runs,
        };
        DeviceLauncher {
            program,
            options,
            buffers: HashMap::new(),
            scratch: HashSet::new(),
            counts: vec![[0; 3]; program.kernels.len()],
            failure: None,
            report,
        }
    }

    /// The report, with the launch counts of the timed run.
    pub fn into_report(mut self) -> GpuReport {
        for (k, [launches, blocks, threads]) in self.report.kernels.iter_mut().zip(&self.counts) {
            k.launches = *launches;
            k.blocks = *blocks;
            k.threads = *threads;
        }
        self.report
    }

    /// Copies host buffer `h` to the device (replacing an earlier copy).
    fn upload(&mut self, h: MemRef, memory: &Memory) -> Result<(), CudaError> {
        let stream = &self.program.device.stream;
        let buffer =
            memory.get(h).ok_or_else(|| CudaError::Unsupported("a kernel argument is a freed buffer".to_string()))?;
        let copy = match &buffer.data {
            BufferData::F32(v) => {
                DeviceBuffer::F32(stream.clone_htod(v).map_err(CudaError::driver("copying a buffer to the device"))?)
            }
            BufferData::F64(v) => {
                DeviceBuffer::F64(stream.clone_htod(v).map_err(CudaError::driver("copying a buffer to the device"))?)
            }
            BufferData::Int(_) => {
                return Err(CudaError::Unsupported(
                    "integer buffers are not supported by the CUDA executor (fields are f32 or f64)".to_string(),
                ))
            }
        };
        self.report.bytes_uploaded += element_bytes(&buffer.data);
        self.buffers.insert(h.0, copy);
        Ok(())
    }

    /// Allocates a zeroed device buffer for host buffer `h` without copying it (see the caller).
    fn allocate_scratch(&mut self, h: MemRef, memory: &Memory) -> Result<(), CudaError> {
        let stream = &self.program.device.stream;
        let buffer =
            memory.get(h).ok_or_else(|| CudaError::Unsupported("a kernel argument is a freed buffer".to_string()))?;
        let during = CudaError::driver("allocating a buffer on the device");
        let copy = match &buffer.data {
            BufferData::F32(v) => DeviceBuffer::F32(stream.alloc_zeros::<f32>(v.len()).map_err(during)?),
            BufferData::F64(v) => DeviceBuffer::F64(stream.alloc_zeros::<f64>(v.len()).map_err(during)?),
            BufferData::Int(_) => {
                return Err(CudaError::Unsupported(
                    "integer buffers are not supported by the CUDA executor (fields are f32 or f64)".to_string(),
                ))
            }
        };
        self.buffers.insert(h.0, copy);
        self.scratch.insert(h.0);
        Ok(())
    }

    /// Uploads the fields, refusing when they cannot fit in the device's free memory.
    fn upload_fields(&mut self, memory: &Memory, handles: &[(String, MemRef)]) -> Result<(), CudaError> {
        let needed: u64 = handles.iter().filter_map(|(_, h)| memory.get(*h)).map(|b| element_bytes(&b.data)).sum();
        let (free, _) =
            self.program.device.ctx.mem_get_info().map_err(CudaError::driver("querying free device memory"))?;
        if needed > free as u64 {
            return Err(CudaError::Unsupported(format!(
                "the fields take {:.2} GiB but the device has {:.2} GiB free: use smaller parameters",
                needed as f64 / f64::from(1u32 << 30),
                free as f64 / f64::from(1u32 << 30)
            )));
        }
        self.buffers.clear();
        self.scratch.clear();
        for (_, h) in handles {
            self.upload(*h, memory)?;
        }
        Ok(())
    }

    fn sync(&self, during: &str) -> Result<(), CudaError> {
        self.program.device.stream.synchronize().map_err(CudaError::driver(during))
    }

    /// One call of host function `name`, its launches on the device.
    fn call(&mut self, name: &str, values: &[Value], memory: &mut Memory) -> Result<(), CudaError> {
        let program = self.program;
        program
            .host
            .call_with_launcher(name, values, memory, self)
            .map(drop)
            .map_err(|e| self.failure.take().unwrap_or(CudaError::Runtime(e)))
    }

    /// Runs host function `name`: warm-up runs, then the timed run from freshly uploaded
    /// fields, then copies every device buffer back into `memory`.
    pub fn run(
        &mut self,
        name: &str,
        values: &[Value],
        memory: &mut Memory,
        handles: &[(String, MemRef)],
    ) -> Result<(), CudaError> {
        for _ in 0..self.options.warmup_runs {
            self.upload_fields(memory, handles)?;
            self.call(name, values, memory)?;
            self.sync("running a warm-up run")?;
        }
        self.counts.iter_mut().for_each(|c| *c = [0; 3]);
        let start = Instant::now();
        self.upload_fields(memory, handles)?;
        self.sync("copying the fields to the device")?;
        self.report.upload_seconds = start.elapsed().as_secs_f64();

        let ctx = &self.program.device.ctx;
        let stream = &self.program.device.stream;
        // Events without a flag have timing disabled: ask for the default (timing) kind.
        let event =
            || ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT)).map_err(CudaError::driver("creating a CUDA event"));
        let (begin, end) = (event()?, event()?);
        let start = Instant::now();
        begin.record(stream).map_err(CudaError::driver("recording a CUDA event"))?;
        let result = self.call(name, values, memory);
        let timing = end.record(stream).and_then(|()| end.synchronize()).and_then(|()| begin.elapsed_ms(&end)).map_err(
            CudaError::driver("running the kernels (a kernel failed: rerun with sync_each_launch to find which)"),
        );
        self.report.host_seconds = start.elapsed().as_secs_f64();
        if let Err(e) = result {
            // The host stopped at a launch the device could not run (or an error of its own):
            // bring back what the kernels so far computed, as the other targets leave the
            // fields at the point of failure. A device that failed cannot copy; its error wins.
            if let Err(download) = self.download(memory) {
                tracing::warn!(%download, "could not copy the fields back after a failed run");
            }
            return Err(e);
        }
        self.report.kernel_seconds = f64::from(timing?) / 1e3;

        let start = Instant::now();
        self.download(memory)?;
        self.report.download_seconds = start.elapsed().as_secs_f64();
        tracing::info!(
            kernel_seconds = self.report.kernel_seconds,
            upload_seconds = self.report.upload_seconds,
            download_seconds = self.report.download_seconds,
            "ran on the GPU"
        );
        Ok(())
    }

    /// Copies every device buffer back to its host buffer.
    fn download(&mut self, memory: &mut Memory) -> Result<(), CudaError> {
        let stream = &self.program.device.stream;
        let during = CudaError::driver;
        for (&h, copy) in &self.buffers {
            if self.scratch.contains(&h) {
                continue;
            }
            let Some(buffer) = memory.get_mut(MemRef(h)) else { continue };
            let bytes = element_bytes(&buffer.data);
            match (copy, &mut buffer.data) {
                (DeviceBuffer::F32(d), BufferData::F32(v)) => {
                    stream.memcpy_dtoh(d, v.as_mut_slice()).map_err(during("copying a buffer back"))?
                }
                (DeviceBuffer::F64(d), BufferData::F64(v)) => {
                    stream.memcpy_dtoh(d, v.as_mut_slice()).map_err(during("copying a buffer back"))?
                }
                // The handle was freed and reused by the host meanwhile; the host rejects
                // deallocation up front, so this does not happen.
                _ => continue,
            }
            self.report.bytes_downloaded += bytes;
        }
        self.sync("copying the fields back")
    }

    fn try_launch(
        &mut self,
        kernel: usize,
        grid: [i64; 3],
        block: [i64; 3],
        args: &[u64],
        memory: &mut Memory,
        site: &Site,
    ) -> Result<(), CudaError> {
        let program = self.program;
        let k = program.kernels.get(kernel).ok_or_else(|| CudaError::Abi {
            kernel: format!("#{kernel}"),
            message: "is launched but was not loaded".into(),
        })?;
        let props = program.device.properties();
        let bad =
            |message: String| CudaError::Runtime(RuntimeError::Launch { location: Loc::new(&site.location), message });
        let symbol = format!("@{}", k.symbol.replace("::", "::@"));
        let dims = |sizes: [i64; 3], what: &str, max: [u32; 3]| -> Result<[u32; 3], CudaError> {
            let mut out = [0u32; 3];
            for (d, (&v, &m)) in sizes.iter().zip(&max).enumerate() {
                let axis = ["x", "y", "z"][d];
                if v < 1 || v > i64::from(m) {
                    return Err(bad(format!(
                        "launches {symbol} with {what} size {v} along {axis}; this GPU allows 1 to {m}"
                    )));
                }
                out[d] = v as u32;
            }
            Ok(out)
        };
        let grid = dims(grid, "grid", props.max_grid_dims)?;
        let block = dims(block, "block", props.max_block_dims)?;
        let threads: u64 = block.iter().map(|&b| u64::from(b)).product();
        let limit = props.max_threads_per_block.min(k.info.max_threads_per_block);
        if threads > u64::from(limit) {
            return Err(bad(format!(
                "launches {symbol} with {threads} threads per block, but it can run at most {limit} ({} registers per thread, {} per block on this GPU): use a smaller gpu-map{{block=…}}",
                k.info.registers, props.registers_per_block
            )));
        }
        if args.len() != k.arg_types.len() {
            return Err(bad(format!("passes {} arguments to {symbol}, which takes {}", args.len(), k.arg_types.len())));
        }
        let mut params = Vec::with_capacity(k.spec.arguments.iter().map(Vec::len).sum());
        let abi = |message: String| CudaError::Abi { kernel: k.symbol.clone(), message };
        for (i, ((&bits, ty), arg_params)) in args.iter().zip(&k.arg_types).zip(&k.spec.arguments).enumerate() {
            if ty.as_memref().is_some() {
                if crate::loops::memory::is_flat_view(bits) {
                    return Err(bad(format!(
                        "cannot pass argument #{i} to {symbol}: it is a view made by memref.reinterpret_cast outside \
                         the kernel, which the executor does not pass to kernels"
                    )));
                }
                let h = MemRef(bits as u32);
                crate::loops::encode(&Value::MemRef(h), ty, memory)
                    .map_err(|why| bad(format!("cannot pass argument #{i} to {symbol} ({ty}): {why}")))?;
                if !self.buffers.contains_key(&h.0) {
                    // A buffer the host allocated (`memref.alloc`): first use on the device. Its
                    // contents are undefined until a kernel writes them (MLIR's semantics, and
                    // the host may not touch buffers), so it is allocated there, zeroed for
                    // determinism, instead of copied; it is not copied back either.
                    self.allocate_scratch(h, memory)?;
                }
                let shape = memory.shape(h).unwrap_or(&[]).to_vec();
                let pointer = self.buffers.get(&h.0).map_or(0, |b| b.pointer(&program.device.stream));
                for p in arg_params {
                    let value = match p.role {
                        ParamRole::AllocatedPointer | ParamRole::AlignedPointer => pointer,
                        ParamRole::Offset => 0,
                        ParamRole::Size { dim } => shape.get(dim).map_or(0, |&n| n as u64),
                        // Row-major: the product of the extents to the right.
                        ParamRole::Stride { dim } => shape.iter().skip(dim + 1).map(|&n| n as u64).product(),
                        ParamRole::Scalar => {
                            return Err(abi(format!("argument #{i} ({ty}) has a scalar parameter")));
                        }
                    };
                    params.push(ParamValue::word(&p.ptx_type, p.role, value).ok_or_else(|| {
                        abi(format!(
                            "argument #{i} ({ty}): parameter {} = {value} cannot be passed as {} (pointers are 64-bit; a 32-bit index holds at most 2^31 - 1)",
                            p.role, p.ptx_type
                        ))
                    })?);
                }
            } else {
                let [p] = arg_params.as_slice() else {
                    return Err(abi(format!("argument #{i} ({ty}) is not one scalar parameter")));
                };
                params.push(
                    ParamValue::scalar(&p.ptx_type, bits).ok_or_else(|| {
                        abi(format!("argument #{i} ({ty}): PTX type {} cannot be passed", p.ptx_type))
                    })?,
                );
            }
        }
        let stream = &program.device.stream;
        let mut launch = stream.launch_builder(&k.function);
        for p in &params {
            match p {
                ParamValue::U64(v) => launch.arg(v),
                ParamValue::U32(v) => launch.arg(v),
                ParamValue::U16(v) => launch.arg(v),
                ParamValue::U8(v) => launch.arg(v),
                ParamValue::F32(v) => launch.arg(v),
                ParamValue::F64(v) => launch.arg(v),
            };
        }
        let config = LaunchConfig {
            grid_dim: (grid[0], grid[1], grid[2]),
            block_dim: (block[0], block[1], block[2]),
            shared_mem_bytes: u32::try_from(k.info.dynamic_shared_bytes).unwrap_or(u32::MAX),
        };
        // SAFETY: the parameters are exactly the kernel's `.entry` list (checked against the
        // argument types at load time), every pointer is a live device buffer of the shape
        // passed with it, and the kernels were checked race-free and in bounds on the
        // simulator by the mapping's tests — a kernel that still faults makes the driver
        // report an error at the next synchronisation, not undefined behaviour on the host.
        unsafe { launch.launch(config) }.map_err(CudaError::driver(format!("launching {symbol}")))?;
        if self.options.sync_each_launch {
            self.sync(&format!("running {symbol} (launched at {})", Loc::new(&site.location)))?;
        }
        let c = &mut self.counts[kernel];
        let blocks: u64 = grid.iter().map(|&g| u64::from(g)).product();
        *c = [c[0] + 1, c[1] + blocks, c[2] + blocks * threads];
        Ok(())
    }
}

impl KernelLauncher for DeviceLauncher<'_, '_> {
    fn launch(
        &mut self,
        kernel: usize,
        grid: [i64; 3],
        block: [i64; 3],
        args: &[u64],
        memory: &mut Memory,
        site: &Site,
    ) -> RuntimeResult<()> {
        match self.try_launch(kernel, grid, block, args, memory, site) {
            Ok(()) => Ok(()),
            Err(CudaError::Runtime(e)) => Err(e),
            Err(e) => {
                let message = e.to_string();
                self.failure = Some(e);
                Err(RuntimeError::Launch { location: Loc::new(&site.location), message })
            }
        }
    }
}
