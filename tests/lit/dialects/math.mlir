// Every math op in custom form, printed back exactly as mlir-opt 22 prints it, and its generic
// form: float ops carry `fastmath = #arith.fastmath<none>` by default, integer ops nothing.
// RUN: stencil-opt %s | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @float_functions
// CHECK-SAME:    (%arg0: f32, %arg1: f32, %arg2: f32, %arg3: f64, %arg4: i32)
// CHECK-NEXT:    %0 = math.sqrt %arg0 : f32
// CHECK-NEXT:    %1 = math.rsqrt %arg3 : f64
// CHECK-NEXT:    %2 = math.cbrt %arg0 : f32
// CHECK-NEXT:    %3 = math.absf %arg0 fastmath<fast> : f32
// CHECK-NEXT:    %4 = math.exp %arg0 : f32
// CHECK-NEXT:    %5 = math.exp2 %arg0 : f32
// CHECK-NEXT:    %6 = math.expm1 %arg0 : f32
// CHECK-NEXT:    %7 = math.log %arg0 : f32
// CHECK-NEXT:    %8 = math.log2 %arg0 : f32
// CHECK-NEXT:    %9 = math.log10 %arg0 : f32
// CHECK-NEXT:    %10 = math.log1p %arg0 : f32
// CHECK-NEXT:    %11 = math.sin %arg0 : f32
// CHECK-NEXT:    %12 = math.cos %arg0 : f32
// CHECK-NEXT:    %13 = math.tan %arg0 : f32
// CHECK-NEXT:    %14 = math.asin %arg0 : f32
// CHECK-NEXT:    %15 = math.acos %arg0 : f32
// CHECK-NEXT:    %16 = math.atan %arg0 : f32
// CHECK-NEXT:    %17 = math.sinh %arg0 : f32
// CHECK-NEXT:    %18 = math.cosh %arg0 : f32
// CHECK-NEXT:    %19 = math.tanh %arg0 fastmath<afn> : f32
// CHECK-NEXT:    %20 = math.erf %arg0 : f32
// CHECK-NEXT:    %21 = math.floor %arg0 : f32
// CHECK-NEXT:    %22 = math.ceil %arg0 : f32
// CHECK-NEXT:    %23 = math.round %arg0 : f32
// CHECK-NEXT:    %24 = math.roundeven %arg0 : f32
// CHECK-NEXT:    %25 = math.trunc %arg0 : f32
// CHECK-NEXT:    %26 = math.powf %arg0, %arg1 : f32
// CHECK-NEXT:    %27 = math.atan2 %arg0, %arg1 : f32
// CHECK-NEXT:    %28 = math.copysign %arg0, %arg1 : f32
// CHECK-NEXT:    %29 = math.fma %arg0, %arg1, %arg2 : f32
// CHECK-NEXT:    %30 = math.fma %arg0, %arg1, %arg2 fastmath<contract> {tag} : f32
// CHECK-NEXT:    %31 = math.fpowi %arg0, %arg4 : f32, i32
// CHECK-NEXT:    %32 = math.fpowi %arg3, %arg4 fastmath<nnan,ninf> : f64, i32
// CHECK-NEXT:    return
// GENERIC-LABEL: sym_name = "float_functions"
// GENERIC:         "math.sqrt"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
// GENERIC-NEXT:    "math.rsqrt"(%arg3) <{fastmath = #arith.fastmath<none>}> : (f64) -> f64
// GENERIC:         "math.absf"(%arg0) <{fastmath = #arith.fastmath<fast>}> : (f32) -> f32
// GENERIC:         "math.tanh"(%arg0) <{fastmath = #arith.fastmath<afn>}> : (f32) -> f32
// GENERIC:         "math.powf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC:         "math.fma"(%arg0, %arg1, %arg2) <{fastmath = #arith.fastmath<none>}> : (f32, f32, f32) -> f32
// GENERIC-NEXT:    "math.fma"(%arg0, %arg1, %arg2) <{fastmath = #arith.fastmath<contract>}> {tag} : (f32, f32, f32) -> f32
// GENERIC-NEXT:    "math.fpowi"(%arg0, %arg4) <{fastmath = #arith.fastmath<none>}> : (f32, i32) -> f32
// GENERIC-NEXT:    "math.fpowi"(%arg3, %arg4) <{fastmath = #arith.fastmath<nnan,ninf>}> : (f64, i32) -> f64
func.func @float_functions(%x: f32, %y: f32, %z: f32, %d: f64, %n: i32) {
  %0 = math.sqrt %x : f32
  %1 = math.rsqrt %d : f64
  %2 = math.cbrt %x : f32
  %3 = math.absf %x fastmath<fast> : f32
  %4 = math.exp %x : f32
  %5 = math.exp2 %x : f32
  %6 = math.expm1 %x : f32
  %7 = math.log %x : f32
  %8 = math.log2 %x : f32
  %9 = math.log10 %x : f32
  %10 = math.log1p %x : f32
  %11 = math.sin %x : f32
  %12 = math.cos %x : f32
  %13 = math.tan %x : f32
  %14 = math.asin %x : f32
  %15 = math.acos %x : f32
  %16 = math.atan %x : f32
  %17 = math.sinh %x : f32
  %18 = math.cosh %x : f32
  %19 = math.tanh %x fastmath<afn> : f32
  %20 = math.erf %x : f32
  %21 = math.floor %x : f32
  %22 = math.ceil %x : f32
  %23 = math.round %x : f32
  %24 = math.roundeven %x : f32
  %25 = math.trunc %x : f32
  %26 = math.powf %x, %y : f32
  %27 = math.atan2 %x, %y : f32
  %28 = math.copysign %x, %y fastmath<none> : f32
  %29 = math.fma %x, %y, %z : f32
  %30 = math.fma %x, %y, %z fastmath<contract> {tag} : f32
  %31 = math.fpowi %x, %n : f32, i32
  %32 = math.fpowi %d, %n fastmath<ninf,nnan> : f64, i32
  return
}

