// Fuzz corpus seed: polybench-fdtd-2d.mlir after builtin.module(canonicalize) (regenerate: stencil-opt examples/polybench-fdtd-2d.mlir -p 'builtin.module(canonicalize)' --mlir-print-op-generic)
"builtin.module"() ({
  "stencil.program"() <{arg_names = ["ex", "ey", "hz", "fict"], defaults = {NX = 24 : i64, NY = 32 : i64, T = 10 : i64}, function_type = (!stencil.field<[NX, NY] x f64>, !stencil.field<[NX, NY] x f64>, !stencil.field<[NX, NY] x f64>, !stencil.field<[T] x f64>) -> (), param_mins = array<i64: 1, 2, 2>, param_names = ["T", "NX", "NY"], sym_name = "polybench_fdtd_2d"}> ({
  ^bb0(%ex: !stencil.field<[NX, NY] x f64>, %ey: !stencil.field<[NX, NY] x f64>, %hz: !stencil.field<[NX, NY] x f64>, %fict: !stencil.field<[T] x f64>):
    "stencil.iterate"() <{lower_bound = affine_map<()[s0, s1, s2] -> (0)>, upper_bound = affine_map<()[s0, s1, s2] -> (s0)>}> ({
    ^bb0(%t: index):
      "stencil.apply"(%ey) <{lower_bounds = affine_map<()[s0, s1, s2] -> (0, 0)>, name = "S0", upper_bounds = affine_map<()[s0, s1, s2] -> (1, s2)>}> ({
        %0 = "stencil.access"(%fict, %t) <{map = affine_map<(d0) -> (d0)>}> : (!stencil.field<[T] x f64>, index) -> f64
        "stencil.yield"(%0) : (f64) -> ()
      }) : (!stencil.field<[NX, NY] x f64>) -> ()
      "stencil.apply"(%ey) <{lower_bounds = affine_map<()[s0, s1, s2] -> (1, 0)>, name = "S1", upper_bounds = affine_map<()[s0, s1, s2] -> (s1, s2)>}> ({
        %cst = "arith.constant"() <{value = 5.000000e-01 : f64}> : () -> f64
        %0 = "stencil.access"(%ey) <{offset = array<i64: 0, 0>}> : (!stencil.field<[NX, NY] x f64>) -> f64
        %1 = "stencil.access"(%hz) <{offset = array<i64: 0, 0>}> : (!stencil.field<[NX, NY] x f64>) -> f64
        %2 = "stencil.access"(%hz) <{offset = array<i64: -1, 0>}> : (!stencil.field<[NX, NY] x f64>) -> f64
        %3 = "arith.subf"(%1, %2) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
        %4 = "arith.mulf"(%3, %cst) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
        %5 = "arith.subf"(%0, %4) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
        "stencil.yield"(%5) : (f64) -> ()
      }) : (!stencil.field<[NX, NY] x f64>) -> ()
      "stencil.apply"(%ex) <{lower_bounds = affine_map<()[s0, s1, s2] -> (0, 1)>, name = "S2", upper_bounds = affine_map<()[s0, s1, s2] -> (s1, s2)>}> ({
        %cst = "arith.constant"() <{value = 5.000000e-01 : f64}> : () -> f64
        %0 = "stencil.access"(%ex) <{offset = array<i64: 0, 0>}> : (!stencil.field<[NX, NY] x f64>) -> f64
        %1 = "stencil.access"(%hz) <{offset = array<i64: 0, 0>}> : (!stencil.field<[NX, NY] x f64>) -> f64
        %2 = "stencil.access"(%hz) <{offset = array<i64: 0, -1>}> : (!stencil.field<[NX, NY] x f64>) -> f64
        %3 = "arith.subf"(%1, %2) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
        %4 = "arith.mulf"(%3, %cst) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
        %5 = "arith.subf"(%0, %4) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
        "stencil.yield"(%5) : (f64) -> ()
      }) : (!stencil.field<[NX, NY] x f64>) -> ()
      "stencil.apply"(%hz) <{lower_bounds = affine_map<()[s0, s1, s2] -> (0, 0)>, name = "S3", upper_bounds = affine_map<()[s0, s1, s2] -> (s1 - 1, s2 - 1)>}> ({
        %cst = "arith.constant"() <{value = 0.69999999999999996 : f64}> : () -> f64
        %0 = "stencil.access"(%hz) <{offset = array<i64: 0, 0>}> : (!stencil.field<[NX, NY] x f64>) -> f64
        %1 = "stencil.access"(%ex) <{offset = array<i64: 0, 0>}> : (!stencil.field<[NX, NY] x f64>) -> f64
        %2 = "stencil.access"(%ex) <{offset = array<i64: 0, 1>}> : (!stencil.field<[NX, NY] x f64>) -> f64
        %3 = "stencil.access"(%ey) <{offset = array<i64: 0, 0>}> : (!stencil.field<[NX, NY] x f64>) -> f64
        %4 = "stencil.access"(%ey) <{offset = array<i64: 1, 0>}> : (!stencil.field<[NX, NY] x f64>) -> f64
        %5 = "arith.subf"(%2, %1) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
        %6 = "arith.addf"(%5, %4) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
        %7 = "arith.subf"(%6, %3) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
        %8 = "arith.mulf"(%7, %cst) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
        %9 = "arith.subf"(%0, %8) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
        "stencil.yield"(%9) : (f64) -> ()
      }) : (!stencil.field<[NX, NY] x f64>) -> ()
    }) : () -> ()
  }) : () -> ()
}) : () -> ()
