// Attribute and type aliases are resolved; `loc(...)` is parsed and printed with
// --mlir-print-debuginfo; top-level ops without a module get an implicit one.
// RUN: stencil-opt %s --allow-unregistered-dialect | stencil-opt --allow-unregistered-dialect | FileCheck %s
// RUN: stencil-opt %s --allow-unregistered-dialect --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

#id = affine_map<(d0) -> (d0)>
!vec = memref<16xf32>

// CHECK: module {
// CHECK-NEXT: func.func @f(%arg0: memref<16xf32>) {
// CHECK-NEXT: "test.op"(%arg0) {m = affine_map<(d0) -> (d0)>} : (memref<16xf32>) -> ()
// LOC: "test.op"(%arg0) {m = affine_map<(d0) -> (d0)>} : (memref<16xf32>) -> () loc("named"("x.c":3:4))
// LOC: return loc({{.*}}aliases-and-locations.mlir":16:3)
func.func @f(%a: !vec) {
  "test.op"(%a) {m = #id} : (!vec) -> () loc("named"("x.c":3:4))
  return
}
