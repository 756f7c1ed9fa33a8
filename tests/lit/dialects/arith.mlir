// Every arith op in custom form, printed back exactly as mlir-opt 22 prints it, and its generic
// form with MLIR's properties (`overflowFlags` and `fastmath` are always present, `isExact`,
// `roundingmode` and `extf`/`truncf` fast-math flags only when written).
// RUN: stencil-opt %s | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @constants
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:    %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT:    %c-1_i8 = arith.constant -1 : i8
// CHECK-NEXT:    %c42_i64 = arith.constant 42 : i64
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %false = arith.constant false
// CHECK-NEXT:    %cst = arith.constant 1.500000e+00 : f32
// CHECK-NEXT:    %cst_0 = arith.constant 0.30000000000000004 : f64
// CHECK-NEXT:    %cst_1 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT:    %cst_2 = arith.constant -0.000000e+00 : f64
// CHECK-NEXT:    %c7_i32 = arith.constant {tag} 7 : i32
// CHECK-NEXT:    %c0_3 = arith.constant 0 : index
// CHECK-NEXT:    return
// GENERIC-LABEL: "func.func"() <{function_type = () -> (), sym_name = "constants"}>
// GENERIC:         "arith.constant"() <{value = 0 : index}> : () -> index
// GENERIC-NEXT:    "arith.constant"() <{value = 1 : i32}> : () -> i32
// GENERIC-NEXT:    "arith.constant"() <{value = -1 : i32}> : () -> i32
// GENERIC-NEXT:    "arith.constant"() <{value = -1 : i8}> : () -> i8
// GENERIC-NEXT:    "arith.constant"() <{value = 42 : i64}> : () -> i64
// GENERIC-NEXT:    "arith.constant"() <{value = true}> : () -> i1
// GENERIC-NEXT:    "arith.constant"() <{value = false}> : () -> i1
// GENERIC-NEXT:    "arith.constant"() <{value = 1.500000e+00 : f32}> : () -> f32
// GENERIC-NEXT:    "arith.constant"() <{value = 0.30000000000000004 : f64}> : () -> f64
// GENERIC-NEXT:    "arith.constant"() <{value = 0x7FC00000 : f32}> : () -> f32
// GENERIC-NEXT:    "arith.constant"() <{value = -0.000000e+00 : f64}> : () -> f64
// GENERIC-NEXT:    "arith.constant"() <{value = 7 : i32}> {tag} : () -> i32
func.func @constants() {
  %a = arith.constant 0 : index
  %b = arith.constant 1 : i32
  %c = arith.constant -1 : i32
  %d = arith.constant 255 : i8
  %e = arith.constant 42
  %f = arith.constant 1 : i1
  %g = arith.constant false
  %h = arith.constant 1.5 : f32
  %i = arith.constant 0.30000000000000004 : f64
  %j = arith.constant 0x7FC00000 : f32
  %k = arith.constant -0.0 : f64
  %l = arith.constant {tag} 7 : i32
  %m = "arith.constant"() {value = 0 : index} : () -> index
  return
}

