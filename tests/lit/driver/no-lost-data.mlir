// Nothing is lost: `-o FILE` (with --explain-tile-sizes-json and --dump-tiling) is replaced
// atomically and only by a successful run, `--out DIR` is written all or nothing, a program
// that frees its field is an error, and a closed or full standard output is an error, not a
// panic.
//
// -o: a failed run (parse error, bad pipeline, failed --emit=ptx) leaves FILE as it was.
// RUN: echo "precious" > %t.out
// RUN: not stencil-opt %S/Inputs/not-ir.mlir -o %t.out
// RUN: FileCheck %s --check-prefix=KEPT < %t.out
// RUN: not stencil-opt %s -p 'builtin.module(nope)' -o %t.out
// RUN: FileCheck %s --check-prefix=KEPT < %t.out
// RUN: not stencil-opt %s --emit=ptx -o %t.out
// RUN: FileCheck %s --check-prefix=KEPT < %t.out
// KEPT: precious
// ...and a successful one replaces it, leaving no temporary file beside it:
// RUN: rm -rf %t.dir && mkdir -p %t.dir && echo "old" > %t.dir/out.mlir
// RUN: stencil-opt %s -o %t.dir/out.mlir
// RUN: FileCheck %s < %t.dir/out.mlir
// RUN: ls -A %t.dir | FileCheck %s --check-prefix=ONLY --implicit-check-not=tmp
// ONLY: out.mlir
// CHECK: func.func private @f()
//
// The other files stencil-opt writes (--explain-tile-sizes-json, --dump-tiling) are, like -o,
// written only when the whole run succeeds, and all together: a pipeline that fails after the
// explanation was made, an -o that cannot be written, a failing --dump-tiling or --emit=ptx
// leave each old file as it was.
// RUN: rm -rf %t.side %t.nodir && mkdir -p %t.side && echo "precious" > %t.side/x.json && echo "precious" > %t.side/t.svg && echo "precious" > %t.side/out.mlir
// RUN: not stencil-opt %S/../../../examples/sor-2d-5pt.mlir -p 'builtin.module(poly-schedule,poly-tile{sizes=auto},gpu-map{strategy=naive})' --explain-tile-sizes-json=%t.side/x.json -o %t.side/out.mlir
// RUN: FileCheck %s --check-prefix=KEPT < %t.side/x.json
// RUN: not stencil-opt %S/../../../examples/sor-1d-3pt.mlir -p 'builtin.module(poly-schedule,poly-tile{sizes=4})' --explain-tile-sizes-json=%t.side/x.json --dump-tiling=%t.side/t.svg -o %t.nodir/out.mlir 2>&1 | FileCheck %s --check-prefix=SIDE-OUT
// SIDE-OUT: stencil-opt: error: cannot write output file '{{.*}}nodir/out.mlir': {{.*}}; no file was written
// RUN: FileCheck %s --check-prefix=KEPT < %t.side/x.json
// RUN: FileCheck %s --check-prefix=KEPT < %t.side/t.svg
// RUN: not stencil-opt %S/../../../examples/sor-1d-3pt.mlir -p 'builtin.module(poly-schedule,poly-tile{sizes=4})' --explain-tile-sizes-json=%t.side/x.json --dump-tiling=%t.side/t.svg --dump-tiling-statement=S9 -o %t.side/out.mlir
// RUN: not stencil-opt %S/../../../examples/sor-1d-3pt.mlir -p 'builtin.module(poly-schedule,poly-tile{sizes=4})' --explain-tile-sizes-json=%t.side/x.json --emit=ptx -o %t.side/out.mlir
// RUN: FileCheck %s --check-prefix=KEPT < %t.side/x.json
// RUN: FileCheck %s --check-prefix=KEPT < %t.side/t.svg
// A side file that cannot be written keeps -o's old file too:
// RUN: not stencil-opt %S/../../../examples/sor-1d-3pt.mlir -p 'builtin.module(poly-schedule,poly-tile{sizes=4})' --explain-tile-sizes-json=%t.side/x.json --dump-tiling=%t.nodir/t.svg -o %t.side/out.mlir 2>&1 | FileCheck %s --check-prefix=SIDE-SVG
// SIDE-SVG: stencil-opt: error: --dump-tiling: cannot write '{{.*}}nodir/t.svg': {{.*}}; no file was written
// RUN: FileCheck %s --check-prefix=KEPT < %t.side/out.mlir
// RUN: FileCheck %s --check-prefix=KEPT < %t.side/x.json
// A run that succeeds writes all three, and nothing else:
// RUN: stencil-opt %S/../../../examples/sor-1d-3pt.mlir -p 'builtin.module(poly-schedule,poly-tile{sizes=4})' --explain-tile-sizes-json=%t.side/x.json --dump-tiling=%t.side/t.svg -o %t.side/out.mlir
// RUN: FileCheck %s --check-prefix=SIDE-JSON < %t.side/x.json
// SIDE-JSON: "programs"
// RUN: FileCheck %s --check-prefix=SIDE-PICTURE < %t.side/t.svg
// SIDE-PICTURE: <svg
// RUN: FileCheck %s --check-prefix=SIDE-IR < %t.side/out.mlir
// SIDE-IR: stencil.program @sor_1d_3pt
// RUN: ls -A %t.side | FileCheck %s --check-prefix=SIDE-FILES --implicit-check-not=tmp --implicit-check-not=old
// SIDE-FILES: out.mlir
// SIDE-FILES-NEXT: t.svg
// SIDE-FILES-NEXT: x.json
//
// --out: when B.npy cannot be written, A.npy is not written either (and an old one stays).
// RUN: rm -rf %t.fields && mkdir -p %t.fields/B.npy && echo "old A" > %t.fields/A.npy
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --param N=4 --out %t.fields 2>&1 | FileCheck %s --check-prefix=OUT
// OUT: error: --out: '{{.*}}B.npy' exists and is not a file; nothing was written
// RUN: FileCheck %s --check-prefix=OLD-A < %t.fields/A.npy
// OLD-A: old A
// RUN: ls -A %t.fields | FileCheck %s --check-prefix=FIELDS --implicit-check-not=tmp
// FIELDS: A.npy
// FIELDS-NEXT: B.npy
// A folder that does not exist yet appears with every file:
// RUN: rm -rf %t.new && stencil-run %S/Inputs/no-defaults.mlir --param N=4 --out %t.new/sub > /dev/null
// RUN: ls -A %t.new/sub | FileCheck %s --check-prefix=NEW
// NEW: A.npy
// NEW-NEXT: B.npy
//
// A lowered program that frees its field argument fails at the dealloc (with or without --check):
// RUN: not stencil-run %S/Inputs/frees-field.mlir 2>&1 | FileCheck %s --check-prefix=FREED
// RUN: not stencil-run %S/Inputs/frees-field.mlir --check 2>&1 | FileCheck %s --check-prefix=FREED
// FREED: frees-field.mlir:9:3: error: 'memref.dealloc' frees a field argument, which belongs to the caller
//
// A full standard output is an error message and exit code 1, never a panic (a closed pipe
// likewise: driver/tests/closed_stdout.rs, where the reader can be closed before the write).
// RUN: not stencil-run %S/Inputs/no-defaults.mlir --param N=4 > /dev/full 2> %t.full
// RUN: FileCheck %s --check-prefix=FULL < %t.full
// RUN: not stencil-opt %s > /dev/full 2> %t.full-opt
// RUN: FileCheck %s --check-prefix=FULL < %t.full-opt
// RUN: not stencil-opt --list-passes > /dev/full 2> %t.full-list
// RUN: FileCheck %s --check-prefix=FULL < %t.full-list
// FULL: error: cannot write {{.*}}standard output: No space left on device
func.func private @f()