// CHECK-LABEL: func.func @integer_functions
// CHECK-NEXT:    %0 = math.absi %arg0 : i32
// CHECK-NEXT:    %1 = math.ctlz %arg0 : i32
// CHECK-NEXT:    %2 = math.cttz %arg1 : index
// CHECK-NEXT:    %3 = math.ctpop %arg0 : i32
// CHECK-NEXT:    %4 = math.ipowi %arg0, %arg0 : i32
// CHECK-NEXT:    return
// GENERIC-LABEL: sym_name = "integer_functions"
// GENERIC:         "math.absi"(%arg0) : (i32) -> i32
// GENERIC-NEXT:    "math.ctlz"(%arg0) : (i32) -> i32
// GENERIC-NEXT:    "math.cttz"(%arg1) : (index) -> index
// GENERIC-NEXT:    "math.ctpop"(%arg0) : (i32) -> i32
// GENERIC-NEXT:    "math.ipowi"(%arg0, %arg0) : (i32, i32) -> i32
func.func @integer_functions(%a: i32, %i: index) {
  %0 = math.absi %a : i32
  %1 = math.ctlz %a : i32
  %2 = math.cttz %i : index
  %3 = math.ctpop %a : i32
  %4 = math.ipowi %a, %a : i32
  return
}

// Generic input without `fastmath` gets the default, as in mlir-opt.
// CHECK-LABEL: func.func @generic_defaults
// CHECK-NEXT:    %0 = math.sqrt %arg0 : f32
// GENERIC-LABEL: sym_name = "generic_defaults"
// GENERIC:         "math.sqrt"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
func.func @generic_defaults(%x: f32) {
  %0 = "math.sqrt"(%x) : (f32) -> f32
  return
}
