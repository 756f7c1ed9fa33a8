// Nothing is lost: `-o FILE` is replaced atomically and only by a successful run, `--out DIR`
// is written all or nothing, a program that frees its field is an error, and a closed or full
// standard output is an error, not a panic.
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
