// Found by fuzz_pipelines (ReplaceNumber into generic-form segment sizes): the affine.for
// verifier summed 'operandSegmentSizes' with unchecked i64 addition and panicked ("attempt to
// add with overflow"); now a located error.
func.func @f() {
  "affine.for"() <{lowerBoundMap = affine_map<() -> (0)>, upperBoundMap = affine_map<() -> (4)>, step = 1 : index, operandSegmentSizes = array<i64: 9223372036854775807, 9223372036854775807, 2>}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : () -> ()
  return
}