// CHECK-LABEL: func.func @integer_arith
// CHECK-SAME:    (%arg0: i32, %arg1: i32, %arg2: index)
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:    %1 = arith.addi %arg0, %arg1 overflow<nsw> : i32
// CHECK-NEXT:    %2 = arith.subi %arg0, %arg1 overflow<nsw, nuw> : i32
// CHECK-NEXT:    %3 = arith.muli %arg2, %arg2 overflow<nuw> : index
// CHECK-NEXT:    %4 = arith.divsi %arg0, %arg1 : i32
// CHECK-NEXT:    %5 = arith.divsi %arg0, %arg1 exact : i32
// CHECK-NEXT:    %6 = arith.divui %arg0, %arg1 exact {tag} : i32
// CHECK-NEXT:    %7 = arith.remsi %arg0, %arg1 : i32
// CHECK-NEXT:    %8 = arith.remui %arg0, %arg1 : i32
// CHECK-NEXT:    %9 = arith.ceildivsi %arg2, %arg2 : index
// CHECK-NEXT:    %10 = arith.floordivsi %arg0, %arg1 : i32
// CHECK-NEXT:    %11 = arith.andi %arg0, %arg1 : i32
// CHECK-NEXT:    %12 = arith.ori %arg0, %arg1 : i32
// CHECK-NEXT:    %13 = arith.xori %arg0, %arg1 : i32
// CHECK-NEXT:    %14 = arith.shli %arg0, %arg1 overflow<nsw> : i32
// CHECK-NEXT:    %15 = arith.shrsi %arg0, %arg1 : i32
// CHECK-NEXT:    %16 = arith.shrui %arg0, %arg1 exact : i32
// CHECK-NEXT:    %17 = arith.minsi %arg0, %arg1 : i32
// CHECK-NEXT:    %18 = arith.maxsi %arg0, %arg1 : i32
// CHECK-NEXT:    %19 = arith.minui %arg0, %arg1 : i32
// CHECK-NEXT:    %20 = arith.maxui %arg0, %arg1 : i32
// CHECK-NEXT:    %21 = arith.addi %arg0, %arg1 {tag = 1 : i64} : i32
// CHECK-NEXT:    return
// GENERIC-LABEL: sym_name = "integer_arith"
// GENERIC:         "arith.addi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.addi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.subi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<nsw, nuw>}> : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.muli"(%arg2, %arg2) <{overflowFlags = #arith.overflow<nuw>}> : (index, index) -> index
// GENERIC-NEXT:    "arith.divsi"(%arg0, %arg1) : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.divsi"(%arg0, %arg1) <{isExact}> : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.divui"(%arg0, %arg1) <{isExact}> {tag} : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.remsi"(%arg0, %arg1) : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.remui"(%arg0, %arg1) : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.ceildivsi"(%arg2, %arg2) : (index, index) -> index
// GENERIC-NEXT:    "arith.floordivsi"(%arg0, %arg1) : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.andi"(%arg0, %arg1) : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.ori"(%arg0, %arg1) : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.xori"(%arg0, %arg1) : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.shli"(%arg0, %arg1) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.shrsi"(%arg0, %arg1) : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.shrui"(%arg0, %arg1) <{isExact}> : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.minsi"(%arg0, %arg1) : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.maxsi"(%arg0, %arg1) : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.minui"(%arg0, %arg1) : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.maxui"(%arg0, %arg1) : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.addi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<none>}> {tag = 1 : i64} : (i32, i32) -> i32
func.func @integer_arith(%a: i32, %b: i32, %i: index) {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %a, %b overflow<nsw> : i32
  %2 = arith.subi %a, %b overflow<nuw, nsw> : i32
  %3 = arith.muli %i, %i overflow<nuw> : index
  %4 = arith.divsi %a, %b : i32
  %5 = arith.divsi %a, %b exact : i32
  %6 = arith.divui %a, %b exact {tag} : i32
  %7 = arith.remsi %a, %b : i32
  %8 = arith.remui %a, %b : i32
  %9 = arith.ceildivsi %i, %i : index
  %10 = arith.floordivsi %a, %b : i32
  %11 = arith.andi %a, %b : i32
  %12 = arith.ori %a, %b : i32
  %13 = arith.xori %a, %b : i32
  %14 = arith.shli %a, %b overflow<nsw> : i32
  %15 = arith.shrsi %a, %b : i32
  %16 = arith.shrui %a, %b exact : i32
  %17 = arith.minsi %a, %b : i32
  %18 = arith.maxsi %a, %b : i32
  %19 = arith.minui %a, %b : i32
  %20 = arith.maxui %a, %b : i32
  %21 = arith.addi %a, %b overflow<none> {tag = 1} : i32
  return
}

