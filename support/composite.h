// Warp's vector-like element types (vectors, matrices, quaternions, transforms, spatial vectors
// and matrices): one definition shared by the checker, the IR, the runtime and the host. Each is
// a fixed-size run of one scalar type, row-major, laid out as a struct of scalar fields, so every
// stage that handles structs handles them; the kind says how the checker types its operators.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "dtype.h"  // beside this header, in-tree and installed (include/tilec/support/)

namespace tilec {

enum class CompositeKind : uint8_t { None, Vector, Matrix, Quaternion, Transform, SpatialVector, SpatialMatrix };

struct Composite {
  CompositeKind kind = CompositeKind::None;
  int rows = 0;  // vector-like kinds: the length; matrices: rows
  int cols = 1;  // matrices: columns; 1 otherwise
  ScalarType scalar = ScalarType::Float32;

  bool valid() const { return kind != CompositeKind::None; }
  bool is_matrix() const { return kind == CompositeKind::Matrix || kind == CompositeKind::SpatialMatrix; }
  // Vectors, quaternions, transforms and spatial vectors: indexed by one integer.
  bool is_vector_like() const { return valid() && !is_matrix(); }
  int length() const { return rows * cols; }
  size_t size_bytes() const { return size_t(length()) * ScalarSize(scalar); }
  bool operator==(const Composite&) const = default;

  // Six-vectors and 6x6 matrices are Warp's spatial types whatever they are called.
  static Composite Vector(int n, ScalarType s) {
    return {n == 6 ? CompositeKind::SpatialVector : CompositeKind::Vector, n, 1, s};
  }
  static Composite Matrix(int r, int c, ScalarType s) {
    return {r == 6 && c == 6 ? CompositeKind::SpatialMatrix : CompositeKind::Matrix, r, c, s};
  }
  static Composite Quat(ScalarType s) { return {CompositeKind::Quaternion, 4, 1, s}; }
  static Composite Transform(ScalarType s) { return {CompositeKind::Transform, 7, 1, s}; }
  static Composite SpatialVector(ScalarType s) { return {CompositeKind::SpatialVector, 6, 1, s}; }
  static Composite SpatialMatrix(ScalarType s) { return {CompositeKind::SpatialMatrix, 6, 6, s}; }
};

// The scalar suffix of Warp's type names: h, f, d, i, ui, b, ub, s, us, l, ul ("" for bool).
std::string_view CompositeSuffix(ScalarType s);
// Warp's class name: vec3f, mat33d, quath, transformf, spatial_vectorf, spatial_matrixd; a
// vector or matrix of another size is vec5f / mat23f, as wp.types.vector/matrix name them.
std::string CompositeName(const Composite& c);
// Parses a Warp name with or without its suffix (`vec3` is vec3f, `quat` quatf, `mat22h`,
// `spatial_vector`, `transformd`); nullopt for any other name.
std::optional<Composite> CompositeFromName(std::string_view name);
// The name of component i as a struct field: x, y, z, w for vectors of up to four and
// quaternions; m<r><c> for matrices up to 9x9; c<i> otherwise.
std::string CompositeFieldName(const Composite& c, int i);
// The scalars an N-vector's `.x` ... `.w` select: 0..3, or -1.
int SwizzleIndex(char c);

}  // namespace tilec
