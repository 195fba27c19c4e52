// Eigen is confined to this translation unit, which is built with EIGEN_DONT_VECTORIZE and
// -ffp-contract=off (see lib/CMakeLists.txt): the same statistics then give the same bits on
// every x86 or ARM host, whatever SIMD unit Eigen would otherwise have picked.
#include "solver.h"

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "rfk/host/train.hpp"

namespace rfk::host {

void RidgeStats::Add(const RidgeStats& o, double sign) {
  n += sign * o.n;
  for (std::size_t i = 0; i < G.size(); ++i) G[i] += sign * o.G[i];
  for (std::size_t i = 0; i < h.size(); ++i) h[i] += sign * o.h[i];
  for (std::size_t i = 0; i < s.size(); ++i) s[i] += sign * o.s[i];
  for (std::size_t i = 0; i < ysum.size(); ++i) ysum[i] += sign * o.ysum[i];
}

RidgeSolution SolveRidge(const RidgeStats& st, double lambda) {
  if (st.n <= 0) throw TrainError("cannot fit a model to zero rows");
  const Eigen::Index D = st.D, K = st.K;
  const double inv_n = 1.0 / st.n;
  Eigen::VectorXd mu(D);
  for (Eigen::Index i = 0; i < D; ++i) mu(i) = st.s[i] * inv_n;
  Eigen::VectorXd ybar(K);
  for (Eigen::Index k = 0; k < K; ++k) ybar(k) = st.ysum[k] * inv_n;

  Eigen::MatrixXd A(D, D);
  for (Eigen::Index i = 0; i < D; ++i) {
    for (Eigen::Index j = i; j < D; ++j) {
      const double v = st.G[i * D + j] * inv_n - mu(i) * mu(j);
      A(i, j) = v;
      A(j, i) = v;
    }
    A(i, i) += lambda;
  }
  Eigen::MatrixXd rhs(D, K);
  for (Eigen::Index i = 0; i < D; ++i)
    for (Eigen::Index k = 0; k < K; ++k) rhs(i, k) = st.h[i * K + k] * inv_n - mu(i) * ybar(k);

  Eigen::MatrixXd W;
  Eigen::LLT<Eigen::MatrixXd> llt(A);
  if (llt.info() == Eigen::Success) {
    W = llt.solve(rhs);
  } else {
    Eigen::LDLT<Eigen::MatrixXd> ldlt(A);
    if (ldlt.info() != Eigen::Success) throw TrainError("the ridge system is singular and could not be factorised; use --lambda > 0");
    W = ldlt.solve(rhs);
  }
  if (!W.allFinite())
    throw TrainError("ridge solve produced non-finite weights; increase --lambda");

  RidgeSolution out;
  out.W.resize(static_cast<std::size_t>(D * K));
  out.bias.resize(static_cast<std::size_t>(K));
  for (Eigen::Index k = 0; k < K; ++k) {
    double b = ybar(k);
    for (Eigen::Index i = 0; i < D; ++i) b -= W(i, k) * mu(i);
    out.bias[k] = b;
    for (Eigen::Index i = 0; i < D; ++i) out.W[i * K + k] = W(i, k);
  }
  return out;
}

}  // namespace rfk::host