// CHECK-LABEL: func.func @float_arith
// CHECK-SAME:    (%arg0: f32, %arg1: f32, %arg2: f64)
// CHECK-NEXT:    %0 = arith.addf %arg0, %arg1 : f32
// CHECK-NEXT:    %1 = arith.addf %arg0, %arg1 fastmath<fast> : f32
// CHECK-NEXT:    %2 = arith.subf %arg0, %arg1 fastmath<nnan,ninf> : f32
// CHECK-NEXT:    %3 = arith.mulf %arg2, %arg2 fastmath<contract,afn> : f64
// CHECK-NEXT:    %4 = arith.divf %arg0, %arg1 : f32
// CHECK-NEXT:    %5 = arith.remf %arg0, %arg1 : f32
// CHECK-NEXT:    %6 = arith.minimumf %arg0, %arg1 : f32
// CHECK-NEXT:    %7 = arith.maximumf %arg0, %arg1 : f32
// CHECK-NEXT:    %8 = arith.minnumf %arg0, %arg1 : f32
// CHECK-NEXT:    %9 = arith.maxnumf %arg0, %arg1 fastmath<nsz> : f32
// CHECK-NEXT:    %10 = arith.negf %arg0 : f32
// CHECK-NEXT:    %11 = arith.negf %arg2 fastmath<reassoc> : f64
// CHECK-NEXT:    %12 = arith.addf %arg0, %arg1 fastmath<fast> : f32
// CHECK-NEXT:    return
// GENERIC-LABEL: sym_name = "float_arith"
// GENERIC:         "arith.addf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:    "arith.addf"(%arg0, %arg1) <{fastmath = #arith.fastmath<fast>}> : (f32, f32) -> f32
// GENERIC-NEXT:    "arith.subf"(%arg0, %arg1) <{fastmath = #arith.fastmath<nnan,ninf>}> : (f32, f32) -> f32
// GENERIC-NEXT:    "arith.mulf"(%arg2, %arg2) <{fastmath = #arith.fastmath<contract,afn>}> : (f64, f64) -> f64
// GENERIC-NEXT:    "arith.divf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:    "arith.remf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:    "arith.minimumf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:    "arith.maximumf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:    "arith.minnumf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:    "arith.maxnumf"(%arg0, %arg1) <{fastmath = #arith.fastmath<nsz>}> : (f32, f32) -> f32
// GENERIC-NEXT:    "arith.negf"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
// GENERIC-NEXT:    "arith.negf"(%arg2) <{fastmath = #arith.fastmath<reassoc>}> : (f64) -> f64
// GENERIC-NEXT:    "arith.addf"(%arg0, %arg1) <{fastmath = #arith.fastmath<fast>}> : (f32, f32) -> f32
func.func @float_arith(%x: f32, %y: f32, %d: f64) {
  %0 = arith.addf %x, %y fastmath<none> : f32
  %1 = arith.addf %x, %y fastmath<reassoc,nnan,ninf,nsz,arcp,contract,afn> : f32
  %2 = arith.subf %x, %y fastmath<ninf, nnan> : f32
  %3 = arith.mulf %d, %d fastmath<afn,contract> : f64
  %4 = arith.divf %x, %y : f32
  %5 = arith.remf %x, %y : f32
  %6 = arith.minimumf %x, %y : f32
  %7 = arith.maximumf %x, %y : f32
  %8 = arith.minnumf %x, %y : f32
  %9 = arith.maxnumf %x, %y fastmath<nsz> : f32
  %10 = arith.negf %x : f32
  %11 = arith.negf %d fastmath<reassoc> : f64
  // The property may also be written in the attribute dictionary.
  %12 = arith.addf %x, %y {fastmath = #arith.fastmath<fast>} : f32
  return
}

// CHECK-LABEL: func.func @compare_select
// CHECK-NEXT:    %0 = arith.cmpi eq, %arg0, %arg1 : i32
// CHECK-NEXT:    %1 = arith.cmpi ne, %arg0, %arg1 : i32
// CHECK-NEXT:    %2 = arith.cmpi slt, %arg0, %arg1 : i32
// CHECK-NEXT:    %3 = arith.cmpi sle, %arg0, %arg1 : i32
// CHECK-NEXT:    %4 = arith.cmpi sgt, %arg0, %arg1 : i32
// CHECK-NEXT:    %5 = arith.cmpi sge, %arg0, %arg1 : i32
// CHECK-NEXT:    %6 = arith.cmpi ult, %arg4, %arg4 : index
// CHECK-NEXT:    %7 = arith.cmpi ule, %arg0, %arg1 : i32
// CHECK-NEXT:    %8 = arith.cmpi ugt, %arg0, %arg1 : i32
// CHECK-NEXT:    %9 = arith.cmpi uge, %arg0, %arg1 {tag} : i32
// CHECK-NEXT:    %10 = arith.cmpf false, %arg2, %arg3 : f32
// CHECK-NEXT:    %11 = arith.cmpf oeq, %arg2, %arg3 : f32
// CHECK-NEXT:    %12 = arith.cmpf ogt, %arg2, %arg3 : f32
// CHECK-NEXT:    %13 = arith.cmpf oge, %arg2, %arg3 : f32
// CHECK-NEXT:    %14 = arith.cmpf olt, %arg2, %arg3 fastmath<fast> : f32
// CHECK-NEXT:    %15 = arith.cmpf ole, %arg2, %arg3 : f32
// CHECK-NEXT:    %16 = arith.cmpf one, %arg2, %arg3 : f32
// CHECK-NEXT:    %17 = arith.cmpf ord, %arg2, %arg3 : f32
// CHECK-NEXT:    %18 = arith.cmpf ueq, %arg2, %arg3 : f32
// CHECK-NEXT:    %19 = arith.cmpf ugt, %arg2, %arg3 : f32
// CHECK-NEXT:    %20 = arith.cmpf uge, %arg2, %arg3 : f32
// CHECK-NEXT:    %21 = arith.cmpf ult, %arg2, %arg3 : f32
// CHECK-NEXT:    %22 = arith.cmpf ule, %arg2, %arg3 : f32
// CHECK-NEXT:    %23 = arith.cmpf une, %arg2, %arg3 : f32
// CHECK-NEXT:    %24 = arith.cmpf uno, %arg2, %arg3 : f32
// CHECK-NEXT:    %25 = arith.cmpf true, %arg2, %arg3 : f32
// CHECK-NEXT:    %26 = arith.select %0, %arg0, %arg1 : i32
// CHECK-NEXT:    %27 = arith.select %11, %arg2, %arg3 {tag} : f32
// CHECK-NEXT:    %28 = arith.select %0, %arg4, %arg4 : index
// CHECK-NEXT:    return
// GENERIC-LABEL: sym_name = "compare_select"
// GENERIC:         "arith.cmpi"(%arg0, %arg1) <{predicate = 0 : i64}> : (i32, i32) -> i1
// GENERIC:         "arith.cmpi"(%arg0, %arg1) <{predicate = 9 : i64}> {tag} : (i32, i32) -> i1
// GENERIC-NEXT:    "arith.cmpf"(%arg2, %arg3) <{fastmath = #arith.fastmath<none>, predicate = 0 : i64}> : (f32, f32) -> i1
// GENERIC:         "arith.cmpf"(%arg2, %arg3) <{fastmath = #arith.fastmath<fast>, predicate = 4 : i64}> : (f32, f32) -> i1
// GENERIC:         "arith.cmpf"(%arg2, %arg3) <{fastmath = #arith.fastmath<none>, predicate = 15 : i64}> : (f32, f32) -> i1
// GENERIC-NEXT:    "arith.select"(%{{.*}}, %arg0, %arg1) : (i1, i32, i32) -> i32
// GENERIC-NEXT:    "arith.select"(%{{.*}}, %arg2, %arg3) {tag} : (i1, f32, f32) -> f32
func.func @compare_select(%a: i32, %b: i32, %x: f32, %y: f32, %i: index) {
  %0 = arith.cmpi eq, %a, %b : i32
  %1 = arith.cmpi ne, %a, %b : i32
  %2 = arith.cmpi slt, %a, %b : i32
  %3 = arith.cmpi sle, %a, %b : i32
  %4 = arith.cmpi sgt, %a, %b : i32
  %5 = arith.cmpi sge, %a, %b : i32
  %6 = arith.cmpi ult, %i, %i : index
  %7 = arith.cmpi ule, %a, %b : i32
  %8 = arith.cmpi ugt, %a, %b : i32
  %9 = arith.cmpi "uge", %a, %b {tag} : i32
  %10 = arith.cmpf false, %x, %y : f32
  %11 = arith.cmpf oeq, %x, %y : f32
  %12 = arith.cmpf ogt, %x, %y : f32
  %13 = arith.cmpf oge, %x, %y : f32
  %14 = arith.cmpf olt, %x, %y fastmath<fast> : f32
  %15 = arith.cmpf ole, %x, %y : f32
  %16 = arith.cmpf one, %x, %y : f32
  %17 = arith.cmpf ord, %x, %y : f32
  %18 = arith.cmpf ueq, %x, %y : f32
  %19 = arith.cmpf ugt, %x, %y : f32
  %20 = arith.cmpf uge, %x, %y : f32
  %21 = arith.cmpf ult, %x, %y : f32
  %22 = arith.cmpf ule, %x, %y : f32
  %23 = arith.cmpf une, %x, %y : f32
  %24 = arith.cmpf uno, %x, %y : f32
  %25 = arith.cmpf true, %x, %y : f32
  %26 = arith.select %0, %a, %b : i32
  %27 = arith.select %11, %x, %y {tag} : f32
  %28 = arith.select %0, %i, %i : i1, index
  return
}

// CHECK-LABEL: func.func @casts
// CHECK-NEXT:    %0 = arith.index_cast %arg0 : i32 to index
// CHECK-NEXT:    %1 = arith.index_cast %0 : index to i64
// CHECK-NEXT:    %2 = arith.index_castui %arg0 : i32 to index
// CHECK-NEXT:    %3 = arith.sitofp %arg0 : i32 to f32
// CHECK-NEXT:    %4 = arith.uitofp %arg0 : i32 to f64
// CHECK-NEXT:    %5 = arith.fptosi %arg1 : f32 to i32
// CHECK-NEXT:    %6 = arith.fptoui %arg2 : f64 to i8
// CHECK-NEXT:    %7 = arith.extf %arg1 : f32 to f64
// CHECK-NEXT:    %8 = arith.extf %arg1 fastmath<none> : f32 to f64
// CHECK-NEXT:    %9 = arith.truncf %arg2 : f64 to f32
// CHECK-NEXT:    %10 = arith.truncf %arg2 toward_zero fastmath<fast> : f64 to f32
// CHECK-NEXT:    %11 = arith.extsi %arg0 : i32 to i64
// CHECK-NEXT:    %12 = arith.extui %arg0 : i32 to i64
// CHECK-NEXT:    %13 = arith.trunci %arg0 : i32 to i1
// CHECK-NEXT:    %14 = arith.trunci %arg0 overflow<nuw> : i32 to i16
// CHECK-NEXT:    %15 = arith.bitcast %arg1 : f32 to i32
// CHECK-NEXT:    %16 = arith.bitcast %arg0 {tag} : i32 to f32
// CHECK-NEXT:    return
// GENERIC-LABEL: sym_name = "casts"
// GENERIC:         "arith.index_cast"(%arg0) : (i32) -> index
// GENERIC:         "arith.extf"(%arg1) : (f32) -> f64
// GENERIC-NEXT:    "arith.extf"(%arg1) <{fastmath = #arith.fastmath<none>}> : (f32) -> f64
// GENERIC-NEXT:    "arith.truncf"(%arg2) : (f64) -> f32
// GENERIC-NEXT:    "arith.truncf"(%arg2) <{fastmath = #arith.fastmath<fast>, roundingmode = 3 : i32}> : (f64) -> f32
// GENERIC-NEXT:    "arith.extsi"(%arg0) : (i32) -> i64
// GENERIC-NEXT:    "arith.extui"(%arg0) : (i32) -> i64
// GENERIC-NEXT:    "arith.trunci"(%arg0) <{overflowFlags = #arith.overflow<none>}> : (i32) -> i1
// GENERIC-NEXT:    "arith.trunci"(%arg0) <{overflowFlags = #arith.overflow<nuw>}> : (i32) -> i16
// GENERIC-NEXT:    "arith.bitcast"(%arg1) : (f32) -> i32
// GENERIC-NEXT:    "arith.bitcast"(%arg0) {tag} : (i32) -> f32
func.func @casts(%a: i32, %x: f32, %d: f64) {
  %0 = arith.index_cast %a : i32 to index
  %1 = arith.index_cast %0 : index to i64
  %2 = arith.index_castui %a : i32 to index
  %3 = arith.sitofp %a : i32 to f32
  %4 = arith.uitofp %a : i32 to f64
  %5 = arith.fptosi %x : f32 to i32
  %6 = arith.fptoui %d : f64 to i8
  %7 = arith.extf %x : f32 to f64
  %8 = arith.extf %x fastmath<none> : f32 to f64
  %9 = arith.truncf %d : f64 to f32
  %10 = arith.truncf %d toward_zero fastmath<fast> : f64 to f32
  %11 = arith.extsi %a : i32 to i64
  %12 = arith.extui %a : i32 to i64
  %13 = arith.trunci %a : i32 to i1
  %14 = arith.trunci %a overflow<nuw> : i32 to i16
  %15 = arith.bitcast %x : f32 to i32
  %16 = arith.bitcast %a {tag} : i32 to f32
  return
}

// Generic input without the default-valued properties gets them, as in mlir-opt.
// CHECK-LABEL: func.func @generic_defaults
// CHECK-NEXT:    %0 = arith.addf %arg0, %arg0 : f32
// CHECK-NEXT:    %1 = arith.muli %arg1, %arg1 : i32
// CHECK-NEXT:    %2 = arith.cmpf olt, %arg0, %arg0 : f32
// CHECK-NEXT:    %3 = arith.subf %arg0, %arg0 fastmath<nnan,ninf> : f32
// GENERIC-LABEL: sym_name = "generic_defaults"
// GENERIC:         "arith.addf"(%arg0, %arg0) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:    "arith.muli"(%arg1, %arg1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:    "arith.cmpf"(%arg0, %arg0) <{fastmath = #arith.fastmath<none>, predicate = 4 : i64}> : (f32, f32) -> i1
// GENERIC-NEXT:    "arith.subf"(%arg0, %arg0) <{fastmath = #arith.fastmath<nnan,ninf>}> : (f32, f32) -> f32
func.func @generic_defaults(%x: f32, %a: i32) {
  %0 = "arith.addf"(%x, %x) : (f32, f32) -> f32
  %1 = "arith.muli"(%a, %a) : (i32, i32) -> i32
  %2 = "arith.cmpf"(%x, %x) <{predicate = 4 : i64}> : (f32, f32) -> i1
  %3 = "arith.subf"(%x, %x) <{fastmath = #arith.fastmath<ninf, nnan>}> : (f32, f32) -> f32
  return
}
