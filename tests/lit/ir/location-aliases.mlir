// Location aliases as `mlir-opt --mlir-print-debuginfo` prints them: `#locN = loc(...)` at the
// top level, used before their definitions (which MLIR prints after the module), through
// other aliases, in call-site and fused locations. Each op gets the location its alias names,
// so diagnostics point into the original source, as MLIR's do.
// RUN: not stencil-opt %s --split-input-file --mlir-print-debuginfo 2>/dev/null | FileCheck %s
// RUN: not stencil-opt %s --split-input-file 2>&1 | FileCheck %s --check-prefix=ERR

#loc1 = loc("kernel.c":3:1)
// CHECK-LABEL: func.func @uses
// CHECK: arith.constant 1.000000e+00 : f64 loc("kernel.c":4:7)
// CHECK-NEXT: arith.addf {{.*}} loc(callsite("helper.h":10:3 at "kernel.c":5:9))
// CHECK-NEXT: arith.mulf {{.*}} loc(fused["kernel.c":6:2, "kernel.c":3:1])
// CHECK-NEXT: return %{{.*}} loc("kernel.c":3:1)
func.func @uses(%a: f64) -> f64 {
  %c = arith.constant 1.0 : f64 loc(#loc2)
  %s = arith.addf %a, %c : f64 loc(#loc5)
  %p = arith.mulf %s, %s : f64 loc(#loc6)
  return %p : f64 loc(#loc1)
}
#loc2 = loc("kernel.c":4:7)
#loc3 = loc("helper.h":10:3)
#loc4 = loc("kernel.c":5:9)
#loc5 = loc(callsite(#loc3 at #loc4))
#loc6 = loc(fused[#loc7, #loc1])
#loc7 = loc("kernel.c":6:2)

// -----

// A fused location keeps its metadata (as `--affine-loop-fusion` and other passes write it).
// CHECK-LABEL: func.func @tagged
// CHECK: arith.addf {{.*}} loc(fused<"loop fusion">["kernel.c":7:1, "kernel.c":8:1])
// CHECK-NEXT: arith.mulf {{.*}} loc(fused<{pass = "inline"}>["kernel.c":9:1])
// CHECK-NEXT: return {{.*}} loc(fused<"outer">[fused<"inner">["kernel.c":1:1]])
func.func @tagged(%a: f64) -> f64 {
  %s = arith.addf %a, %a : f64 loc(fused<"loop fusion">["kernel.c":7:1, "kernel.c":8:1])
  %p = arith.mulf %s, %s : f64 loc(#tag)
  return %p : f64 loc(fused<"outer">[fused<"inner">["kernel.c":1:1]])
}
#tag = loc(fused<{pass = "inline"}>["kernel.c":9:1])

// -----

// ERR: location-aliases.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: undefined location alias '#nowhere'
func.func @f() { return loc(#nowhere) }

// -----

#a = loc(#b)
#b = loc(#a)
// ERR: location-aliases.mlir:[[# @LINE - 2]]:10: error: location alias '#b' is defined through itself (a cycle of aliases)
func.func @f() { return loc(#a) }

// -----

#twice = loc("x.c":1:2)
#twice = loc("x.c":1:3)
// ERR: location-aliases.mlir:[[# @LINE - 1]]:1: error: redefinition of location alias '#twice'
func.func @f() { return loc(#twice) }

// -----

// ERR: location-aliases.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: expected 'at' in a call-site location, found 'from'
func.func @f() { return loc(callsite("a.c":1:2 from "b.c":3:4)) }

// -----

// A diagnostic in inlined code points at the callee and notes each caller, as MLIR's do.
// ERR: helper.c:3:7: error: 'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'
// ERR-NEXT: kernel.c:10:5: note: called from
// ERR-NEXT: main.c:2:1: note: called from
func.func @inlined(%a: f32) -> f32 {
  %b = "arith.addi"(%a, %a) : (f32, f32) -> f32 loc(#inner)
  return %b : f32
}
#inner = loc(callsite("helper.c":3:7 at #outer))
#outer = loc(callsite("kernel.c":10:5 at "main.c":2:1))
